// What the HTTP client asks for before each call: an Authorization header value and, for OAuth,
// the granted scopes. OAuth tokens are fetched once per source, shared by concurrent callers
// (single-flight), and renewed ahead of expiry.
import type { AccessGrant, TokenSource } from "../http/credential";
import { withDefaults } from "../http/options";
import type { TokenSet } from "./token-endpoint";

export type { AccessGrant, TokenSource };

/** `Authorization: Token token=<key>`: API keys never expire and carry no scopes. */
export function apiKeySource(token: string): TokenSource {
  const grant: AccessGrant = { authorization: `Token token=${token}` };
  return { renewable: false, get: async () => grant, invalidate: () => undefined };
}

export interface RenewOptions {
  /** Renew when less than this is left (capped at half the token's lifetime). */
  renewAheadMs?: number;
  now?: () => number;
}

const DEFAULT_RENEW: Required<RenewOptions> = { renewAheadMs: 5 * 60_000, now: Date.now };

interface Current {
  grant: AccessGrant;
  expiresAt: number;
  renewAt: number;
}

export class RenewingTokenSource implements TokenSource {
  readonly renewable = true;
  private readonly options: Required<RenewOptions>;
  private current?: Current;
  private inflight?: Promise<AccessGrant>;

  constructor(
    private readonly fetchToken: () => Promise<TokenSet>,
    options: RenewOptions = {},
  ) {
    this.options = withDefaults(DEFAULT_RENEW, options);
  }

  get(): Promise<AccessGrant> {
    const now = this.options.now();
    if (this.current && now < this.current.renewAt) return Promise.resolve(this.current.grant);
    this.inflight ??= this.renew().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  invalidate(grant: AccessGrant): void {
    if (this.current?.grant === grant) this.current = undefined;
  }

  private async renew(): Promise<AccessGrant> {
    const previous = this.current;
    try {
      const set = await this.fetchToken();
      const now = this.options.now();
      const lifetime = set.expiresAt - now;
      const grant: AccessGrant = { authorization: `Bearer ${set.accessToken}`, ...(set.scopes ? { scopes: set.scopes } : {}) };
      this.current = { grant, expiresAt: set.expiresAt, renewAt: set.expiresAt - Math.min(this.options.renewAheadMs, lifetime / 2) };
      return grant;
    } catch (e) {
      // A renewal ahead of expiry that fails must not break calls the old token can still make.
      if (previous && this.current === previous && this.options.now() < previous.expiresAt) return previous.grant;
      throw e;
    }
  }
}

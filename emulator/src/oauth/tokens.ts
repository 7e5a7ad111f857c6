// Issuing and revoking OAuth tokens. Only SHA-256 hashes of tokens are stored.
import type { EmulatorCore } from "../core";
import { secret, tokenHash } from "../ids";
import type { App } from "../store";

const DAY = 86_400_000;

/** Lifetimes from PagerDuty's OAuth documentation: app tokens and Scoped user tokens 1 d, Classic access 30 d, refresh 210 d, rolling 3 y. */
export const LIFETIMES = {
  appToken: DAY,
  scopedUserAccess: DAY,
  classicUserAccess: 30 * DAY,
  refresh: 210 * DAY,
  rollingWindow: 3 * 365 * DAY,
} as const;

export function accessLifetime(app: App, kind: "app" | "user"): number {
  if (kind === "app") return LIFETIMES.appToken;
  return app.kind === "classic" ? LIFETIMES.classicUserAccess : LIFETIMES.scopedUserAccess;
}

export function issueAccessToken(
  core: EmulatorCore,
  app: App,
  grant: { accountId: string; userId?: string; scopes: string[]; kind: "app" | "user" },
): { token: string; hash: string; expiresIn: number } {
  const token = `pde_${secret()}`;
  core.issued.record("access_token", token);
  const ttl = accessLifetime(app, grant.kind);
  const hash = tokenHash(token);
  core.state.accessTokens[hash] = {
    ...grant,
    appId: app.id,
    expiresAt: core.clock.now() + ttl,
    tail: token.slice(-4),
  };
  return { token, hash, expiresIn: ttl / 1000 };
}

/** A refresh token; the chain start bounds the rolling window. */
export function issueRefreshToken(
  core: EmulatorCore,
  app: App,
  grant: { accountId: string; userId: string; scopes: string[]; chainStartedAt?: number },
): { token: string; hash: string } {
  const now = core.clock.now();
  const chainStartedAt = grant.chainStartedAt ?? now;
  const token = `pdr_${secret()}`;
  core.issued.record("refresh_token", token);
  const hash = tokenHash(token);
  core.state.refreshTokens[hash] = {
    accountId: grant.accountId,
    appId: app.id,
    userId: grant.userId,
    scopes: grant.scopes,
    chainStartedAt,
    expiresAt: Math.min(now + LIFETIMES.refresh, chainStartedAt + LIFETIMES.rollingWindow),
  };
  return { token, hash };
}

/** "Revoke All Tokens": every access and refresh token of the app stops working. */
export function revokeAllTokens(core: EmulatorCore, appId: string): number {
  let n = 0;
  for (const table of [core.state.accessTokens, core.state.refreshTokens]) {
    for (const [hash, t] of Object.entries(table)) {
      if (t.appId === appId) {
        delete table[hash];
        n++;
      }
    }
  }
  for (const [code, c] of core.codes) if (c.appId === appId) core.codes.delete(code);
  return n;
}

/** Revoke specific tokens by hash (a replayed authorization code revokes what it issued). */
export function revokeHashes(core: EmulatorCore, hashes: string[]): void {
  for (const h of hashes) {
    delete core.state.accessTokens[h];
    delete core.state.refreshTokens[h];
  }
}

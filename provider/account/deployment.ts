// The deployment a dynamic-provider process serves: the stack config every provider object's
// `configure` hands over, the stack's name, and one account context per account and credential.
// The engine deserializes one provider object per resource type, all in this one process, so this
// is the one object that outlives a call; provider/index.ts holds the process's instance and hands
// each operation the context it needs.
import { createHash } from "node:crypto";
import { CONFIG_KEYS, resolveDriftAllFields, resolveSettings, type ProviderSettings } from "../config";
import { ApiError, ConfigError, TokenError } from "../errors";
import type { TokenSource } from "../auth/token-source";
import { createAccountClient, type ClientOverrides } from "./client";
import { AccountContext, type Warn } from "./context";
import { Journal } from "./journal";
import { StackState, type Exporter } from "./stack-state";

export interface DeploymentOptions {
  /** Where warnings go. */
  warn: Warn;
  /** The journal every account's creates record their intents in (default: the user's cache directory). */
  journal?: Journal;
  /** Reads the stack's state (default: `pulumi stack export`). */
  exporter?: Exporter;
  /** The environment settings fall back to. */
  env?: NodeJS.ProcessEnv;
  /** Client wiring (tests: a MockAgent). */
  clients?: ClientOverrides;
}

export class Deployment {
  private configured?: ReadonlyMap<string, string>;
  private stackState?: StackState;
  private journalInstance?: Journal;
  private readonly accounts = new Map<string, { context: AccountContext; tokens: TokenSource }>();
  /** The configured account's context, until the config changes: every operation asks for it. */
  private current?: AccountContext;

  constructor(private readonly options: DeploymentOptions) {}

  /**
   * Records the stack config (copied: `get` belongs to the call) and the program's fully qualified
   * stack name; the first name wins (one process serves one deployment). Equal config keeps the
   * existing accounts.
   */
  configure(get: (key: string) => string | undefined, stack?: string): void {
    const values = new Map<string, string>();
    for (const [key] of Object.values(CONFIG_KEYS)) {
      const value = get(key);
      if (value !== undefined) values.set(key, value);
    }
    if (!sameValues(this.configured, values)) this.current = undefined;
    this.configured = values;
    if (stack && !this.stackState) this.stackState = new StackState(stack, this.options.exporter);
  }

  /** The stack's state, when the program named its stack. */
  get stack(): StackState | undefined {
    return this.stackState;
  }

  /** The configured account's settings (environment only, when configure was never called). */
  settings(): ProviderSettings {
    return resolveSettings((key) => this.configured?.get(key), this.options.env ?? process.env);
  }

  /** The context of the configured account, made on first use. */
  context(): AccountContext {
    return (this.current ??= this.account(this.settings()).context);
  }

  /**
   * Proves the configured credentials work before any operation, so a preview or a drift check with
   * missing or refused credentials fails naming the settings instead of passing. OAuth settings fetch
   * their token (the operations that follow reuse it); an API key makes one small read.
   */
  async verifyCredentials(): Promise<void> {
    const settings = this.settings();
    const { context, tokens } = this.account(settings);
    try {
      if (settings.credentials.kind === "api_key") await context.client.request("GET", "/services", { query: { limit: 1 }, scopes: [] });
      else await tokens.get();
    } catch (e) {
      throw refused(settings, e);
    }
  }

  /** Drops every account and closes their connections (tests, orderly shutdown). */
  async reset(): Promise<void> {
    const closing = [...this.accounts.values()].map((a) => a.context.client.close());
    this.accounts.clear();
    this.current = undefined;
    this.configured = undefined;
    this.stackState = undefined;
    await Promise.all(closing);
  }

  private account(settings: ProviderSettings): { context: AccountContext; tokens: TokenSource } {
    const key = accountKey(settings);
    let found = this.accounts.get(key);
    if (!found) {
      // The refresh-token flow warns outside any resource operation: the warning names its source.
      const warn = (m: string) => void this.options.warn(`pulumi-pagerduty-dynamic: ${m}`);
      const { client, tokens } = createAccountClient(settings, { warn, ...this.options.clients });
      this.journalInstance ??= this.options.journal ?? new Journal();
      const context = new AccountContext({
        client,
        journal: this.journalInstance,
        stack: () => this.stackState,
        warn: this.options.warn,
        driftAllFields: () => resolveDriftAllFields((k) => this.configured?.get(k), this.options.env ?? process.env),
      });
      found = { context, tokens };
      this.accounts.set(key, found);
    }
    return found;
  }
}

const sameValues = (a: ReadonlyMap<string, string> | undefined, b: ReadonlyMap<string, string>) =>
  a !== undefined && a.size === b.size && [...b].every(([k, v]) => a.get(k) === v);

/** A refusal of the credentials themselves as a configuration error naming the settings to fix. */
function refused(settings: ProviderSettings, e: unknown): unknown {
  const kind = settings.credentials.kind;
  const keys =
    e instanceof ApiError && e.status === 401 && kind === "api_key" ? (["token"] as const)
    : e instanceof TokenError && e.oauthError === "invalid_grant" && kind === "refresh_token" ? (["refreshToken"] as const)
    : e instanceof TokenError && (e.status === 400 || e.status === 401) && kind !== "api_key" ? (["clientId", "clientSecret"] as const)
    : undefined;
  if (!keys) return e;
  const named = keys.map((k) => `"${CONFIG_KEYS[k][0]}" (env ${CONFIG_KEYS[k][1]})`).join(" and ");
  return new ConfigError(
    `PagerDuty refused the credentials in ${named}: ${(e as Error).message}. Set the current values ` +
      `(pulumi config set --secret ...). After a rotation, run refresh and destroy with --run-program: ` +
      `without it they reuse the settings stored at the last \`pulumi up\``,
  );
}

/** Identifies account + credential (and the settings a client is built from) without keeping the credential: a hash. */
function accountKey(s: ProviderSettings): string {
  const identity = [s.apiUrl, s.authUrl, s.serviceRegion, s.subdomain, s.scopes, s.credentials, s.maxConcurrency, s.requestsPerMinute, s.tokenCacheDir];
  return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}

// API clients of the accounts a CLI works in, made from the stack config as the provider makes
// them: the default account from the top-level `pagerduty:*` settings (environment fallbacks), a
// named one from its entry of `pagerduty:accounts` alone.
import { createClient, type ClientOverrides } from "../account/client";
import { DEFAULT_ACCOUNT, describeSetting, resolveSettings, type ProviderSettings } from "../config";
import { ApiError, ConfigError, TokenError } from "../errors";
import type { ApiClient } from "../http/client";

/** How messages name an account. */
export const accountLabel = (account: string) => (account === DEFAULT_ACCOUNT ? "the default account" : `account "${account}"`);

/**
 * A refusal of the credentials themselves, as a ConfigError naming the settings to fix; any other
 * error as it is.
 */
export function credentialsRefused(settings: ProviderSettings, e: unknown): unknown {
  const kind = settings.credentials.kind;
  let keys: ReadonlyArray<"token" | "refreshToken" | "clientId" | "clientSecret"> | undefined;
  if (e instanceof ApiError && e.status === 401 && kind === "api_key") keys = ["token"];
  else if (e instanceof TokenError && e.oauthError === "invalid_grant" && kind === "refresh_token") keys = ["refreshToken"];
  else if (e instanceof TokenError && (e.status === 400 || e.status === 401) && kind !== "api_key") keys = ["clientId", "clientSecret"];
  if (!keys) return e;
  const named = keys.map((k) => describeSetting(k, settings.account)).join(" and ");
  return new ConfigError(`PagerDuty refused the credentials of ${accountLabel(settings.account)} in ${named}: ${(e as Error).message}`);
}

/** One client per account, made on first use; `close` closes them all. */
export class AccountClients {
  private readonly made = new Map<string, { settings: ProviderSettings; client: ApiClient }>();

  constructor(
    private readonly config: ReadonlyMap<string, string>,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly overrides: ClientOverrides = {},
  ) {}

  /** The account's settings; a ConfigError names the setting that is missing or refused. */
  settings(account: string): ProviderSettings {
    return this.entry(account).settings;
  }

  /** Runs `work` with the account's client; refused credentials become a ConfigError naming the settings. */
  async use<T>(account: string, work: (client: ApiClient) => Promise<T>): Promise<T> {
    const { settings, client } = this.entry(account);
    try {
      return await work(client);
    } catch (e) {
      throw credentialsRefused(settings, e);
    }
  }

  async close(): Promise<void> {
    const clients = [...this.made.values()].map((m) => m.client.close());
    this.made.clear();
    await Promise.all(clients);
  }

  private entry(account: string): { settings: ProviderSettings; client: ApiClient } {
    let found = this.made.get(account);
    if (!found) {
      const settings = resolveSettings((key) => this.config.get(key), this.env, account);
      found = { settings, client: createClient(settings, this.overrides) };
      this.made.set(account, found);
    }
    return found;
  }
}

// API clients of the accounts a CLI works in, made from the stack config as the provider makes
// them: the default account from the top-level `pagerduty:*` settings (environment fallbacks), a
// named one from its entry of `pagerduty:accounts` alone; the package's `pagerduty-dynamic:*` keys
// for a package stack.
import { createClient, type ClientOverrides } from "../account/client";
import { NAMESPACE, type Namespace, resolveSettings, type ProviderSettings } from "../config";
import { credentialsRefused } from "../account/refusal";
import type { ApiClient } from "../http/client";

/** One client per account, made on first use; `close` closes them all. */
export class AccountClients {
  private readonly made = new Map<string, { settings: ProviderSettings; client: ApiClient }>();

  constructor(
    private readonly config: ReadonlyMap<string, string>,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly overrides: ClientOverrides = {},
    /** The namespace of the config's keys (and of the settings messages name). */
    private readonly namespace: Namespace = NAMESPACE,
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
      const settings = resolveSettings((key) => this.config.get(key), this.env, account, this.namespace);
      found = { settings, client: createClient(settings, this.overrides) };
      this.made.set(account, found);
    }
    return found;
  }
}

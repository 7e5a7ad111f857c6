// The deployment a dynamic-provider process serves: the stack config every provider object's
// `configure` hands over, the stack's name, and one account context per account and credential.
// The engine deserializes one provider object per resource type, all in this one process, so this
// is the one object that outlives a call; provider/index.ts holds the process's instance and hands
// each operation the context it needs.
import { createHash } from "node:crypto";
import * as path from "node:path";
import {
  accountNames,
  accountsKey,
  configKeys,
  DEFAULT_ACCOUNT,
  hasTopLevelCredentials,
  NAMESPACE,
  type Namespace,
  resolveDriftAllFields,
  resolveSettings,
  type ProviderSettings,
} from "../config";
import { AcceptedCredentials } from "../auth/token-cache";
import { cacheRoot } from "../fs/durable-file";
import type { TokenSource } from "../auth/token-source";
import { ApiError } from "../errors";
import { createAccountClient, type ClientOverrides } from "./client";
import { credentialsRefused } from "./refusal";
import { Consistency } from "../kernel/consistency";
import { AccountContext, type Warn } from "./context";
import { defaultJournalDir, Journal } from "./journal";
import { StackState, type Exporter, type StackName } from "./stack-state";
import { CURRENT_USER, SERVICES } from "../kernel/api-paths";

export interface DeploymentOptions {
  /** Where warnings go. */
  warn: Warn;
  /** The namespace of the settings' keys: the dynamic providers' `pagerduty` (default), the plugin's `pagerduty-dynamic`. Messages name them so. */
  namespace?: Namespace;
  /** Where the accounts' journals live (default: the user's cache directory); a named account's in a subdirectory. */
  journalDir?: string;
  /** Reads the stack's state (default: `pulumi stack export`). */
  exporter?: Exporter;
  /** The environment settings fall back to. */
  env?: NodeJS.ProcessEnv;
  /** Client wiring (tests: a MockAgent). */
  clients?: ClientOverrides;
  /**
   * Keep which credentials the REST API has taken (auth/token-cache.ts, in the package's cache
   * directory), so the region check is made once per machine: the provider's processes do.
   */
  rememberAccepted?: boolean;
}

/**
 * An account and credential in use: its context, its token source, and its credential check once
 * made: `verified` the credential itself, `accepted` the REST API's answer to a new token.
 */
interface Account {
  context: AccountContext;
  tokens: TokenSource;
  verified?: Promise<void>;
  accepted?: Promise<void>;
}

export class Deployment {
  private configured?: ReadonlyMap<string, string>;
  private stackState?: StackState;
  private readonly journals = new Map<string, Journal>();
  private readonly accounts = new Map<string, Account>();
  /** Each account's context, until the config changes: every operation asks for one. */
  private readonly current = new Map<string, AccountContext>();

  private readonly namespace: Namespace;

  constructor(private readonly options: DeploymentOptions) {
    this.namespace = options.namespace ?? NAMESPACE;
  }

  /**
   * Records the stack config (copied: `get` belongs to the call) and the program's fully qualified
   * stack name; the first name wins (one process serves one deployment). Equal config keeps the
   * existing accounts.
   */
  configure(get: (key: string) => string | undefined, stack?: string): void {
    const values = new Map<string, string>();
    for (const key of [...Object.values(configKeys(this.namespace)).map(([k]) => k), accountsKey(this.namespace)]) {
      const value = get(key);
      if (value !== undefined) values.set(key, value);
    }
    if (!sameValues(this.configured, values)) this.current.clear();
    this.configured = values;
    if (stack) this.nameStack(stack);
  }

  /**
   * Names the stack this process serves: its fully qualified name, or how to find it, asked only when
   * a create first needs the stack's state. The first name wins (one process serves one deployment).
   */
  nameStack(stack: StackName): void {
    if (!this.stackState) this.stackState = new StackState(stack, this.options.exporter);
  }

  /** The stack's state, when the program (or the plugin, from a URN) named its stack. */
  get stack(): StackState | undefined {
    return this.stackState;
  }

  /** An account's settings (environment only, when configure was never called). */
  settings(account: string = DEFAULT_ACCOUNT): ProviderSettings {
    return resolveSettings(this.get, this.options.env ?? process.env, account, this.namespace);
  }

  /** The context of an account (the default one: the top-level settings), made on first use. */
  context(account: string = DEFAULT_ACCOUNT): AccountContext {
    let found = this.current.get(account);
    if (!found) {
      found = this.account(this.settings(account)).context;
      this.current.set(account, found);
    }
    return found;
  }

  /**
   * The accounts the stack config declares: every named account, and the default one when it has
   * credentials or is the only one.
   */
  configuredAccounts(): string[] {
    const named = accountNames(this.get, this.namespace);
    const withDefault = !named.length || hasTopLevelCredentials(this.get, this.options.env ?? process.env, this.namespace);
    return withDefault ? [DEFAULT_ACCOUNT, ...named] : named;
  }

  /**
   * Proves every configured account's credentials work before any operation, so a preview or a drift
   * check with missing or refused credentials fails naming the account and settings instead of
   * passing: one request per account. An API key makes one small read. OAuth settings fetch their
   * token (the operations that follow reuse it); its region check (the REST API shown a new token
   * once: the REST API of another region refuses it) is not made for a credential the REST API took
   * before (`rememberAccepted`), and otherwise started here but not waited for: every operation
   * waits for it first (`accepted`), so none runs on a token the REST API refuses, while Configure
   * answers after its one request. The accounts are checked at once; the first failure in
   * declaration order is reported.
   */
  async verifyCredentials(): Promise<void> {
    const outcomes = await Promise.allSettled(this.configuredAccounts().map((a) => this.verify(a)));
    const failed = outcomes.find((o) => o.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  /**
   * Waits for the REST API's answer to the tokens verifyCredentials fetched (the region check), and
   * fails as it failed, naming the account's settings. Nothing to wait for once answered, or for a
   * credential the REST API took before.
   */
  async accepted(): Promise<void> {
    for (const a of [...this.accounts.values()]) if (a.accepted) await a.accepted;
  }

  /** One check per account and credential: every provider object's configure asks again. A failure is forgotten. */
  private verify(account: string): Promise<void> {
    const settings = this.settings(account);
    const found = this.account(settings);
    // A failure is forgotten (the next configure checks again); the region check's stays the operations' answer until then.
    const refused = (e: unknown) => {
      found.verified = undefined;
      return credentialsRefused(settings, e, REFUSED_ADVICE);
    };
    if (found.verified) return found.verified;
    // The token (an API key: its one read), then, for a token, the region check. `accepted` covers the
    // whole check from the start, so no operation slips in before the region check begins.
    const fetched = (async () => {
      if (settings.credentials.kind === "api_key") {
        await found.context.client.request("GET", SERVICES, { query: { limit: 1 }, scopes: [] });
        return false;
      }
      await found.tokens.get();
      return true;
    })().catch((e: unknown) => {
      throw refused(e);
    });
    found.verified = fetched.then(() => undefined);
    found.accepted =
      settings.credentials.kind === "api_key"
        ? undefined
        : fetched.then(
            async () => {
              const remembered = this.remembered(settings);
              if (await remembered?.known()) return;
              const answered = await restAccepts(found.context).catch((e: unknown) => {
                throw refused(e);
              });
              // Recorded only on the REST API's answer: no answer (an outage, a 5xx) proves nothing.
              if (answered) await remembered?.record();
            },
            // No token, no region check: configure reports that failure, and operations ask for a token as before.
            () => undefined,
          );
    // Its failure is the next operation's to report; until then it is no unhandled rejection.
    found.accepted?.catch(() => undefined);
    return found.verified;
  }

  private readonly get = (key: string) => this.configured?.get(key);

  /**
   * Whether the REST API took this credential before, and how to record that it did (none unless
   * `rememberAccepted`). The entry is a hash of the credential and every setting of where it goes, so
   * a changed secret, account, region or URL is checked again. Its failures cost the region check's
   * request, nothing more: a warning, once per process.
   */
  private remembered(settings: ProviderSettings): { known(): Promise<boolean>; record(): Promise<void> } | undefined {
    if (!this.options.rememberAccepted) return undefined;
    const dir = path.join(cacheRoot(this.options.env ?? process.env), "accepted-credentials");
    const cache = new AcceptedCredentials({ dir, warn: (m) => void this.options.warn(`pulumi-pagerduty-dynamic: ${m}`) });
    const { apiUrl, authUrl, serviceRegion, subdomain = "", scopes, credentials } = settings;
    const key = AcceptedCredentials.key([apiUrl, authUrl, serviceRegion, subdomain, scopes.join(" "), JSON.stringify(credentials)]);
    return {
      known: () => cache.has(key),
      record: () =>
        cache.record(key).catch((e: unknown) => {
          if (this.unrecorded) return;
          this.unrecorded = true;
          void this.options.warn(`pulumi-pagerduty-dynamic: could not record in ${cache.dir} that the REST API took the credentials (${(e as Error).message})`);
        }),
    };
  }

  private unrecorded = false;

  /** Drops every account and closes their connections (tests, orderly shutdown). */
  async reset(): Promise<void> {
    const closing = [...this.accounts.values()].map((a) => a.context.client.close());
    this.accounts.clear();
    this.current.clear();
    this.journals.clear();
    this.configured = undefined;
    this.stackState = undefined;
    await Promise.all(closing);
  }

  private account(settings: ProviderSettings): Account {
    const key = accountKey(settings);
    let found = this.accounts.get(key);
    if (!found) {
      // The refresh-token flow warns outside any resource operation: the warning names its source.
      const warn = (m: string) => void this.options.warn(`pulumi-pagerduty-dynamic: ${m}`);
      const { client, tokens } = createAccountClient(settings, { warn, ...this.options.clients });
      const context = new AccountContext({
        account: settings.account,
        client,
        journal: this.journal(settings.account),
        stack: () => this.stackState,
        warn: this.options.warn,
        consistency: new Consistency({ windowMs: settings.consistencyWindowMs }),
        driftAllFields: () => resolveDriftAllFields((k) => this.configured?.get(k), this.options.env ?? process.env, this.namespace),
      });
      found = { context, tokens };
      this.accounts.set(key, found);
    }
    return found;
  }

  /** An account's journal: the default account's in the journal directory, a named one's in a subdirectory. */
  private journal(account: string): Journal {
    let found = this.journals.get(account);
    if (!found) {
      const root = this.options.journalDir ?? defaultJournalDir(this.options.env ?? process.env);
      found = new Journal(account === DEFAULT_ACCOUNT ? root : path.join(root, "accounts", account));
      this.journals.set(account, found);
    }
    return found;
  }
}

const sameValues = (a: ReadonlyMap<string, string> | undefined, b: ReadonlyMap<string, string>) =>
  a !== undefined && a.size === b.size && [...b].every(([k, v]) => a.get(k) === v);

/**
 * Whether the REST API takes the token the identity service issued: the REST API of another service
 * region than the account's refuses it (401), which the token request cannot tell. `GET /users/me`
 * needs no scope; app tokens have no user and get 400, which is as good an answer here. False: no
 * answer (an outage, a 5xx, a 429 past its retries), which neither refuses nor proves the credential.
 */
async function restAccepts(context: AccountContext): Promise<boolean> {
  try {
    await context.client.request("GET", CURRENT_USER, { scopes: [] });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) throw e;
    return e instanceof ApiError && e.status === 400;
  }
}

/** What to do about refused credentials, after the settings are named. */
const REFUSED_ADVICE =
  "Set the current values (pulumi config set --secret ...). After a rotation, run refresh and destroy with --run-program: " +
  "without it they reuse the settings stored at the last `pulumi up`";

/** Identifies account + credential (and the settings a client is built from) without keeping the credential: a hash. */
function accountKey(s: ProviderSettings): string {
  const identity = [
    s.account,
    s.apiUrl,
    s.authUrl,
    s.serviceRegion,
    s.subdomain,
    s.scopes,
    s.credentials,
    s.maxConcurrency,
    s.requestsPerMinute,
    s.tokenCacheDir,
    s.consistencyWindowMs,
  ];
  return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}

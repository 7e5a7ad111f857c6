// Provider settings from stack config (`pagerduty:*` for the dynamic providers, `pagerduty-dynamic:*`
// for the package's plugin: each door's namespace) with environment fallbacks. Resolved when a
// client is needed, never at module load: the dynamic-provider process is started before config
// arrives, and the environment may only be complete at run time. Messages name a setting by the
// key of the namespace it was read from, so each door's users read their own keys.
import { defaultTokenCacheDir } from "./fs/durable-file";
import { ConfigError, InsecureUrlError } from "./errors";
import { DEFAULT_CLIENT } from "./http/client";
import { DEFAULT_RETRY, type RetryOptions } from "./http/retry";
import { DEFAULT_TRANSPORT } from "./http/transport";
import { AUDIT_READ, FIELDS_READ, FIELDS_WRITE, POLICIES_READ, READ, WRITE } from "./scopes";
import { ACCOUNTS_SETTING, DEFAULT_CONSISTENCY_WINDOW_S, NAMESPACES, type Namespace, perSetting, SETTING_NAMES, SETTINGS, type SettingName } from "./settings";

export type { Namespace };

export type ServiceRegion = "us" | "eu";

/**
 * The minimum the resources need (the scopes PagerDuty's API reference names per endpoint, `x-pd-requires-scope`):
 * services and their children, field definitions, audit.
 */
export const DEFAULT_SCOPES: readonly string[] = [...READ, ...WRITE, ...FIELDS_READ, ...AUDIT_READ];

/**
 * Asked for as well by app tokens (client credentials) when `pagerduty:scopes` is unset: with
 * `escalation_policies.read` a preview checks each service's escalation policy, with
 * `custom_fields.write` a program can define custom fields (ServiceCustomField). An app that lacks
 * one gets a grant without it and no error (PagerDuty grants the valid scopes of a request), so it
 * costs nothing, and the app's own grant stays what bounds the token: whoever set up the app chose
 * whether it may change field definitions. A preview that plans such a write without the scope
 * fails naming it. A user login, whose grant must hold every scope asked for, asks for neither.
 */
export const APP_TOKEN_OPTIONAL_SCOPES: readonly string[] = [...POLICIES_READ, ...FIELDS_WRITE];

export type Credentials =
  | { kind: "client_credentials"; clientId: string; clientSecret: string }
  | { kind: "api_key"; token: string }
  | { kind: "refresh_token"; clientId: string; clientSecret: string; refreshToken: string };

export interface Timeouts {
  connectMs: number;
  /** Waiting for response headers. */
  headersMs: number;
  /** Between two chunks of a response body. */
  bodyMs: number;
}

export interface ProviderSettings {
  /** The account's name: "default" for the top-level settings, else its key in `pagerduty:accounts`. */
  account: string;
  /** The namespace the settings were read from: how messages name them. */
  namespace: Namespace;
  apiUrl: string;
  authUrl: string;
  serviceRegion: ServiceRegion;
  subdomain?: string;
  credentials: Credentials;
  /** Requested scopes, without the account selector (added for client credentials). */
  scopes: string[];
  /** Scopes app tokens ask for beyond `scopes`, never required (`APP_TOKEN_OPTIONAL_SCOPES` with the default scopes). */
  optionalScopes: string[];
  /** Accept: application/vnd.<vendor>+json;version=2 */
  vendor: string;
  userAgent: string;
  /** Requests in flight at once per account. */
  maxConcurrency: number;
  /** Static ceiling per account in requests per minute; 0: paced by PagerDuty's reported budget only. */
  requestsPerMinute: number;
  timeouts: Timeouts;
  retry: Required<RetryOptions>;
  /** Where rotated refresh tokens are kept (refresh_token credentials only). */
  tokenCacheDir: string;
  /** How long after its create an object may answer 404 or be left out of listings (kernel/consistency.ts). */
  consistencyWindowMs: number;
}

/** The dynamic providers' namespace of stack config, `pagerduty:<setting>`: what the CLIs and every default name. */
export const NAMESPACE: Namespace = NAMESPACES.dynamic;

type Keys = Readonly<Record<SettingName, readonly [key: string, env: string]>>;
const keysIn = (namespace: Namespace): Keys => perSetting((name) => [`${namespace}:${name}`, SETTINGS[name].env]);
const KEYS: Readonly<Record<Namespace, Keys>> = { [NAMESPACES.dynamic]: keysIn(NAMESPACES.dynamic), [NAMESPACES.package]: keysIn(NAMESPACES.package) };

/** Each setting's stack-config key in `namespace` and its environment fallback (from the table of settings). */
export const configKeys = (namespace: Namespace = NAMESPACE): Keys => KEYS[namespace];

/** The dynamic providers' keys (`pagerduty:<setting>`) and environment fallbacks. */
export const CONFIG_KEYS: Keys = configKeys();

type Setting = SettingName;

/** The account of the top-level `pagerduty:*` settings, and of every resource that names none. */
export const DEFAULT_ACCOUNT = "default";

/** Stack config holding the named accounts in `namespace`: a map from a name to that account's settings. */
export const accountsKey = (namespace: Namespace = NAMESPACE) => `${namespace}:${ACCOUNTS_SETTING}`;

/** The dynamic providers' `pagerduty:accounts`. */
export const ACCOUNTS_KEY = accountsKey();

/** The settings a named account may set (driftAllFields is the stack's, not an account's). */
export const ACCOUNT_SETTINGS: readonly Setting[] = SETTING_NAMES.filter((s) => "perAccount" in SETTINGS[s]);

const ACCOUNT_NAME = /^[a-z][a-z0-9_-]{0,39}$/i;

/** Why `name` cannot name an account (undefined: it can). */
export function accountNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || !ACCOUNT_NAME.test(name)) {
    return `must be a letter followed by up to 39 letters, digits, "-" or "_"; got ${JSON.stringify(name)}`;
  }
  return undefined;
}

/** Where one account's settings are read from, and how messages name them. */
interface SettingSource {
  value(s: Setting): string | undefined;
  /** The stack-config key, e.g. "pagerduty:accounts.eu.apiUrl". */
  key(s: Setting): string;
  /** The key and any environment fallback, for messages. */
  describe(s: Setting): string;
}

/** The top-level settings of `namespace`, each with its environment fallback. */
function topLevel(get: (key: string) => string | undefined, env: NodeJS.ProcessEnv, namespace: Namespace): SettingSource {
  const keys = configKeys(namespace);
  return {
    value: (s) => {
      const [key, envName] = keys[s];
      // An empty environment variable is unset (CI fills unset variables with ""); an empty stack
      // setting was set on purpose and means nothing, so falling back to a default would hide it.
      return nonEmpty(refuseEmpty(get(key), key, s)) ?? nonEmpty(env[envName]);
    },
    key: (s) => keys[s][0],
    describe: (s) => describeSetting(s, DEFAULT_ACCOUNT, namespace),
  };
}

/**
 * A named account's entry of `pagerduty:accounts`. It inherits nothing from the top-level settings
 * or the environment: a US subdomain or credential silently reused for an EU account would talk to
 * the wrong account.
 */
function namedAccount(name: string, entry: Record<string, unknown>, namespace: Namespace): SettingSource {
  return {
    value: (s) => {
      const v = entry[s];
      if (Array.isArray(v)) return nonEmpty(refuseEmpty(v.join(" "), `${accountsKey(namespace)}.${name}.${s}`, s));
      return typeof v === "number" || typeof v === "boolean"
        ? String(v)
        : nonEmpty(refuseEmpty(v as string | undefined, `${accountsKey(namespace)}.${name}.${s}`, s));
    },
    key: (s) => `${accountsKey(namespace)}.${name}.${s}`,
    describe: (s) => describeSetting(s, name, namespace),
  };
}

/**
 * The named accounts of `pagerduty:accounts` (a JSON object, as `pulumi config set --path` writes
 * it), checked: names, known settings, value types. Empty when unset.
 */
export function parseAccounts(raw: string | undefined, namespace: Namespace = NAMESPACE): Map<string, Record<string, unknown>> {
  const key = accountsKey(namespace);
  const accounts = new Map<string, Record<string, unknown>>();
  if (raw === undefined || !raw.trim()) return accounts;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`"${key}" must be a map from account names to settings (pulumi config set --path '${key}.eu.subdomain' acme-eu); it is not JSON`);
  }
  if (!isRecord(parsed))
    throw new ConfigError(`"${key}" must be a map from account names to settings; got ${Array.isArray(parsed) ? "a list" : typeof parsed}`);
  const known = new Set<string>(ACCOUNT_SETTINGS);
  for (const [name, entry] of Object.entries(parsed)) {
    const where = `"${key}.${name}"`;
    const problem = accountNameProblem(name);
    if (problem) throw new ConfigError(`${where}: an account name ${problem}`);
    if (name === DEFAULT_ACCOUNT)
      throw new ConfigError(`${where}: "${DEFAULT_ACCOUNT}" names the top-level ${namespace}:* settings; give the account another name`);
    if (!isRecord(entry)) throw new ConfigError(`${where} must be a map of settings (clientId, clientSecret, subdomain, ...)`);
    for (const [setting, v] of Object.entries(entry)) {
      if (!known.has(setting)) throw new ConfigError(`${where}.${setting} is not an account setting; known: ${ACCOUNT_SETTINGS.join(", ")}`);
      const ok =
        typeof v === "string" ||
        (typeof v === "number" && (setting === "maxConcurrency" || setting === "requestsPerMinute" || setting === "consistencyWindow")) ||
        (setting === "scopes" && Array.isArray(v) && v.every((x) => typeof x === "string"));
      if (!ok)
        throw new ConfigError(`${where}.${setting} must be ${setting === "scopes" ? "a string or a list of strings" : "a string"}; got ${JSON.stringify(v)}`);
    }
    accounts.set(name, entry);
  }
  return accounts;
}

/** The names of the accounts the stack config declares in `pagerduty:accounts` (of `namespace`). */
export function accountNames(get: (key: string) => string | undefined, namespace: Namespace = NAMESPACE): string[] {
  return [...parseAccounts(get(accountsKey(namespace)), namespace).keys()];
}

/** Whether any top-level credential is set (config or environment): the default account is in use. */
export function hasTopLevelCredentials(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  namespace: Namespace = NAMESPACE,
): boolean {
  const source = topLevel(get, env, namespace);
  return (["clientId", "clientSecret", "token", "refreshToken"] as const).some((s) => source.value(s) !== undefined);
}

/** The key of setting `s` of `account` in `namespace`: `pagerduty:apiUrl`, `pagerduty-dynamic:accounts.eu.apiUrl`. */
export function settingKey(s: Setting, account: string = DEFAULT_ACCOUNT, namespace: Namespace = NAMESPACE): string {
  return account === DEFAULT_ACCOUNT ? configKeys(namespace)[s][0] : `${accountsKey(namespace)}.${account}.${s}`;
}

/** How messages name setting `s` of `account`: quoted, with its environment fallback for the top-level settings. */
export function describeSetting(s: Setting, account: string = DEFAULT_ACCOUNT, namespace: Namespace = NAMESPACE): string {
  return account === DEFAULT_ACCOUNT ? `"${settingKey(s, account, namespace)}" (env ${SETTINGS[s].env})` : `"${settingKey(s, account, namespace)}"`;
}

/** Where a setting's value comes from, unquoted (what a network error adds after a URL): `pagerduty:apiUrl or PAGERDUTY_API_URL`. */
export function settingSource(s: Setting, account: string = DEFAULT_ACCOUNT, namespace: Namespace = NAMESPACE): string {
  return account === DEFAULT_ACCOUNT ? `${settingKey(s, account, namespace)} or ${SETTINGS[s].env}` : settingKey(s, account, namespace);
}

/** How long after its create an object may answer 404 or be left out of listings, by region (kernel/consistency.ts). */
export const DEFAULT_WINDOW_MS: Record<ServiceRegion, number> = {
  us: DEFAULT_CONSISTENCY_WINDOW_S.us * 1000,
  eu: DEFAULT_CONSISTENCY_WINDOW_S.eu * 1000,
};

const API_HOSTS: Record<ServiceRegion, string> = { us: "https://api.pagerduty.com", eu: "https://api.eu.pagerduty.com" };
const IDENTITY_HOST = "https://identity.pagerduty.com";
/** An account subdomain, e.g. "acme" for acme.pagerduty.com. */
export const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/**
 * The settings of `account`: the top-level `pagerduty:*` settings (with environment fallbacks) for
 * the default account, its entry of `pagerduty:accounts` for a named one; read under `namespace`
 * (the package's plugin reads `pagerduty-dynamic:*`). Errors name the key to set, in that namespace.
 */
export function resolveSettings(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  account: string = DEFAULT_ACCOUNT,
  namespace: Namespace = NAMESPACE,
): ProviderSettings {
  const accounts = accountsKey(namespace);
  let source: SettingSource;
  if (account === DEFAULT_ACCOUNT) source = topLevel(get, env, namespace);
  else {
    const entry = parseAccounts(get(accounts), namespace).get(account);
    if (!entry) {
      throw new ConfigError(
        `account "${account}" is not configured: declare it in "${accounts}" ` +
          `(pulumi config set --path '${accounts}.${account}.subdomain' ...; --secret for its clientSecret, token or refreshToken)`,
      );
    }
    source = namedAccount(account, entry, namespace);
  }
  return resolveFrom(source, account, env, namespace);
}

function resolveFrom(source: SettingSource, account: string, env: NodeJS.ProcessEnv, namespace: Namespace): ProviderSettings {
  const { value, describe } = source;

  const region = (value("serviceRegion") ?? "us").toLowerCase();
  if (region !== "us" && region !== "eu") throw new ConfigError(`${describe("serviceRegion")} must be "us" or "eu"; got ${JSON.stringify(region)}`);
  const subdomain = value("subdomain");
  if (subdomain !== undefined && !SUBDOMAIN.test(subdomain)) {
    throw new ConfigError(`${describe("subdomain")} must be the account's subdomain (e.g. "acme" for acme.pagerduty.com); got ${JSON.stringify(subdomain)}`);
  }
  const credentials = resolveCredentials(source);
  if (credentials.kind === "client_credentials" && subdomain === undefined) {
    throw new ConfigError(`${describe("subdomain")} is required with client credentials: app tokens are requested for one account`);
  }

  return {
    account,
    namespace,
    apiUrl: baseUrl(source, "apiUrl", value("apiUrl") ?? API_HOSTS[region]),
    authUrl: baseUrl(source, "authUrl", value("authUrl") ?? IDENTITY_HOST),
    serviceRegion: region,
    ...(subdomain !== undefined ? { subdomain: subdomain.toLowerCase() } : {}),
    credentials,
    scopes: resolveScopes(source),
    optionalScopes: value("scopes") === undefined ? [...APP_TOKEN_OPTIONAL_SCOPES] : [],
    vendor: DEFAULT_CLIENT.vendor,
    userAgent: `${DEFAULT_CLIENT.userAgent} (node ${process.version})`,
    maxConcurrency: positiveInt(source, "maxConcurrency", DEFAULT_CLIENT.maxConcurrency),
    requestsPerMinute: positiveInt(source, "requestsPerMinute", DEFAULT_CLIENT.requestsPerMinute),
    timeouts: {
      connectMs: DEFAULT_TRANSPORT.connectTimeoutMs,
      headersMs: DEFAULT_TRANSPORT.headersTimeoutMs,
      bodyMs: DEFAULT_TRANSPORT.bodyTimeoutMs,
    },
    retry: { ...DEFAULT_RETRY },
    tokenCacheDir: defaultTokenCacheDir(env),
    consistencyWindowMs: seconds(source, "consistencyWindow", DEFAULT_WINDOW_MS[region]),
  };
}

/** `pagerduty:driftAllFields`: whether refresh also reports out-of-band changes to fields the program leaves unset. */
export function resolveDriftAllFields(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  namespace: Namespace = NAMESPACE,
): boolean {
  const [key, envName] = configKeys(namespace).driftAllFields;
  const raw = (nonEmpty(refuseEmpty(get(key), key, "driftAllFields")) ?? nonEmpty(env[envName]))?.toLowerCase();
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw new ConfigError(`${describeSetting("driftAllFields", DEFAULT_ACCOUNT, namespace)} must be "true" or "false"; got ${JSON.stringify(raw)}`);
}

function resolveCredentials({ value, describe }: SettingSource): Credentials {
  const [clientId, clientSecret, token, refreshToken] = [value("clientId"), value("clientSecret"), value("token"), value("refreshToken")];
  if (token !== undefined && (clientId ?? clientSecret ?? refreshToken) !== undefined) {
    throw new ConfigError(
      `${describe("token")} (an API key) and OAuth settings (${describe("clientId")}, ${describe("clientSecret")}, ` +
        `${describe("refreshToken")}) are both set; set only one kind of credential`,
    );
  }
  if (token !== undefined) return { kind: "api_key", token };
  const missing = (["clientId", "clientSecret"] as const).filter((s) => value(s) === undefined);
  if (refreshToken !== undefined) {
    if (missing.length)
      throw new ConfigError(
        `${missing.map(describe).join(" and ")} ${missing.length > 1 ? "are" : "is"} required with ${describe("refreshToken")} (the refresh grant always ` +
          `sends the client secret)`,
      );
    return { kind: "refresh_token", clientId: clientId!, clientSecret: clientSecret!, refreshToken };
  }
  if (missing.length === 2) {
    throw new ConfigError(
      `no PagerDuty credentials: set ${describe("clientId")} and ${describe("clientSecret")} (Scoped OAuth app), ` + `or ${describe("token")} (API key)`,
    );
  }
  if (missing.length) throw new ConfigError(`${describe(missing[0]!)} is required with ${describe(missing[0] === "clientId" ? "clientSecret" : "clientId")}`);
  return { kind: "client_credentials", clientId: clientId!, clientSecret: clientSecret! };
}

function resolveScopes({ value, describe, key }: SettingSource): string[] {
  const raw = value("scopes");
  if (raw === undefined) return [...DEFAULT_SCOPES];
  const scopes = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const selector = scopes.find((s) => s.startsWith("as_account-"));
  if (selector)
    throw new ConfigError(
      `${describe("scopes")} must not contain the account selector "${selector}"; it is built from ${key("serviceRegion")} and ${key("subdomain")}`,
    );
  if (!scopes.length) throw new ConfigError(`${describe("scopes")} is empty`);
  return scopes;
}

/** An https origin (optionally with a path prefix); plain http only for loopback hosts. */
function baseUrl({ key: keyOf, describe }: SettingSource, s: Setting, raw: string): string {
  const key = keyOf(s);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${describe(s)} is not a URL`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) throw new InsecureUrlError(key, raw);
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`${describe(s)} must not carry credentials, a query or a fragment; use ${describe("token")} or the client settings`);
  }
  return url.toString().replace(/\/+$/, "");
}

/** Hosts plain http is allowed to (nothing leaves the machine). */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function positiveInt({ value, describe }: SettingSource, s: Setting, fallback: number): number {
  const raw = value(s);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${describe(s)} must be a positive integer; got ${JSON.stringify(raw)}`);
  return n;
}

/** A non-negative number of seconds, as ms. */
function seconds({ value, describe }: SettingSource, s: Setting, fallbackMs: number): number {
  const raw = value(s);
  if (raw === undefined) return fallbackMs;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 3600) throw new ConfigError(`${describe(s)} must be a number of seconds from 0 to 3600; got ${JSON.stringify(raw)}`);
  return Math.round(n * 1000);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A stack setting given as "" (or blanks): refused, naming its key. `pulumi config set
 * pagerduty:apiUrl ''` would otherwise leave the default in use, and the first request would blame
 * the default host for what the setting did.
 */
function refuseEmpty(v: string | undefined, key: string, s: Setting): string | undefined {
  if (v === undefined || v.trim()) return v;
  const fallback = "default" in SETTINGS[s] ? `the default, ${SETTINGS[s].default}` : "none";
  throw new ConfigError(`"${key}" is empty: give it a value, or remove it (pulumi config rm ${key}) to use ${fallback}`);
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

// Provider settings from stack config (`pagerduty:*`) with environment fallbacks. Resolved when a
// client is needed, never at module load: the dynamic-provider process is started before config
// arrives, and the environment may only be complete at run time.
import { DEFAULT_SCOPES } from "./auth/scopes";
import { defaultTokenCacheDir } from "./auth/token-cache";
import { ConfigError, InsecureUrlError } from "./errors";
import { DEFAULT_CLIENT } from "./http/client";
import { DEFAULT_RETRY, type RetryOptions } from "./http/retry";
import { DEFAULT_TRANSPORT } from "./http/transport";

export type ServiceRegion = "us" | "eu";

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
  apiUrl: string;
  authUrl: string;
  serviceRegion: ServiceRegion;
  subdomain?: string;
  credentials: Credentials;
  /** Requested scopes, without the account selector (added for client credentials). */
  scopes: string[];
  /** Accept: application/vnd.<vendor>+json;version=2 */
  vendor: string;
  userAgent: string;
  /** Requests in flight at once per account. */
  maxConcurrency: number;
  /** Static ceiling per account in requests per minute; 0: paced by the service's reported budget only. */
  requestsPerMinute: number;
  timeouts: Timeouts;
  retry: Required<RetryOptions>;
  /** Where rotated refresh tokens are kept (refresh_token credentials only). */
  tokenCacheDir: string;
}

/** Each setting's stack-config key and environment fallback. */
export const CONFIG_KEYS = {
  clientId: ["pagerduty:clientId", "PAGERDUTY_CLIENT_ID"],
  clientSecret: ["pagerduty:clientSecret", "PAGERDUTY_CLIENT_SECRET"],
  subdomain: ["pagerduty:subdomain", "PAGERDUTY_SUBDOMAIN"],
  serviceRegion: ["pagerduty:serviceRegion", "PAGERDUTY_SERVICE_REGION"],
  apiUrl: ["pagerduty:apiUrl", "PAGERDUTY_API_URL"],
  authUrl: ["pagerduty:authUrl", "PAGERDUTY_AUTH_URL"],
  token: ["pagerduty:token", "PAGERDUTY_TOKEN"],
  refreshToken: ["pagerduty:refreshToken", "PAGERDUTY_REFRESH_TOKEN"],
  scopes: ["pagerduty:scopes", "PAGERDUTY_SCOPES"],
  maxConcurrency: ["pagerduty:maxConcurrency", "PAGERDUTY_MAX_CONCURRENCY"],
  requestsPerMinute: ["pagerduty:requestsPerMinute", "PAGERDUTY_REQUESTS_PER_MINUTE"],
  driftAllFields: ["pagerduty:driftAllFields", "PAGERDUTY_DRIFT_ALL_FIELDS"],
} as const satisfies Record<string, readonly [string, string]>;

type Setting = keyof typeof CONFIG_KEYS;

const API_HOSTS: Record<ServiceRegion, string> = { us: "https://api.pagerduty.com", eu: "https://api.eu.pagerduty.com" };
const IDENTITY_HOST = "https://identity.pagerduty.com";
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export function resolveSettings(get: (key: string) => string | undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const value = (s: Setting): string | undefined => {
    const [key, envName] = CONFIG_KEYS[s];
    return nonEmpty(get(key)) ?? nonEmpty(env[envName]);
  };

  const region = (value("serviceRegion") ?? "us").toLowerCase();
  if (region !== "us" && region !== "eu") throw new ConfigError(`${describe("serviceRegion")} must be "us" or "eu"; got ${JSON.stringify(region)}`);
  const subdomain = value("subdomain");
  if (subdomain !== undefined && !SUBDOMAIN.test(subdomain)) {
    throw new ConfigError(`${describe("subdomain")} must be the account's subdomain (e.g. "acme" for acme.pagerduty.com); got ${JSON.stringify(subdomain)}`);
  }
  const credentials = resolveCredentials(value);
  if (credentials.kind === "client_credentials" && subdomain === undefined) {
    throw new ConfigError(`${describe("subdomain")} is required with client credentials: app tokens are requested for one account`);
  }

  return {
    apiUrl: baseUrl("apiUrl", value("apiUrl") ?? API_HOSTS[region]),
    authUrl: baseUrl("authUrl", value("authUrl") ?? IDENTITY_HOST),
    serviceRegion: region,
    ...(subdomain !== undefined ? { subdomain: subdomain.toLowerCase() } : {}),
    credentials,
    scopes: resolveScopes(value("scopes")),
    vendor: DEFAULT_CLIENT.vendor,
    userAgent: `${DEFAULT_CLIENT.userAgent} (node ${process.version})`,
    maxConcurrency: positiveInt("maxConcurrency", value("maxConcurrency"), DEFAULT_CLIENT.maxConcurrency),
    requestsPerMinute: positiveInt("requestsPerMinute", value("requestsPerMinute"), DEFAULT_CLIENT.requestsPerMinute),
    timeouts: {
      connectMs: DEFAULT_TRANSPORT.connectTimeoutMs,
      headersMs: DEFAULT_TRANSPORT.headersTimeoutMs,
      bodyMs: DEFAULT_TRANSPORT.bodyTimeoutMs,
    },
    retry: { ...DEFAULT_RETRY },
    tokenCacheDir: defaultTokenCacheDir(env),
  };
}

/** `pagerduty:driftAllFields`: whether refresh also reports out-of-band changes to fields the program leaves unset. */
export function resolveDriftAllFields(get: (key: string) => string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  const [key, envName] = CONFIG_KEYS.driftAllFields;
  const raw = (nonEmpty(get(key)) ?? nonEmpty(env[envName]))?.toLowerCase();
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw new ConfigError(`${describe("driftAllFields")} must be "true" or "false"; got ${JSON.stringify(raw)}`);
}

function resolveCredentials(value: (s: Setting) => string | undefined): Credentials {
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
    if (missing.length) throw new ConfigError(`${missing.map(describe).join(" and ")} ${missing.length > 1 ? "are" : "is"} required with ${describe("refreshToken")} (the refresh grant always sends the client secret)`);
    return { kind: "refresh_token", clientId: clientId!, clientSecret: clientSecret!, refreshToken };
  }
  if (missing.length === 2) {
    throw new ConfigError(
      `no PagerDuty credentials: set ${describe("clientId")} and ${describe("clientSecret")} (Scoped OAuth app), ` +
        `or ${describe("token")} (API key)`,
    );
  }
  if (missing.length) throw new ConfigError(`${describe(missing[0]!)} is required with ${describe(missing[0] === "clientId" ? "clientSecret" : "clientId")}`);
  return { kind: "client_credentials", clientId: clientId!, clientSecret: clientSecret! };
}

function resolveScopes(raw: string | undefined): string[] {
  if (raw === undefined) return [...DEFAULT_SCOPES];
  const scopes = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const selector = scopes.find((s) => s.startsWith("as_account-"));
  if (selector) throw new ConfigError(`${describe("scopes")} must not contain the account selector "${selector}"; it is built from pagerduty:serviceRegion and pagerduty:subdomain`);
  if (!scopes.length) throw new ConfigError(`${describe("scopes")} is empty`);
  return scopes;
}

/** An https origin (optionally with a path prefix); plain http only for loopback hosts. */
function baseUrl(s: Setting, raw: string): string {
  const key = CONFIG_KEYS[s][0];
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

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function positiveInt(s: Setting, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${describe(s)} must be a positive integer; got ${JSON.stringify(raw)}`);
  return n;
}

function describe(s: Setting): string {
  const [key, envName] = CONFIG_KEYS[s];
  return `"${key}" (env ${envName})`;
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

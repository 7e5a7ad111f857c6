// Process-wide state of the dynamic-provider process. The engine deserializes one provider object
// per resource type, so anything shared (config, tokens, connection pools, rate limits) lives here
// at module level: one client per account and credential, created on first use.
import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { clientCredentialsSource } from "./auth/client-credentials";
import { refreshTokenSource } from "./auth/refresh-token";
import { RefreshTokenCache } from "./auth/token-cache";
import type { TokenEndpoint } from "./auth/token-endpoint";
import { apiKeySource, type RenewOptions, type TokenSource } from "./auth/token-source";
import { CONFIG_KEYS, resolveDriftAllFields, resolveSettings, type ProviderSettings } from "./config";
import { warn as engineWarn } from "./host/engine-log";
import { ApiError, ConfigError, TokenError } from "./errors";
import { ApiClient } from "./http/client";
import { Transport } from "./http/transport";

type Warn = (message: string) => void;

let configured: ReadonlyMap<string, string> | undefined;
const clients = new Map<string, ApiClient>();
// Engine warnings inside the dynamic-provider host (counted in `pulumi up`), stderr elsewhere.
let warn: Warn = (message) => void engineWarn(`pulumi-pagerduty-dynamic: ${message}`);

/**
 * Records the stack config. Called from every provider's `configure(req)`; the values are copied
 * because `req.config` belongs to the call. Idempotent: equal config keeps the existing clients.
 */
export function configure(get: (key: string) => string | undefined): void {
  const values = new Map<string, string>();
  for (const [key] of Object.values(CONFIG_KEYS)) {
    const value = get(key);
    if (value !== undefined) values.set(key, value);
  }
  configured = values;
}

/** The client for the configured account (environment only, when configure was never called). */
export function getClient(): ApiClient {
  const settings = resolveSettings((key) => configured?.get(key), process.env);
  const key = clientKey(settings);
  let client = clients.get(key);
  if (!client) {
    client = createClient(settings);
    clients.set(key, client);
  }
  return client;
}

/** Whether refresh also reports out-of-band changes to fields the program leaves unset (opt-in). */
export function driftAllFields(): boolean {
  return resolveDriftAllFields((key) => configured?.get(key), process.env);
}

const tokenSources = new WeakMap<ApiClient, TokenSource>();

/**
 * Proves the configured credentials work before any operation, so a preview or a drift check with
 * missing or refused credentials fails naming the settings instead of passing. OAuth settings fetch
 * their token (the operations that follow reuse it); an API key makes one small read.
 */
export async function verifyCredentials(): Promise<void> {
  const settings = resolveSettings((key) => configured?.get(key), process.env);
  const client = getClient();
  try {
    if (settings.credentials.kind === "api_key") await client.request("GET", "/services", { query: { limit: 1 }, scopes: [] });
    else await tokenSources.get(client)?.get();
  } catch (e) {
    throw refused(settings, e);
  }
}

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

/** Where warnings go (default: the engine's log when there is one, else stderr); tests capture them. */
export function setWarningHandler(handler: Warn): void {
  warn = handler;
}

/** Drops every client and closes their connections (tests, orderly shutdown). */
export async function resetRuntime(): Promise<void> {
  const closing = [...clients.values()].map((c) => c.close());
  clients.clear();
  configured = undefined;
  await Promise.all(closing);
}

export interface ClientOverrides {
  /** Injected transport, e.g. a MockAgent. */
  dispatcher?: Dispatcher;
  renew?: RenewOptions;
}

/** Wires transport, token source and client for one account. */
export function createClient(settings: ProviderSettings, overrides: ClientOverrides = {}): ApiClient {
  const transport = new Transport(
    { connectTimeoutMs: settings.timeouts.connectMs, headersTimeoutMs: settings.timeouts.headersMs, bodyTimeoutMs: settings.timeouts.bodyMs },
    overrides.dispatcher,
  );
  const endpoint: TokenEndpoint = { url: `${settings.authUrl}/oauth/token`, transport, retry: settings.retry, userAgent: settings.userAgent };
  const tokens = tokenSource(settings, endpoint, overrides.renew);
  const client = new ApiClient(
    { apiUrl: settings.apiUrl, tokens, transport },
    {
      vendor: settings.vendor,
      userAgent: settings.userAgent,
      maxConcurrency: settings.maxConcurrency,
      requestsPerMinute: settings.requestsPerMinute,
      retry: settings.retry,
    },
  );
  tokenSources.set(client, tokens);
  return client;
}

function tokenSource(settings: ProviderSettings, endpoint: TokenEndpoint, renew?: RenewOptions): TokenSource {
  const creds = settings.credentials;
  switch (creds.kind) {
    case "api_key":
      return apiKeySource(creds.token);
    case "client_credentials":
      // resolveSettings guarantees a subdomain for this kind.
      return clientCredentialsSource(
        endpoint,
        { ...creds, region: settings.serviceRegion, subdomain: settings.subdomain!, scopes: settings.scopes },
        renew,
      );
    case "refresh_token":
      return refreshTokenSource(endpoint, creds, new RefreshTokenCache({ dir: settings.tokenCacheDir, warn: (m) => warn(m) }), (m) => warn(m), renew);
  }
}

/** Identifies account + credential without keeping the credential: a hash. */
function clientKey(s: ProviderSettings): string {
  const identity = [s.apiUrl, s.authUrl, s.serviceRegion, s.subdomain, s.scopes, s.credentials, s.maxConcurrency, s.requestsPerMinute, s.tokenCacheDir];
  return createHash("sha256").update(JSON.stringify(identity)).digest("hex");
}

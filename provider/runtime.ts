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
import { CONFIG_KEYS, resolveSettings, type ProviderSettings } from "./config";
import { warn as engineWarn } from "./diagnostics";
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
  return new ApiClient(
    { apiUrl: settings.apiUrl, tokens: tokenSource(settings, endpoint, overrides.renew), transport },
    {
      vendor: settings.vendor,
      userAgent: settings.userAgent,
      maxConcurrency: settings.maxConcurrency,
      requestsPerMinute: settings.requestsPerMinute,
      retry: settings.retry,
    },
  );
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

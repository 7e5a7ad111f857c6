// Wires transport, token source and API client for one account's settings.
import type { Dispatcher } from "undici";
import { clientCredentialsSource } from "../auth/client-credentials";
import { refreshTokenSource } from "../auth/refresh-token";
import { RefreshTokenCache } from "../auth/token-cache";
import type { TokenEndpoint } from "../auth/token-endpoint";
import { apiKeySource, type RenewOptions, type TokenSource } from "../auth/token-source";
import { type ProviderSettings, settingKey, settingSource } from "../config";
import { ApiClient } from "../http/client";
import { Transport } from "../http/transport";

export interface ClientOverrides {
  /** Injected transport, e.g. a MockAgent. */
  dispatcher?: Dispatcher;
  renew?: RenewOptions;
  /** Where the refresh-token flow's warnings go. */
  warn?: (message: string) => void;
}

/** A client and the token source it uses (verifying credentials asks the source directly). */
export interface AccountClient {
  client: ApiClient;
  tokens: TokenSource;
}

export function createAccountClient(settings: ProviderSettings, overrides: ClientOverrides = {}): AccountClient {
  const transport = new Transport(
    { connectTimeoutMs: settings.timeouts.connectMs, headersTimeoutMs: settings.timeouts.headersMs, bodyTimeoutMs: settings.timeouts.bodyMs },
    overrides.dispatcher,
  );
  const { account, namespace } = settings;
  const endpoint: TokenEndpoint = {
    url: `${settings.authUrl}/oauth/token`,
    transport,
    retry: settings.retry,
    userAgent: settings.userAgent,
    setting: settingSource("authUrl", account, namespace),
  };
  const tokens = tokenSource(settings, endpoint, overrides);
  const client = new ApiClient(
    { apiUrl: settings.apiUrl, tokens, transport },
    {
      vendor: settings.vendor,
      userAgent: settings.userAgent,
      maxConcurrency: settings.maxConcurrency,
      requestsPerMinute: settings.requestsPerMinute,
      retry: settings.retry,
      settings: { apiUrl: settingSource("apiUrl", account, namespace), scopes: settingKey("scopes", account, namespace) },
    },
  );
  return { client, tokens };
}

/** The API client alone (tests, CLIs). */
export function createClient(settings: ProviderSettings, overrides: ClientOverrides = {}): ApiClient {
  return createAccountClient(settings, overrides).client;
}

function tokenSource(settings: ProviderSettings, endpoint: TokenEndpoint, overrides: ClientOverrides): TokenSource {
  const creds = settings.credentials;
  const warn = overrides.warn ?? ((m: string) => void process.stderr.write(`warning: ${m}\n`));
  switch (creds.kind) {
    case "api_key":
      return apiKeySource(creds.token);
    case "client_credentials":
      // resolveSettings guarantees a subdomain for this kind.
      return clientCredentialsSource(
        endpoint,
        { ...creds, region: settings.serviceRegion, subdomain: settings.subdomain!, scopes: [...settings.scopes, ...settings.optionalScopes] },
        overrides.renew,
      );
    case "refresh_token":
      return refreshTokenSource(
        endpoint,
        { ...creds, setting: settingKey("refreshToken", settings.account, settings.namespace) },
        new RefreshTokenCache({ dir: settings.tokenCacheDir, warn }),
        warn,
        overrides.renew,
      );
  }
}

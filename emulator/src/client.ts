// For scripts and tests that drive a running emulator from outside: the CLI's ready line and a
// client-credentials token from it.
import type { LagSettings } from "./lag";

/** One account's seeded credentials (its REST base: `apiUrl` for region us, `euApiUrl` for eu). */
export interface ReadyCredentials {
  account: { subdomain: string; region: string };
  oauth: { clientId: string; clientSecret: string; scopes: string };
  apiKey: string;
  escalationPolicyId: string;
}

/** The one JSON line the CLI prints on stdout when ready: the first account's credentials and more. */
export interface ReadyLine extends ReadyCredentials {
  url: string;
  /** REST base of US accounts. */
  apiUrl: string;
  /** REST base of EU accounts: `${url}/eu`. */
  euApiUrl: string;
  authUrl: string;
  /** Events API v2: `${url}/v2/enqueue` (EU accounts' integrations may use `${euApiUrl}/v2/enqueue` too). */
  eventsUrl: string;
  adminToken: string;
  /** The first EU account's credentials, when the seed has an EU account. */
  eu?: ReadyCredentials;
  /** Consistency-lag settings (`--lag`, `--lag-eu`, `--lag-deletes`; all 0/false by default). */
  lag: LagSettings;
  /** Only with --tls/--cert: the PEM file clients should trust for the https:// URLs. */
  caFile?: string;
}

/**
 * An app token for the ready line's Scoped app (all its scopes unless `scopes` is given); for the
 * EU account's app: `fetchAppToken({ authUrl: ready.authUrl, ...ready.eu })`.
 */
export async function fetchAppToken(ready: Pick<ReadyLine, "authUrl" | "account" | "oauth">, scopes = ready.oauth.scopes): Promise<string> {
  const res = await fetch(`${ready.authUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: ready.oauth.clientId,
      client_secret: ready.oauth.clientSecret,
      scope: `as_account-${ready.account.region}.${ready.account.subdomain} ${scopes}`,
    }).toString(),
  });
  const body = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
  if (!res.ok || !body.access_token) throw new Error(`token request failed: ${res.status} ${body.error ?? ""} ${body.error_description ?? ""}`.trim());
  return body.access_token;
}

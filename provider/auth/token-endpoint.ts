// OAuth token calls as request/process pairs: each grant function only sends the form and returns
// the raw reply; processTokenResponse turns a reply into a TokenSet or a TokenError, without I/O,
// so it is tested on plain objects.
import { redactDeep, scrub, TokenError } from "../errors";
import { withRetry, type RetryOptions } from "../http/retry";
import type { HttpResponse, Transport } from "../http/transport";
import type { ClientAuth } from "./client-auth";

export interface TokenEndpoint {
  /** `{auth_url}/oauth/token` */
  url: string;
  transport: Transport;
  retry: Required<RetryOptions>;
  userAgent: string;
  /** Where the URL came from, for network errors (`pagerduty:authUrl or PAGERDUTY_AUTH_URL`, in the door's terms). */
  setting?: string;
}

export interface TokenSet {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** The granted scopes; undefined when the reply did not say. */
  scopes?: string[];
  /** Present on refresh and authorization-code replies; the previous one stops working. */
  refreshToken?: string;
}

/** Lifetime assumed when a reply omits `expires_in`: short, so the token is replaced early. */
const DEFAULT_EXPIRES_IN_S = 3600;

export function clientCredentialsGrant(endpoint: TokenEndpoint, auth: ClientAuth, scope: string): Promise<HttpResponse> {
  return postForm("TOKEN", endpoint, auth, { grant_type: "client_credentials", scope });
}

export function refreshTokenGrant(endpoint: TokenEndpoint, auth: ClientAuth, refreshToken: string): Promise<HttpResponse> {
  return postForm("TOKEN_ONCE", endpoint, auth, { grant_type: "refresh_token", refresh_token: refreshToken });
}

export function authorizationCodeGrant(
  endpoint: TokenEndpoint,
  auth: ClientAuth,
  grant: { code: string; redirectUri: string; codeVerifier?: string },
): Promise<HttpResponse> {
  return postForm("TOKEN_ONCE", endpoint, auth, {
    grant_type: "authorization_code",
    code: grant.code,
    redirect_uri: grant.redirectUri,
    ...(grant.codeVerifier ? { code_verifier: grant.codeVerifier } : {}),
  });
}

/**
 * `rule`: "TOKEN" for a grant that can be asked again (429, 5xx and dropped connections retried),
 * "TOKEN_ONCE" for one that spends what it sends (retried only when nothing reached the server).
 * An OAuth error is an answer under both (RETRY_RULES).
 */
async function postForm(rule: "TOKEN" | "TOKEN_ONCE", endpoint: TokenEndpoint, auth: ClientAuth, fields: Record<string, string>): Promise<HttpResponse> {
  const form = new URLSearchParams(fields);
  auth(form);
  const request = {
    method: "POST" as const,
    url: new URL(endpoint.url),
    setting: endpoint.setting,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "user-agent": endpoint.userAgent,
    },
    body: form.toString(),
  };
  const { response } = await withRetry(rule, endpoint.retry, () => endpoint.transport.send(request));
  return response;
}

/**
 * Validates a token reply. `secrets` (what the request carried) are scrubbed from any text the
 * service echoes into the error.
 */
export function processTokenResponse(response: HttpResponse, options: { now?: number; secrets?: readonly string[] } = {}): TokenSet {
  const secrets = options.secrets ?? [];
  const body = parseJson(response.text);
  const copy = {
    status: response.status,
    headers: redactDeep(response.headers, secrets) as HttpResponse["headers"],
    body: redactDeep(body ?? response.text.slice(0, 1000), secrets),
  };
  const fail = (message: string, oauthError?: string): never => {
    throw new TokenError(scrub(message, secrets), { status: response.status, response: copy, ...(oauthError ? { oauthError } : {}) });
  };
  if (response.status < 200 || response.status > 299) {
    const error = body?.error;
    const code = typeof error === "string" ? error : undefined;
    const detail = str(body?.error_description) ?? str((error as Record<string, unknown> | undefined)?.message) ?? snippet(response.text);
    return fail(`token request failed: ${response.status}${code ? ` ${code}` : ""}${detail ? `: ${detail}` : ""}`, code);
  }
  if (!body) return fail(`token endpoint replied ${response.status} without a JSON object`);
  const accessToken = str(body.access_token);
  if (!accessToken) return fail(`token reply lacks "access_token"`);
  const tokenType = str(body.token_type);
  if (tokenType && tokenType.toLowerCase() !== "bearer") return fail(`token reply has "token_type" ${JSON.stringify(tokenType)}, expected "bearer"`);
  const expiresIn = Number(body.expires_in ?? DEFAULT_EXPIRES_IN_S);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) return fail(`token reply has an invalid "expires_in"`);
  const set: TokenSet = { accessToken, expiresAt: (options.now ?? Date.now()) + expiresIn * 1000 };
  const scope = str(body.scope);
  if (scope !== undefined) set.scopes = scope.split(/\s+/).filter(Boolean);
  const refreshToken = str(body.refresh_token);
  if (refreshToken) set.refreshToken = refreshToken;
  return set;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function snippet(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

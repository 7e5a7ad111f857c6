// Typed errors with stable codes. Pulumi prints error messages and may persist them, so every
// message is built from already-redacted parts and the raw HTTP response is kept non-enumerable.

export type ErrorCode =
  | "ERR_CONFIG" // provider configuration missing or invalid
  | "ERR_INSECURE_URL" // a credential would travel over plain HTTP to a non-loopback host
  | "ERR_TOKEN" // the token endpoint refused or answered badly
  | "ERR_SCOPE" // the granted scope lacks what an operation needs
  | "ERR_API" // the REST API answered with an error status
  | "ERR_NOT_FOUND" // the REST API answered 404
  | "ERR_RATE_LIMITED" // 429 persisted after the retry budget
  | "ERR_NETWORK" // the request failed below HTTP (socket, DNS, timeout)
  | "ERR_INPUT" // a resource's inputs are invalid
  | "ERR_CONFLICT" // the object is in a state that forbids the operation (e.g. converted rules)
  | "ERR_STATE" // the stack's state could not be read (to settle an interrupted create; a damaged record)
  | "ERR_PULUMI" // a \`pulumi\` command a CLI ran failed
  | "ERR_CASES" // a routing test's case file is invalid
  | "ERR_EMULATOR"; // the emulator a routing test runs against could not be reached or refused a call

export class PagerDutyError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PagerDutyError";
    this.code = code;
  }
}

export class ConfigError extends PagerDutyError {
  constructor(message: string) {
    super("ERR_CONFIG", message);
    this.name = "ConfigError";
  }
}

export class InsecureUrlError extends PagerDutyError {
  constructor(setting: string, url: string) {
    super("ERR_INSECURE_URL", `"${setting}" must use https (plain http is allowed for loopback hosts only); got ${redactUrl(url)}`);
    this.name = "InsecureUrlError";
  }
}

export class ScopeError extends PagerDutyError {
  readonly missing: string[];
  /** `setting`: the key of the scopes setting in the caller's terms (`pagerduty:scopes`, `pagerduty-dynamic:accounts.eu.scopes`). */
  constructor(missing: string[], granted: string[], setting = "pagerduty:scopes") {
    super(
      "ERR_SCOPE",
      `the token's granted "scope" lacks ${missing.map((s) => `"${s}"`).join(", ")} ` +
        `(granted: "${granted.join(" ")}"); add the scope to the app or to "${setting}"`,
    );
    this.name = "ScopeError";
    this.missing = missing;
  }
}

/** What an error keeps of an HTTP response: redacted, and never enumerable on the error. */
export interface ResponseCopy {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** The token endpoint refused (status set) or replied with something that is not a usable token. */
export class TokenError extends PagerDutyError {
  readonly status?: number;
  /** The OAuth `error` field, e.g. "invalid_grant". */
  readonly oauthError?: string;
  declare readonly response?: ResponseCopy;
  constructor(message: string, init: { status?: number; oauthError?: string; response?: ResponseCopy } = {}) {
    super("ERR_TOKEN", message);
    this.name = "TokenError";
    if (init.status !== undefined) this.status = init.status;
    if (init.oauthError !== undefined) this.oauthError = init.oauthError;
    hide(this, "response", init.response);
  }
}

/** Certificate problems a private CA causes: the fix is to trust that CA. */
const UNTRUSTED_CERT = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);

/** What to do about a failure below HTTP, where the code alone does not say it. */
function networkHint(reason: string, origin: string | undefined, setting: string | undefined): string {
  const where = `${origin ?? "the server"}${setting ? ` (${setting})` : ""}`;
  if (UNTRUSTED_CERT.has(reason))
    return (
      `: the certificate of ${where} is not signed by a CA this process trusts. For a private CA (the emulator's --tls: the \`caFile\` of its ready ` +
      `line) set NODE_EXTRA_CA_CERTS=<CA file> in the environment of \`pulumi\``
    );
  if (reason === "ERR_SSL_WRONG_VERSION_NUMBER" || reason === "ERR_SSL_PACKET_LENGTH_TOO_LONG")
    return `: ${where} does not answer in TLS; if it serves plain HTTP, give it an http:// URL (allowed for loopback hosts)`;
  if (reason === "CERT_HAS_EXPIRED") return `: the certificate of ${where} has expired`;
  if (reason === "ERR_TLS_CERT_ALTNAME_INVALID") return `: the certificate of ${where} is not for that host name`;
  if (reason === "ECONNREFUSED" || reason === "ENOTFOUND") return `: nothing answers at ${where}; check the URL`;
  return setting ? ` (${setting})` : "";
}

/** The request failed below HTTP. `sent` is false only when it provably never left this process. */
export class NetworkError extends PagerDutyError {
  readonly method: string;
  readonly path: string;
  /** The system or undici error code, e.g. "ECONNREFUSED", "UND_ERR_HEADERS_TIMEOUT". */
  readonly reason: string;
  readonly sent: boolean;
  /**
   * `origin` (scheme, host, port) and `setting` (the config key naming the URL) go into the message;
   * the path never carries a query string, so nothing secret does.
   */
  constructor(init: { method: string; path: string; reason: string; sent: boolean; cause: unknown; origin?: string; setting?: string }) {
    super("ERR_NETWORK", `${init.method} ${init.origin ?? ""}${init.path} failed: ${init.reason}${networkHint(init.reason, init.origin, init.setting)}`, {
      cause: init.cause,
    });
    this.name = "NetworkError";
    this.method = init.method;
    this.path = init.path;
    this.reason = init.reason;
    this.sent = init.sent;
  }
}

/** The REST API answered with an error status. */
export class ApiError extends PagerDutyError {
  readonly status: number;
  readonly apiCode?: number;
  readonly apiMessage?: string;
  readonly errors: string[];
  readonly method: string;
  readonly path: string;
  declare readonly response: ResponseCopy;
  constructor(init: {
    method: string;
    path: string;
    status: number;
    apiCode?: number;
    apiMessage?: string;
    errors: string[];
    response: ResponseCopy;
    attempts?: number;
    waitedMs?: number;
  }) {
    const code: ErrorCode = init.status === 404 ? "ERR_NOT_FOUND" : init.status === 429 ? "ERR_RATE_LIMITED" : "ERR_API";
    const detail =
      (init.apiMessage ? ` ${init.apiMessage}` : "") +
      (init.apiCode !== undefined ? ` (${init.apiCode})` : "") +
      (init.errors.length ? `: ${init.errors.join("; ")}` : "") +
      (code === "ERR_RATE_LIMITED" && init.attempts
        ? ` (gave up after ${init.attempts} attempts and ${Math.round((init.waitedMs ?? 0) / 1000)} s of waiting for the rate limit)`
        : "");
    super(code, `${init.method} ${init.path} failed: ${init.status}${detail}`);
    this.name = "ApiError";
    this.status = init.status;
    if (init.apiCode !== undefined) this.apiCode = init.apiCode;
    if (init.apiMessage !== undefined) this.apiMessage = init.apiMessage;
    this.errors = init.errors;
    this.method = init.method;
    this.path = init.path;
    hide(this, "response", init.response);
  }
}

/** What went wrong, in words: an Error's message, anything else thrown as a string. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function isNotFound(e: unknown): boolean {
  return e instanceof PagerDutyError && e.code === "ERR_NOT_FOUND";
}

/** Strips credentials from a URL: userinfo and any query parameter that looks like a secret. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = "";
    u.password = "";
    for (const key of [...u.searchParams.keys()]) {
      if (SECRET_KEY.test(key)) u.searchParams.set(key, "REDACTED");
    }
    return u.toString();
  } catch {
    return "<unparseable url>";
  }
}

/** Field names whose values are credentials wherever they appear (bodies, headers, query strings). */
const SECRET_NAMES = [
  "authorization",
  "client_secret",
  "clientSecret",
  "access_token",
  "accessToken",
  "refresh_token",
  "refreshToken",
  "id_token",
  "token",
  "api_key",
  "apiKey",
  "integration_key",
  "integrationKey",
  "code_verifier",
  "code",
  "password",
];
export const SECRET_KEY = new RegExp(`^(${SECRET_NAMES.join("|")})$`, "i");

/**
 * A deep copy with the values under secret-looking keys masked, and any known secret value
 * (`secrets`) scrubbed from the strings that remain. Numbers and booleans stay, so an API error
 * body's numeric `code` survives while an OAuth `code` string does not.
 */
export function redactDeep(value: unknown, secrets: readonly (string | undefined)[] = []): unknown {
  if (typeof value === "string") return scrub(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && (typeof v === "string" || (v !== null && typeof v === "object")) ? "REDACTED" : redactDeep(v, secrets);
  }
  return out;
}

/** Replaces every occurrence of the given secret values in text PagerDuty sent back. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("REDACTED");
  return out;
}

function hide(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, writable: false, configurable: true });
}

// The emulator's one error registry. Every error reply is built from an entry here, and
// tests/emulator/errors.test.ts checks this table against the one in emulator/README.md, so
// the documentation cannot drift from what the server sends.

/** REST API errors: body `{"error": {"message", "code", "errors"?}}`. */
export const API_ERRORS = {
  INVALID_INPUT: { status: 400, code: 2001, message: "Invalid Input Provided" },
  MALFORMED_BODY: { status: 400, code: 2001, message: "Invalid Input Provided" },
  INVALID_DATE_RANGE: { status: 400, code: 2004, message: "Invalid 'since' or 'until' Parameter Values" },
  FROM_REQUIRED: { status: 400, code: 2016, message: 'You must specify a user\'s email address in the "From" header to perform this action' },
  AUTHENTICATION_FAILED: { status: 401, code: 2006, message: "Authentication failed" },
  WRONG_SERVICE_REGION: { status: 401, code: 2006, message: "Authentication failed" },
  MISSING_SCOPE: { status: 403, code: 2010, message: "Token missing required scopes" },
  ACCESS_DENIED: { status: 403, code: 2010, message: "Access Denied" },
  NOT_FOUND: { status: 404, code: 2100, message: "Not Found" },
  ROUTE_NOT_FOUND: { status: 404, code: 2100, message: "Not Found" },
  METHOD_NOT_ALLOWED: { status: 405, code: 2001, message: "Method Not Allowed" },
  UNSUPPORTED_VERSION: { status: 406, code: 2001, message: "Unsupported API version" },
  RULES_READ_ONLY: { status: 409, code: 2001, message: "Event rules of this service were converted and are read-only" },
  PAYLOAD_TOO_LARGE: { status: 413, code: 2001, message: "Request body too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 2001, message: "Unsupported Media Type" },
  RATE_LIMITED: { status: 429, code: 2020, message: "Rate Limit Exceeded" },
  INTERNAL: { status: 500, code: 2000, message: "Internal Error" },
  BAD_GATEWAY: { status: 502, code: 2000, message: "Bad Gateway" },
  UNAVAILABLE: { status: 503, code: 2000, message: "Service Unavailable" },
  GATEWAY_TIMEOUT: { status: 504, code: 2000, message: "Gateway Timeout" },
  ADMIN_UNAUTHORIZED: { status: 401, code: 9001, message: "Emulator admin token missing or wrong" },
} as const satisfies Record<string, { status: number; code: number; message: string }>;

export type ApiErrorName = keyof typeof API_ERRORS;

/** OAuth token/authorize errors (RFC 6749 §5.2): body `{"error", "error_description"}`. */
export const OAUTH_ERRORS = {
  invalid_request: { status: 400, message: "The request is missing a parameter or is malformed" },
  invalid_client: { status: 401, message: "Client authentication failed" },
  invalid_grant: { status: 400, message: "The grant is invalid, expired, used or revoked" },
  unauthorized_client: { status: 400, message: "The client may not use this grant or account" },
  unsupported_grant_type: { status: 400, message: "The grant type is not supported" },
  invalid_scope: { status: 400, message: "The requested scope is invalid" },
  unsupported_response_type: { status: 400, message: "Only response_type=code is supported" },
  access_denied: { status: 403, message: "The user denied the request" },
  login_failed: { status: 401, message: "Wrong email or password" },
} as const satisfies Record<string, { status: number; message: string }>;

export type OAuthErrorName = keyof typeof OAUTH_ERRORS;

/**
 * Events API v2 errors (`POST /v2/enqueue`): body `{"status", "message", "errors"?}`, where `status`
 * is the name with a space ("invalid event"), as the service answers.
 */
export const EVENT_ERRORS = {
  invalid_event: { status: 400, message: "Event object is invalid" },
  throttle_event: { status: 429, message: "Requests for this service are arriving too quickly. Please retry later." },
} as const satisfies Record<string, { status: number; message: string }>;

export type EventErrorName = keyof typeof EVENT_ERRORS;

/** An Events API error; `errors` name the fields (never a routing key's value: it is a secret). */
export class EventError extends Error {
  override readonly name = "EventError";
  readonly status: number;
  constructor(
    readonly kind: EventErrorName,
    readonly errors?: string[],
  ) {
    super(EVENT_ERRORS[kind].message + (errors?.length ? `: ${errors.join("; ")}` : ""));
    this.status = EVENT_ERRORS[kind].status;
  }

  body(): { status: string; message: string; errors?: string[] } {
    return { status: this.kind.replace("_", " "), message: EVENT_ERRORS[this.kind].message, ...(this.errors?.length ? { errors: this.errors } : {}) };
  }
}

/** A REST error with a registry entry; `errors` lists specific problems (field-level). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: number;
  constructor(
    readonly kind: ApiErrorName,
    readonly errors?: string[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(API_ERRORS[kind].message + (errors?.length ? `: ${errors.join("; ")}` : ""));
    this.status = API_ERRORS[kind].status;
    this.code = API_ERRORS[kind].code;
  }

  body(): { error: Record<string, unknown> } {
    const e: Record<string, unknown> = { message: API_ERRORS[this.kind].message, code: this.code };
    if (this.errors?.length) e.errors = this.errors;
    return { error: { ...e, ...this.extra } };
  }
}

/** An OAuth error; `description` says exactly what was wrong with the request. */
export class OAuthError extends Error {
  override readonly name = "OAuthError";
  readonly status: number;
  constructor(
    readonly error: OAuthErrorName,
    readonly description: string = OAUTH_ERRORS[error].message,
  ) {
    super(`${error}: ${description}`);
    this.status = OAUTH_ERRORS[error].status;
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const invalid = (...errors: string[]): ApiError => new ApiError("INVALID_INPUT", errors);
export const notFound = (what?: string): ApiError => new ApiError("NOT_FOUND", what ? [`${what} not found`] : undefined);

// The one REST client: base URL, headers, per-account concurrency and pacing, retries by method,
// one token refetch on 401, scope checks before sending, and typed, redacted errors.
import pLimit from "p-limit";
import { missingScopes, type AccessGrant, type TokenSource } from "./credential";
import { ApiError, PagerDutyError, redactDeep, ScopeError } from "../errors";
import { DEFAULT_MAX_CONCURRENCY } from "../settings";
import { parseErrorBody } from "./error-body";
import { withDefaults } from "./options";
import { RateBudget } from "./rate-budget";
import { DEFAULT_RETRY, withRetry, type RetryOptions, type RetryOutcome } from "./retry";
import type { HttpResponse, Method, Transport } from "./transport";

export { ApiError, isNotFound } from "../errors";
export type { Method } from "./transport";

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface RequestOptions {
  /** Array values are sent as repeated `key[]=v`, the API's convention (`include[]`). */
  query?: Query;
  body?: unknown;
  /** Scopes the call needs; checked against the token's grant before anything is sent. */
  scopes?: string[];
}

export interface Connection {
  /** REST base URL, e.g. https://api.pagerduty.com (a path prefix is kept). */
  apiUrl: string;
  tokens: TokenSource;
  transport: Transport;
}

export interface ApiClientOptions {
  /** Accept: application/vnd.<vendor>+json;version=2 */
  vendor?: string;
  userAgent?: string;
  /** Requests in flight at once (this client serves one account). */
  maxConcurrency?: number;
  /** Static ceiling in requests per minute on top of PagerDuty's reported budget; 0: none. */
  requestsPerMinute?: number;
  retry?: RetryOptions;
  /** How messages name the settings the client was made from, in the door's terms (config.ts). */
  settings?: SettingNames;
}

export interface SettingNames {
  /** Where the base URL came from: `pagerduty:apiUrl or PAGERDUTY_API_URL`. */
  apiUrl: string;
  /** The key of the scopes to request: `pagerduty:scopes`. */
  scopes: string;
}

export const DEFAULT_CLIENT: Required<ApiClientOptions> = {
  vendor: "pagerduty",
  userAgent: "pulumi-pagerduty-dynamic",
  maxConcurrency: DEFAULT_MAX_CONCURRENCY,
  requestsPerMinute: 0,
  retry: DEFAULT_RETRY,
  settings: { apiUrl: "pagerduty:apiUrl or PAGERDUTY_API_URL", scopes: "pagerduty:scopes" },
};

export class ApiClient {
  /** The REST API's base URL, without a trailing slash. */
  readonly apiUrl: string;
  private readonly tokens: TokenSource;
  private readonly transport: Transport;
  private readonly headers: Record<string, string>;
  private readonly retry: Required<RetryOptions>;
  private readonly limit: pLimit.Limit;
  private readonly budget: RateBudget;
  private writes = 0;
  /** How messages name the settings this client was made from. */
  readonly settings: SettingNames;

  constructor(connection: Connection, options?: ApiClientOptions) {
    const o = withDefaults(DEFAULT_CLIENT, options);
    this.apiUrl = connection.apiUrl.replace(/\/+$/, "");
    this.tokens = connection.tokens;
    this.transport = connection.transport;
    this.headers = { accept: `application/vnd.${o.vendor}+json;version=2`, "user-agent": o.userAgent };
    this.retry = withDefaults(DEFAULT_RETRY, options?.retry);
    this.limit = pLimit(o.maxConcurrency);
    this.budget = new RateBudget({ perMinute: o.requestsPerMinute, timeScale: this.retry.timeScale });
    this.settings = o.settings;
  }

  /** Parsed JSON body of a 2xx reply, or undefined when it has none (204). */
  async request<T = unknown>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    if (!path.startsWith("/") || path.includes("?")) throw new TypeError(`path must start with "/" and carry no query: ${path}`);
    const url = this.url(path, opts.query);
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const writing = method !== "GET";
    if (writing) this.writes++;
    try {
      let grant = await this.authorize(opts.scopes);
      let outcome = await this.exchange(method, url, body, grant);
      if (outcome.response.status === 401 && this.tokens.renewable) {
        this.tokens.invalidate(grant);
        grant = await this.authorize(opts.scopes);
        outcome = await this.exchange(method, url, body, grant);
      }
      return interpret<T>(method, path, outcome, grant);
    } finally {
      if (writing) this.writes++;
    }
  }

  /**
   * Changes when a write of this client starts or ends: data read while it stayed the same saw no
   * write of this process in flight or finished since (what a reused listing must know).
   */
  get writeCount(): number {
    return this.writes;
  }

  /**
   * The credential in use as audit records show it (`****` and its last 4 characters): tells
   * whether this credential made a recorded change, without keeping anything secret.
   */
  async credentialTail(): Promise<string> {
    return `****${(await this.tokens.get()).authorization.slice(-4)}`;
  }

  /** The scopes of `required` the current token was not granted (none for credentials without scopes: API keys). */
  async missingScopes(required: readonly string[]): Promise<string[]> {
    const grant = await this.tokens.get();
    return grant.scopes ? missingScopes(grant.scopes, required) : [];
  }

  /** Closes the connection pool when the client created it. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private async authorize(required: readonly string[] = []): Promise<AccessGrant> {
    const grant = await this.tokens.get();
    if (grant.scopes && required.length) {
      const missing = missingScopes(grant.scopes, required);
      if (missing.length) throw new ScopeError(missing, [...grant.scopes], this.settings.scopes);
    }
    return grant;
  }

  /** One logical request with its retries; each attempt takes a concurrency slot and a share of the budget. */
  private exchange(method: Method, url: URL, body: string | undefined, grant: AccessGrant): Promise<RetryOutcome> {
    const headers = { ...this.headers, authorization: grant.authorization, ...(body !== undefined ? { "content-type": "application/json" } : {}) };
    const send = () =>
      this.limit(async () => {
        await this.budget.take();
        let response: HttpResponse | undefined;
        try {
          response = await this.transport.send({
            method,
            url,
            setting: this.settings.apiUrl,
            headers,
            ...(body !== undefined ? { body } : {}),
          });
          return response;
        } finally {
          this.budget.release(response);
        }
      });
    // A 429 holds every request of the account, not only the one that saw it.
    const onWait = (ms: number, res?: { status: number }) => {
      if (res?.status === 429) this.budget.pause(ms);
    };
    return withRetry(method, this.retry, send, { onWait });
  }

  private url(path: string, query: Query = {}): URL {
    const url = new URL(this.apiUrl + path);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        const name = key.endsWith("[]") ? key : `${key}[]`;
        for (const item of value) url.searchParams.append(name, item);
      } else {
        url.searchParams.set(key, String(value));
      }
    }
    return url;
  }
}

function interpret<T>(method: Method, path: string, { response, attempts, waitedMs }: RetryOutcome, grant: AccessGrant): T {
  const secrets = [grant.authorization, grant.authorization.replace(/^\S+\s+(token=)?/i, "")];
  if (response.status >= 200 && response.status < 300) {
    if (response.status === 204 || response.text.trim() === "") return undefined as T;
    try {
      return JSON.parse(response.text) as T;
    } catch {
      throw new PagerDutyError("ERR_API", `${method} ${path} returned ${response.status} with a body that is not JSON`);
    }
  }
  const parsed = parseErrorBody(response.text, secrets);
  throw new ApiError({
    method,
    path,
    status: response.status,
    ...(parsed.apiCode !== undefined ? { apiCode: parsed.apiCode } : {}),
    ...(parsed.apiMessage !== undefined ? { apiMessage: parsed.apiMessage } : {}),
    errors: parsed.errors,
    response: { status: response.status, headers: redactDeep(response.headers, secrets) as Record<string, string>, body: parsed.body },
    attempts,
    waitedMs,
  });
}

// One HTTP exchange over an undici Dispatcher: send, read the whole body, and turn failures below
// HTTP into NetworkError with a `sent` verdict that the retry policy relies on.
import type { Dispatcher } from "undici";
import { Agent, dispatcherRequest } from "../host/undici";
import { NetworkError } from "../errors";
import { withDefaults } from "./options";

// The pool and `request` come from undici's internal files (host/undici.ts says why).
export { Agent, dispatcherRequest };

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface HttpRequest {
  method: Method;
  url: URL;
  /** The setting the URL came from, for error messages (e.g. "pagerduty:apiUrl or PAGERDUTY_API_URL"). */
  setting?: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface TransportOptions {
  connectTimeoutMs?: number;
  /** Time to wait for the response headers. */
  headersTimeoutMs?: number;
  /** Time allowed between two chunks of the response body. */
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

export const DEFAULT_TRANSPORT: Required<TransportOptions> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  // Below common server idle timeouts (Node 5 s), so a pooled socket is rarely reused just as the
  // server closes it: that failure counts as "sent" and would not be retried for a POST.
  keepAliveTimeoutMs: 4_000,
};

/**
 * Errors raised while connecting: the request bytes cannot have reached the server, so even a POST
 * may be sent again.
 */
export const UNSENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export class Transport {
  private readonly dispatcher: Dispatcher;
  private readonly owned: boolean;
  private readonly options: Required<TransportOptions>;

  /** `dispatcher` is injected (tests pass a MockAgent); without one a keep-alive Agent is created and owned. */
  constructor(options?: TransportOptions, dispatcher?: Dispatcher) {
    this.options = withDefaults(DEFAULT_TRANSPORT, options);
    this.owned = !dispatcher;
    this.dispatcher =
      dispatcher ??
      new Agent({
        keepAliveTimeout: this.options.keepAliveTimeoutMs,
        connect: { timeout: this.options.connectTimeoutMs },
      });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    try {
      const res = await dispatcherRequest.call(this.dispatcher, {
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: this.options.bodyTimeoutMs,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (cause) {
      const reason = errorCode(cause);
      throw new NetworkError({
        method: req.method,
        origin: req.url.origin,
        path: req.url.pathname,
        setting: req.setting,
        reason,
        sent: !UNSENT_CODES.has(reason),
        cause,
      });
    }
  }

  /** Closes the connection pool if this transport created it; an injected dispatcher is the caller's. */
  async close(): Promise<void> {
    if (this.owned) await this.dispatcher.close();
  }
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" ? code : e instanceof Error ? e.name : "UNKNOWN";
}

// Retry policy as data, keyed by method, so a retry can never duplicate an object: POST is retried
// only on 429 (the service rejected it without acting) and on failures before any byte was sent.
// A 429 is bounded by the time waited, not by attempts: a burst of another client's traffic is
// waited out (honouring the service's reset) instead of failing the deployment after a few seconds.
import { setTimeout as sleep } from "node:timers/promises";
import { NetworkError } from "../errors";
import { UNSENT_CODES, type HttpResponse, type Method } from "./transport";

/** The token endpoint has its own rule: network failures and 429 are retried, never an OAuth error. */
export type RetryClass = Method | "TOKEN";

interface RetryRule {
  retryStatus: (status: number) => boolean;
  /** "transient": any transient network failure; "unsent": only failures before the request left. */
  network: "transient" | "unsent";
}

const idempotent: RetryRule = { retryStatus: (s) => s === 429 || s >= 500, network: "transient" };

export const RETRY_RULES: Readonly<Record<RetryClass, RetryRule>> = {
  GET: idempotent,
  PUT: idempotent,
  DELETE: idempotent,
  POST: { retryStatus: (s) => s === 429, network: "unsent" },
  TOKEN: { retryStatus: (s) => s === 429, network: "transient" },
};

/** Network failures worth another try; anything else (TLS trust, bad arguments) fails at once. */
const TRANSIENT_REASONS = new Set([
  ...UNSENT_CODES,
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

export interface RetryOptions {
  /** Attempts in total, the first included; 429 replies are bounded by `maxTotalDelayMs` only. */
  maxAttempts?: number;
  /** First backoff step; doubles per attempt. */
  baseDelayMs?: number;
  /** Cap on any single wait, a server's `ratelimit-reset` included. */
  maxDelayMs?: number;
  /** Cap on the sum of waits for one request: past it the request fails instead of waiting. */
  maxTotalDelayMs?: number;
  /** Multiplies every wait; tests use 0.001 to run a 30 s wait in 30 ms. */
  timeScale?: number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxTotalDelayMs: 60_000,
  timeScale: 1,
  random: Math.random,
};

export interface RetryHooks {
  /** Called before each wait with the scaled wait in ms and the response that caused it, if any. */
  onWait?: (waitMs: number, response?: HttpResponse) => void;
}

export interface RetryOutcome {
  response: HttpResponse;
  attempts: number;
  /** Unscaled time spent waiting between attempts. */
  waitedMs: number;
}

/**
 * Runs `attempt` until it yields a response the rule does not retry, the attempt count (not for
 * 429) or wait budget is spent (the last response is returned, or the last NetworkError thrown), or a
 * non-retryable error is thrown.
 */
export async function withRetry(
  kind: RetryClass,
  options: Required<RetryOptions>,
  attempt: () => Promise<HttpResponse>,
  hooks: RetryHooks = {},
): Promise<RetryOutcome> {
  const rule = RETRY_RULES[kind];
  let waited = 0;
  for (let n = 1; ; n++) {
    let response: HttpResponse | undefined;
    let failure: NetworkError | undefined;
    try {
      response = await attempt();
      if (!rule.retryStatus(response.status)) return { response, attempts: n, waitedMs: waited };
    } catch (e) {
      if (!(e instanceof NetworkError) || !networkRetryable(rule, e)) throw e;
      failure = e;
    }
    const delay = retryDelay(n, response, options);
    const rateLimited = response?.status === 429;
    if ((!rateLimited && n >= options.maxAttempts) || waited + delay > options.maxTotalDelayMs) {
      if (failure) throw failure;
      return { response: response!, attempts: n, waitedMs: waited };
    }
    waited += delay;
    const scaled = delay * options.timeScale;
    hooks.onWait?.(scaled, response);
    await sleep(scaled);
  }
}

function networkRetryable(rule: RetryRule, e: NetworkError): boolean {
  return rule.network === "unsent" ? !e.sent : TRANSIENT_REASONS.has(e.reason);
}

/**
 * Unscaled wait before attempt `n + 1`. A server hint (`ratelimit-reset` or `retry-after`, in
 * seconds) wins over backoff, plus jitter of up to one base step (at most 1 s) so that callers
 * waiting on the same reset do not return in lockstep. Otherwise exponential backoff with "equal jitter": half fixed, half random.
 */
export function retryDelay(n: number, response: HttpResponse | undefined, o: Required<RetryOptions>): number {
  const hint = response && serverWaitMs(response.headers);
  if (hint !== undefined) return Math.min(o.maxDelayMs, hint + o.random() * Math.min(1000, o.baseDelayMs));
  const step = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (n - 1));
  return step / 2 + (o.random() * step) / 2;
}

function serverWaitMs(headers: HttpResponse["headers"]): number | undefined {
  const reset = seconds(first(headers["ratelimit-reset"]));
  if (reset !== undefined) return reset * 1000;
  const after = first(headers["retry-after"]);
  if (after === undefined) return undefined;
  const delta = seconds(after);
  if (delta !== undefined) return delta * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function seconds(v: string | undefined): number | undefined {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function first(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === "" ? undefined : s.trim();
}

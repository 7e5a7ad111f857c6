// Retry policy as data, keyed by method, so a retry can never duplicate an object: POST is retried
// only on 429 (PagerDuty rejected it without acting) and on failures before any byte was sent.
// A 429 is bounded by the time waited, not by attempts: a burst of another client's traffic is
// waited out (honouring PagerDuty's reset) instead of failing the deployment after a few seconds.
// So is an outage that refuses connections (OUTAGE_REASONS): a restart of PagerDuty's edge, or of
// the emulator, takes seconds, and nothing reached the server, so every method waits it out.
import { setTimeout as sleep } from "node:timers/promises";
import { NetworkError } from "../errors";
import { UNSENT_CODES, type HttpResponse, type Method } from "./transport";

/**
 * The token endpoint has two rules. "TOKEN", the client-credentials grant: asking again only
 * issues another token, so 5xx and dropped connections are retried like a GET. "TOKEN_ONCE", a grant
 * that spends what it sends (a refresh token that rotates, an authorization code that works once):
 * a request that may have reached the server is never repeated, since a replayed code or refresh
 * token fails and can make the server revoke what the first request was issued. An OAuth error
 * (400 invalid_client, invalid_grant) is an answer under both rules.
 */
export type RetryClass = Method | "TOKEN" | "TOKEN_ONCE";

interface RetryRule {
  retryStatus: (status: number) => boolean;
  /** "transient": any transient network failure; "unsent": only failures before the request left. */
  network: "transient" | "unsent";
}

const idempotent: RetryRule = { retryStatus: (s) => s === 429 || s >= 500, network: "transient" };

/** Gateway and server failures a token endpoint answers while it (or what is in front of it) restarts. */
const TOKEN_5XX = new Set([500, 502, 503, 504]);

export const RETRY_RULES: Readonly<Record<RetryClass, RetryRule>> = {
  GET: idempotent,
  PUT: idempotent,
  DELETE: idempotent,
  POST: { retryStatus: (s) => s === 429, network: "unsent" },
  TOKEN: { retryStatus: (s) => s === 429 || TOKEN_5XX.has(s), network: "transient" },
  TOKEN_ONCE: { retryStatus: (s) => s === 429, network: "unsent" },
};

/**
 * Failures before sending that an outage or a restart causes, and that come back at once: retried
 * for `outageWindowMs` of waiting whatever the method, outside the attempt count. A name that does
 * not resolve (ENOTFOUND, most often a typo in the URL) and a connect timeout (each attempt already
 * takes `connectTimeoutMs`) keep the attempt count.
 */
export const OUTAGE_REASONS: ReadonlySet<string> = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "EADDRNOTAVAIL"]);

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
  /**
   * Attempts in total, the first included; 429 replies are bounded by `maxTotalDelayMs` only, and
   * outage failures (OUTAGE_REASONS) by `outageWindowMs` only.
   */
  maxAttempts?: number;
  /** First backoff step; doubles per attempt. */
  baseDelayMs?: number;
  /** Cap on any single wait, a server's `ratelimit-reset` included. */
  maxDelayMs?: number;
  /** Cap on the sum of waits for one request: past it the request fails instead of waiting. */
  maxTotalDelayMs?: number;
  /**
   * Sum of waits after outage failures (a refused connection: nothing was sent) for one request.
   * 30 s outlasts a restart of an edge proxy or of the emulator (seconds); past it the request fails.
   */
  outageWindowMs?: number;
  /** Cap on one wait after an outage failure, so a service that is back is tried again within it. */
  outageMaxDelayMs?: number;
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
  outageWindowMs: 30_000,
  outageMaxDelayMs: 2_000,
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
  /** Unscaled time spent waiting between attempts, outage waits (a budget of their own) not included. */
  waitedMs: number;
}

/**
 * Runs `attempt` until it yields a response the rule does not retry, a budget is spent (the last
 * response is returned, or the last NetworkError thrown), or a non-retryable error is thrown. Three
 * budgets: outage failures spend `outageWindowMs` of waiting; 429 replies `maxTotalDelayMs`; other
 * retried failures spend attempts (`maxAttempts`, outage failures and 429s not counted) and
 * `maxTotalDelayMs`.
 */
export async function withRetry(
  kind: RetryClass,
  options: Required<RetryOptions>,
  attempt: () => Promise<HttpResponse>,
  hooks: RetryHooks = {},
): Promise<RetryOutcome> {
  const rule = RETRY_RULES[kind];
  let waited = 0;
  let outageWaited = 0;
  let outagesInRow = 0;
  let outages = 0;
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
    let delay: number;
    if (failure && isOutage(failure)) {
      outages++;
      delay = outageDelay(++outagesInRow, options);
      if (outageWaited + delay > options.outageWindowMs) throw failure;
      outageWaited += delay;
    } else {
      outagesInRow = 0;
      delay = retryDelay(n - outages, response, options);
      const rateLimited = response?.status === 429;
      if ((!rateLimited && n - outages >= options.maxAttempts) || waited + delay > options.maxTotalDelayMs) {
        if (failure) throw failure;
        return { response: response!, attempts: n, waitedMs: waited };
      }
      waited += delay;
    }
    const scaled = delay * options.timeScale;
    hooks.onWait?.(scaled, response);
    await sleep(scaled);
  }
}

function isOutage(e: NetworkError): boolean {
  return !e.sent && OUTAGE_REASONS.has(e.reason);
}

/** Unscaled wait after the `k`th outage failure in a row: backoff with equal jitter, capped low. */
export function outageDelay(k: number, o: Required<RetryOptions>): number {
  const step = Math.min(o.outageMaxDelayMs, o.baseDelayMs * 2 ** (k - 1));
  return step / 2 + (o.random() * step) / 2;
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

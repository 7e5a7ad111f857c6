// Client-side pacing by the budget PagerDuty reports. Every REST reply carries `ratelimit-limit`,
// `ratelimit-remaining` and `ratelimit-reset` (seconds); PagerDuty counts every client of the
// account, so reading them is how several processes share one limit without knowing of each other.
// What is left is spent at full speed (the in-flight bound is the only brake), a small reserve is
// kept, and only when the budget runs low is the rest spread over the time to reset. Until the
// service has said anything (or when it sends no headers) a conservative token bucket paces instead.
import { setTimeout as sleep } from "node:timers/promises";
import { withDefaults } from "./options";
import type { HttpResponse } from "./transport";

export interface RateBudgetOptions {
  /** Static ceiling in requests per minute (`pagerduty:requestsPerMinute`); 0: none, the reported budget alone paces. */
  perMinute?: number;
  /** Requests of the reported budget never spent: slack for other clients and replies seen out of order. */
  reserve?: number;
  /** Share of the limit below which the remaining budget is spread over the time to reset. */
  lowWater?: number;
  /** Pace used while PagerDuty reports no budget (no reply yet, or replies without the headers). */
  fallbackPerMinute?: number;
  fallbackBurst?: number;
  /** Multiplies waits taken from PagerDuty's `ratelimit-reset`; tests use 0.001. */
  timeScale?: number;
}

/** The fallback stays under PagerDuty's 960/min with its burst: today's conservative pacing. */
export const DEFAULT_BUDGET: Required<RateBudgetOptions> = {
  perMinute: 0,
  reserve: 8,
  lowWater: 0.1,
  fallbackPerMinute: 840,
  fallbackBurst: 60,
  timeScale: 1,
};

/** A window reported later than the current one by more than this is a new window (reset is in whole seconds). */
const NEW_WINDOW_SLACK_MS = 2_000;

/** What PagerDuty last said, with our own requests since then subtracted. */
interface Reported {
  limit: number;
  /** Estimate of the requests the account may still send in this window. */
  remaining: number;
  /** Epoch ms when the window resets. */
  resetAt: number;
}

/** A token bucket: `burst` at once, then `perMinute`. */
class Bucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** 0 when a token was taken, else the ms until one is available. */
  take(now: number): number {
    const rate = this.perMinute / 60_000;
    this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * rate);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) / rate);
  }
}

export class RateBudget {
  private readonly options: Required<RateBudgetOptions>;
  private readonly ceiling?: Bucket;
  private readonly fallback: Bucket;
  private reported?: Reported;
  private inFlight = 0;
  private pausedUntil = 0;
  /** When the last request left while spreading. */
  private spreadAt = 0;

  constructor(
    options: RateBudgetOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = withDefaults(DEFAULT_BUDGET, options);
    const t = now();
    if (this.options.perMinute > 0) this.ceiling = new Bucket(this.options.perMinute, Math.min(60, this.options.perMinute), t);
    this.fallback = new Bucket(this.options.fallbackPerMinute, this.options.fallbackBurst, t);
  }

  /** Resolves when one more request may be sent; pair with `release` once its reply (or failure) is in. */
  async take(): Promise<void> {
    for (let wait = this.tryTake(this.now()); wait > 0; wait = this.tryTake(this.now())) await sleep(wait);
  }

  /** Records a finished request and what its reply says of the budget (nothing for a failure). */
  release(response?: Pick<HttpResponse, "status" | "headers">): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!response) return;
    const t = this.now();
    const limit = header(response, "ratelimit-limit");
    const remaining = header(response, "ratelimit-remaining");
    const reset = header(response, "ratelimit-reset");
    if (limit === undefined || remaining === undefined || reset === undefined) {
      // A REST reply without the headers: PagerDuty stopped reporting, so pace conservatively.
      if (response.status < 500) this.reported = undefined;
      return;
    }
    const resetAt = t + reset * 1000 * this.options.timeScale;
    // Requests still in flight may not be counted in this reply yet: assume they are not.
    const estimate = remaining - this.inFlight;
    const r = this.reported;
    if (!r || t >= r.resetAt || resetAt > r.resetAt + NEW_WINDOW_SLACK_MS) {
      this.reported = { limit, remaining: estimate, resetAt };
    } else {
      // Same window: replies arrive out of order, so the lowest count is the freshest.
      r.limit = limit;
      r.remaining = Math.min(r.remaining, estimate);
      r.resetAt = Math.min(r.resetAt, resetAt);
    }
    if (response.status === 429) this.pause(reset * 1000 * this.options.timeScale);
  }

  /** Holds every request of this account for `ms`, e.g. after a 429, and spends nothing until then. */
  pause(ms: number): void {
    const until = this.now() + ms;
    this.pausedUntil = Math.max(this.pausedUntil, until);
    if (this.reported) {
      this.reported.remaining = 0;
      this.reported.resetAt = Math.max(this.reported.resetAt, until);
    }
  }

  /** 0 when a request may go at `t` (it is then counted as sent), else how long to wait before asking again. */
  tryTake(t: number): number {
    const wait = this.waitMs(t);
    if (wait > 0) return wait;
    this.inFlight++;
    if (this.reported) this.reported.remaining--;
    return 0;
  }

  private waitMs(t: number): number {
    if (t < this.pausedUntil) return this.pausedUntil - t;
    const r = this.reported;
    if (r && t >= r.resetAt) {
      // The window is over: the full limit is assumed back until a reply says otherwise.
      r.remaining = r.limit - this.inFlight;
      r.resetAt = t + 60_000 * this.options.timeScale;
    }
    if (r) {
      const spendable = r.remaining - this.options.reserve;
      if (spendable <= 0) return Math.max(1, r.resetAt - t);
      if (r.remaining <= r.limit * this.options.lowWater) {
        // Low: spread what is left evenly over the rest of the window.
        const next = this.spreadAt + (r.resetAt - t) / spendable;
        if (t < next) return Math.ceil(next - t);
        this.spreadAt = t;
      }
    } else {
      const wait = this.fallback.take(t);
      if (wait > 0) return wait;
    }
    return this.ceiling?.take(t) ?? 0;
  }
}

function header(response: Pick<HttpResponse, "headers">, name: string): number | undefined {
  const raw = response.headers[name];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

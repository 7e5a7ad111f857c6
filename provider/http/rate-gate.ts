// Client-side pacing so a large `pulumi up` stays under the service's per-app rate limit instead of
// provoking 429s: a token bucket, plus a shared pause when the service says to back off.
import { setTimeout as sleep } from "node:timers/promises";
import { withDefaults } from "./options";

export interface RateGateOptions {
  /** Sustained requests per minute; 0 disables pacing. */
  perMinute?: number;
  /** Requests allowed at once before pacing starts. */
  burst?: number;
}

/** 840/min sustained + a burst of 60 stays under the service's 960 requests per minute. */
export const DEFAULT_RATE: Required<RateGateOptions> = { perMinute: 840, burst: 60 };

export class RateGate {
  private readonly options: Required<RateGateOptions>;
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;

  constructor(options: RateGateOptions = {}, private readonly now: () => number = Date.now) {
    this.options = withDefaults(DEFAULT_RATE, options);
    this.tokens = this.options.burst;
    this.refilledAt = now();
  }

  /** Resolves when one more request may start. */
  async take(): Promise<void> {
    for (;;) {
      const t = this.now();
      if (t < this.pausedUntil) {
        await sleep(this.pausedUntil - t);
        continue;
      }
      if (this.options.perMinute <= 0) return;
      const rate = this.options.perMinute / 60_000;
      this.tokens = Math.min(this.options.burst, this.tokens + (t - this.refilledAt) * rate);
      this.refilledAt = t;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.ceil((1 - this.tokens) / rate));
    }
  }

  /** Holds every request of this account for `ms`, e.g. after a 429 with `ratelimit-reset`. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}

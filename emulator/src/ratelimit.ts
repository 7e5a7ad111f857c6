// Fixed one-minute windows per app (or key) per account, on the emulator's clock so a test can
// advance past a window instead of waiting.
const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (the `ratelimit-reset` header). */
  reset: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(public perMinute: number) {}

  take(key: string, now: number): RateDecision {
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count < this.perMinute;
    if (allowed) w.count++;
    return {
      allowed,
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - w.count),
      reset: Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)),
    };
  }

  reset(): void {
    this.windows.clear();
  }
}

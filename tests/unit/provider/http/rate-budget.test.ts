import { RateBudget } from "../../../../provider/http/rate-budget";

/** A reply's budget headers. */
const reply = (remaining: number, reset: number, limit = 960, status = 200) => ({
  status,
  headers: { "ratelimit-limit": String(limit), "ratelimit-remaining": String(remaining), "ratelimit-reset": String(reset) },
});

/** Takes as many requests as go at `t` without waiting (at most `max`). */
function burst(budget: RateBudget, t: number, max = 10_000): number {
  let n = 0;
  while (n < max && budget.tryTake(t) === 0) n++;
  return n;
}

describe("RateBudget", () => {
  it("paces conservatively (a burst of 60, then 840/min) until the service reports a budget", () => {
    const budget = new RateBudget({}, () => 0);
    expect(burst(budget, 0)).toBe(60);
    expect(budget.tryTake(0)).toBe(72); // 60 000 / 840 ms for the next token
  });

  it("spends what the service says is left at full speed, keeping the reserve and spreading the low tenth", () => {
    const budget = new RateBudget({}, () => 0);
    budget.tryTake(0);
    budget.release(reply(900, 30));
    // 900 left: full speed down to 10 % of the limit (96), then spread.
    expect(burst(budget, 0)).toBe(900 - 96);
    const wait = budget.tryTake(0);
    // 96 left, 8 kept back: 88 requests over the 30 s to reset.
    expect(wait).toBe(Math.ceil(30_000 / 88));
    expect(budget.tryTake(wait)).toBe(0);
  });

  it("stops at the reserve and waits for the reset, then assumes the full limit back", () => {
    const budget = new RateBudget({ lowWater: 0 }, () => 0);
    budget.tryTake(0);
    budget.release(reply(20, 5));
    expect(burst(budget, 0)).toBe(12);
    expect(budget.tryTake(0)).toBe(5000);
    expect(burst(budget, 5000)).toBe(960 - 12 - 8); // the 12 still in flight count against it
  });

  it("counts its own requests in flight against a reply that cannot include them yet", () => {
    const budget = new RateBudget({ lowWater: 0 }, () => 0);
    expect(burst(budget, 0, 10)).toBe(10);
    budget.release(reply(20, 60)); // 9 still in flight: 11 left, 3 above the reserve
    expect(burst(budget, 0)).toBe(3);
  });

  it("keeps the lowest count of one window when replies arrive out of order, and takes a new window's count", () => {
    const budget = new RateBudget({ lowWater: 0, reserve: 0 }, () => 0);
    budget.tryTake(0);
    budget.tryTake(0);
    budget.release(reply(10, 30)); // the other request is still in flight: 9
    budget.release(reply(50, 30)); // an older reply of the same window
    expect(burst(budget, 0)).toBe(9);
    budget.release(reply(900, 60)); // reset well after the current window: a new one (8 still in flight)
    expect(burst(budget, 0)).toBe(900 - 8);
  });

  it("holds the whole account after a 429 until the reset it names", () => {
    let now = 0;
    const budget = new RateBudget({}, () => now);
    budget.tryTake(0);
    budget.release(reply(0, 3, 960, 429));
    expect(budget.tryTake(0)).toBe(3000);
    now = 3000;
    expect(budget.tryTake(3000)).toBe(0);
  });

  it("falls back to conservative pacing when replies stop carrying the headers", () => {
    const budget = new RateBudget({}, () => 0);
    budget.tryTake(0);
    budget.release(reply(900, 30));
    budget.tryTake(0);
    budget.release({ status: 200, headers: {} });
    expect(burst(budget, 0)).toBe(59); // the fallback bucket had spent one token on the first request
  });

  it("applies a static ceiling (pagerduty:requestsPerMinute) on top of the reported budget", () => {
    const budget = new RateBudget({ perMinute: 120 }, () => 0);
    budget.tryTake(0);
    budget.release(reply(900, 30));
    expect(burst(budget, 0)).toBe(60 - 1); // the ceiling's burst, one already spent
    expect(budget.tryTake(0)).toBe(500);
  });
});

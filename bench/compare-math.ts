// The arithmetic of `npm run bench:compare`, kept pure so it is tested apart from the slow runs:
// request counts from the emulator's statistics, the time a fixed-window rate limit forces, the
// throughput of a concurrent run while requests were still flowing, and the target marks.

/** The parts of `GET /_emulator/stats` used here. */
export interface EmulatorStats {
  byRoute: Record<string, Record<string, number>>;
  tokensIssued: Record<string, number>;
  rateLimited: number;
}

export interface Counts {
  /** REST requests answered (every status, 429s and retries included). */
  rest: number;
  /** Of those, answered 429 by the rate limiter. */
  rateLimited: number;
  /** Requests to the identity service (token endpoint, discovery). */
  identity: number;
  /** Access tokens issued, any grant. */
  tokens: number;
}

/**
 * Counted apart from REST: once per process, not per resource operation — the identity service
 * (tokens, discovery) and the credential check that shows a new app token to the REST API once
 * (`GET /users/me`, provider/account/deployment.ts).
 */
const isIdentityRoute = (route: string): boolean => /^\w+ \/(oauth\/|\.well-known\/)/.test(route) || route === "GET /users/me";

export function counts(s: EmulatorStats): Counts {
  let rest = 0;
  let identity = 0;
  for (const [route, byStatus] of Object.entries(s.byRoute)) {
    const n = Object.values(byStatus).reduce((a, b) => a + b, 0);
    if (isIdentityRoute(route)) identity += n;
    else rest += n;
  }
  const tokens = Object.values(s.tokensIssued).reduce((a, b) => a + b, 0);
  return { rest, rateLimited: s.rateLimited, identity, tokens };
}

/** Requests per route between two snapshots of the statistics (where the requests per operation go). */
export function routeDelta(before: EmulatorStats, after: EmulatorStats): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, byStatus] of Object.entries(after.byRoute)) {
    const sum = (m: Record<string, number> | undefined) => Object.values(m ?? {}).reduce((a, b) => a + b, 0);
    const n = sum(byStatus) - sum(before.byRoute[route]);
    if (n) out[route] = n;
  }
  return out;
}

/** What happened between two snapshots. */
export function delta(before: Counts, after: Counts): Counts {
  return {
    rest: after.rest - before.rest,
    rateLimited: after.rateLimited - before.rateLimited,
    identity: after.identity - before.identity,
    tokens: after.tokens - before.tokens,
  };
}

export interface Limit {
  perMinute: number;
  /** Requests left in the current window when the run starts. */
  startBudget: number;
  /** Seconds until the current window resets when the run starts. */
  resetSeconds: number;
}

/**
 * The least time after which the last of `requests` can be sent under a fixed one-minute window
 * (the emulator's model, and what `ratelimit-reset` describes): the start budget is free, every
 * later window adds `perMinute`. A smooth rate model ((requests - budget) / rate) would call 1,001
 * requests 2.6 s of work under 960/min, where the window makes the 961st wait for the reset.
 */
export function limitBoundSeconds(requests: number, limit: Limit): number {
  const over = requests - limit.startBudget;
  if (over <= 0) return 0;
  return limit.resetSeconds + (Math.ceil(over / limit.perMinute) - 1) * 60;
}

/** The smooth-rate reading of the same bound, (requests - start budget) / rate, kept for comparison in the JSON. */
export function smoothBoundSeconds(requests: number, limit: Limit): number {
  return (Math.max(0, requests - limit.startBudget) / limit.perMinute) * 60;
}

/**
 * What the request count and the limit allow for a run whose engine alone (the no-op provider on
 * the same graph) takes `floorSeconds`: the two overlap, so the larger one bounds the run.
 */
export function idealSeconds(floorSeconds: number, requests: number, limit: Limit): number {
  return Math.max(floorSeconds, limitBoundSeconds(requests, limit));
}

/** One poll of the emulator during a concurrent run: seconds since start, cumulative counts. */
export interface Sample {
  t: number;
  rest: number;
  rateLimited: number;
}

export interface Throughput {
  /** Requests answered with something other than 429 while work remained. */
  served: number;
  /** From the last sample before the first request to the first sample showing the last one. */
  seconds: number;
  perMinute: number;
}

/** Aggregate throughput while requests were flowing (not counting engine start-up or wind-down). */
export function activeThroughput(samples: Sample[]): Throughput {
  if (samples.length < 2) return { served: 0, seconds: 0, perMinute: 0 };
  const first = samples[0];
  const last = samples[samples.length - 1];
  const startIdx = samples.findIndex((s) => s.rest > first.rest);
  if (startIdx < 0) return { served: 0, seconds: 0, perMinute: 0 };
  const start = samples[startIdx - 1];
  const end = samples.find((s) => s.rest === last.rest)!;
  const served = last.rest - last.rateLimited - (first.rest - first.rateLimited);
  const seconds = end.t - start.t;
  return { served, seconds, perMinute: seconds > 0 ? (served / seconds) * 60 : 0 };
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export type Mark = "PASS" | "MISS";

export const atMost = (value: number, target: number): Mark => (value <= target ? "PASS" : "MISS");
export const below = (value: number, target: number): Mark => (value < target ? "PASS" : "MISS");
export const atLeast = (value: number, target: number): Mark => (value >= target ? "PASS" : "MISS");

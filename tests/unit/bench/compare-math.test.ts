// The arithmetic behind `npm run bench:compare`'s ratios: which requests count, what a fixed-window
// limit allows, and throughput while work remains.
import {
  activeThroughput,
  atMost,
  below,
  counts,
  delta,
  idealSeconds,
  limitBoundSeconds,
  median,
  routeDelta,
  smoothBoundSeconds,
  type Limit,
} from "../../../bench/compare-math";

const fresh: Limit = { perMinute: 960, startBudget: 960, resetSeconds: 60 };

test("REST requests of every status count, identity requests are kept apart", () => {
  const c = counts({
    byRoute: {
      "POST /services": { "201": 50, "429": 2 },
      "GET /services/:id/rules": { "200": 3 },
      "DELETE /services/:id": { "204": 4, dropped: 1 },
      "POST /oauth/token": { "200": 2, "400": 1 },
      "GET /.well-known/openid-configuration": { "200": 1 },
      // The once-per-process credential check is not a resource operation either.
      "GET /users/me": { "400": 1 },
    },
    tokensIssued: { client_credentials: 2, authorization_code: 0, refresh_token: 1 },
    rateLimited: 2,
  });
  expect(c).toEqual({ rest: 60, rateLimited: 2, identity: 5, tokens: 3 });
});

test("delta subtracts every count", () => {
  expect(delta({ rest: 10, rateLimited: 1, identity: 2, tokens: 2 }, { rest: 25, rateLimited: 1, identity: 3, tokens: 3 })).toEqual({
    rest: 15,
    rateLimited: 0,
    identity: 1,
    tokens: 1,
  });
});

test("requests by route between two snapshots, routes without requests left out", () => {
  const before = { byRoute: { "POST /services": { "201": 5 }, "GET /services/:id": { "200": 2 } }, tokensIssued: {}, rateLimited: 0 };
  const after = {
    byRoute: { "POST /services": { "201": 8, "429": 1 }, "GET /services/:id": { "200": 2 }, "DELETE /services/:id": { "204": 3 } },
    tokensIssued: {},
    rateLimited: 1,
  };
  expect(routeDelta(before, after)).toEqual({ "POST /services": 4, "DELETE /services/:id": 3 });
});

test("the limit forces no wait while the start budget lasts", () => {
  expect(limitBoundSeconds(600, fresh)).toBe(0);
  expect(limitBoundSeconds(960, fresh)).toBe(0);
});

test("past the start budget every further window costs a minute, the first one only until its reset", () => {
  expect(limitBoundSeconds(961, fresh)).toBe(60);
  expect(limitBoundSeconds(1001, fresh)).toBe(60);
  expect(limitBoundSeconds(1920, fresh)).toBe(60);
  expect(limitBoundSeconds(1921, fresh)).toBe(120);
  expect(limitBoundSeconds(300, { perMinute: 960, startBudget: 100, resetSeconds: 12 })).toBe(12);
});

test("the smooth-rate reading spreads the requests past the budget at the limit's rate", () => {
  expect(smoothBoundSeconds(600, fresh)).toBe(0);
  expect(smoothBoundSeconds(1920, fresh)).toBe(60);
});

test("ideal is the larger of the engine floor and the limit bound", () => {
  expect(idealSeconds(18, 600, fresh)).toBe(18);
  expect(idealSeconds(18, 1001, fresh)).toBe(60);
});

test("throughput counts served requests between the first and the last request seen", () => {
  const t = activeThroughput([
    { t: 0, rest: 0, rateLimited: 0 },
    { t: 1, rest: 0, rateLimited: 0 },
    { t: 2, rest: 100, rateLimited: 0 },
    { t: 3, rest: 250, rateLimited: 10 },
    { t: 4, rest: 250, rateLimited: 10 },
    { t: 5, rest: 250, rateLimited: 10 },
  ]);
  // From the sample at 1 s (last before any request) to the one at 3 s (first at the final count).
  expect(t).toEqual({ served: 240, seconds: 2, perMinute: 7200 });
});

test("no requests: no throughput", () => {
  expect(
    activeThroughput([
      { t: 0, rest: 5, rateLimited: 0 },
      { t: 1, rest: 5, rateLimited: 0 },
    ]).perMinute,
  ).toBe(0);
  expect(activeThroughput([]).served).toBe(0);
});

test("median of odd and even counts", () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
});

test("marks: at most includes the target, below does not", () => {
  expect([atMost(1.2, 1.2), atMost(1.21, 1.2)]).toEqual(["PASS", "MISS"]);
  expect([below(0.99, 1), below(1, 1)]).toEqual(["PASS", "MISS"]);
});

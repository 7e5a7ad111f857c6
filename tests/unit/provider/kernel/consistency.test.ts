// kernel/consistency.ts: how a 404 and an empty search are waited out, and their bounds.
import { ApiError, PagerDutyError } from "../../../../provider/errors";
import { Consistency, recordedCreation } from "../../../../provider/kernel/consistency";
import { virtualConsistency } from "../../support/virtual-consistency";

const notFound = () => new ApiError({ method: "GET", path: "/x", status: 404, errors: [], response: { status: 404, headers: {}, body: null } });

/** An operation that answers 404 `misses` times, then `value`; counts its calls. */
function appearsAfter<T>(misses: number, value: T) {
  const op = async () => {
    op.calls++;
    if (op.calls <= misses) throw notFound();
    return value;
  };
  op.calls = 0;
  return op;
}

describe("untilVisible", () => {
  test("an object of unknown age: two second looks, 1 s and 2 s apart, then the 404 is believed", async () => {
    const lag = virtualConsistency(120_000);
    const op = appearsAfter(Infinity, "never");
    await expect(lag.consistency.untilVisible(undefined, op)).rejects.toThrow(ApiError);
    expect(op.calls).toBe(3);
    expect(lag.waits).toEqual([1000, 2000]);
  });

  test("an object of unknown age that answers on the second look is kept", async () => {
    const lag = virtualConsistency(120_000);
    await expect(lag.consistency.untilVisible(undefined, appearsAfter(1, "here"))).resolves.toBe("here");
    expect(lag.waits).toEqual([1000]);
  });

  test("a young object is asked again with a growing back-off until it answers", async () => {
    const lag = virtualConsistency(120_000);
    const op = appearsAfter(5, "here");
    await expect(lag.consistency.untilVisible(lag.consistency.now(), op)).resolves.toBe("here");
    expect(lag.waits).toEqual([250, 500, 1000, 2000, 4000]);
  });

  test("a young object that never answers: asked until its window has passed (back-off capped at 5 s), then the second looks", async () => {
    const lag = virtualConsistency(30_000);
    const made = lag.consistency.now() - 10_000;
    await expect(lag.consistency.untilVisible(made, appearsAfter(Infinity, 0))).rejects.toThrow(ApiError);
    expect(Math.max(...lag.waits)).toBe(5_000);
    const total = lag.waits.reduce((a, b) => a + b, 0);
    // 20 s left of the window, then 1 s + 2 s.
    expect(total).toBeGreaterThan(20_000 + 3_000 - 100);
    expect(total).toBeLessThanOrEqual(20_000 + 3_000 + 1);
  });

  test("anything but a 404 is passed on at once", async () => {
    const lag = virtualConsistency(120_000);
    const op = async () => {
      throw new PagerDutyError("ERR_API", "boom");
    };
    await expect(lag.consistency.untilVisible(lag.consistency.now(), op)).rejects.toThrow("boom");
    expect(lag.waits).toEqual([]);
  });

  test("no 404, no wait and one call", async () => {
    const lag = virtualConsistency(120_000);
    const op = appearsAfter(0, "here");
    await expect(lag.consistency.untilVisible(lag.consistency.now(), op)).resolves.toBe("here");
    expect(op.calls).toBe(1);
    expect(lag.waits).toEqual([]);
  });
});

describe("search", () => {
  test("an empty answer is asked again until the window since `since` has passed", async () => {
    const lag = virtualConsistency(60_000);
    let calls = 0;
    const found = await lag.consistency.search(lag.consistency.now(), async () => {
      calls++;
      return [] as string[];
    });
    expect(found).toEqual([]);
    const total = lag.waits.reduce((a, b) => a + b, 0);
    // The virtual clock also moves with real time (a few ms here).
    expect(total).toBeGreaterThan(59_900);
    expect(total).toBeLessThanOrEqual(60_000);
    expect(Math.max(...lag.waits)).toBe(10_000);
    expect(calls).toBe(lag.waits.length + 1);
  });

  test("it ends as soon as something is found", async () => {
    const lag = virtualConsistency(60_000);
    let calls = 0;
    await expect(lag.consistency.search(lag.consistency.now(), async () => (++calls >= 3 ? ["P1"] : []))).resolves.toEqual(["P1"]);
    expect(lag.waits).toEqual([1000, 2000]);
  });

  test("once the window has passed, one search is believed", async () => {
    const lag = virtualConsistency(60_000);
    let calls = 0;
    await expect(
      lag.consistency.search(lag.consistency.now() - 61_000, async () => {
        calls++;
        return [] as string[];
      }),
    ).resolves.toEqual([]);
    expect(calls).toBe(1);
    expect(lag.waits).toEqual([]);
  });
});

test("what a state records of its object's creation: this provider's stamp, else the API's createdAt", () => {
  expect(recordedCreation({ __createdAt: 5 })).toBe(5);
  expect(recordedCreation({ createdAt: "2026-11-25T10:00:00Z" })).toBe(Date.parse("2026-11-25T10:00:00Z"));
  expect(recordedCreation({ createdAt: "" })).toBeUndefined();
  expect(recordedCreation(undefined)).toBeUndefined();
});

test("the youngest of several objects is the latest this process made among them; none made, none owed", () => {
  let now = 1_000;
  const c = new Consistency({ windowMs: 60_000, now: () => now });
  c.created("Service", "P1");
  now = 2_000;
  c.created("Service", "P2");
  now = 3_000;
  c.created("ServiceIntegration", "P3");
  expect(c.youngest("Service", ["P1", "P2", "PX"])).toBe(2_000);
  expect(c.youngest("Service", ["P1"])).toBe(1_000);
  expect(c.youngest("Service", ["P3", "PX"])).toBeUndefined();
  expect(c.youngest("Service", [])).toBeUndefined();
});

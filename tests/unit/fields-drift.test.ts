// The opt-in report of drift in fields the program leaves unset (pagerduty:driftAllFields).
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { resolveDriftAllFields } from "../../provider/config";
import { diffManaged, unmanagedChanges, withUnmanagedDrift } from "../../provider/resources/fields";

describe("unmanagedChanges", () => {
  const recorded = { service: "PS1", position: 0, disabled: false, conditions: null, summary: "Event rule R1", __provider: "a" };

  test("a field the program leaves unset that changed out of band is named", () => {
    expect(unmanagedChanges(recorded, { ...recorded, disabled: true }, { service: "PS1", position: 0 })).toEqual(["disabled"]);
  });
  test("managed fields are left to the managed diff; server-maintained outputs and engine keys never count", () => {
    const live = { ...recorded, position: 3, summary: "renamed", __provider: "b" };
    expect(unmanagedChanges(recorded, live, { service: "PS1", position: 0 })).toEqual([]);
  });
  test("comparison is exact, also inside objects; absent and null are the same", () => {
    const live = { ...recorded, conditions: { operator: "and" } };
    expect(unmanagedChanges(recorded, live, {})).toEqual(["conditions"]);
    expect(unmanagedChanges({ description: undefined }, { description: null }, {})).toEqual([]);
  });
  test("a field the last state did not record is not judged", () => {
    expect(unmanagedChanges({ name: "a" }, { name: "a", newField: 1 }, {})).toEqual([]);
  });
});

describe("withUnmanagedDrift", () => {
  // A resource whose read returns `live` and whose diff is the managed-fields diff.
  const fake = (live: Record<string, unknown>): dynamic.ResourceProvider => ({
    async create() {
      return { id: "R1", outs: {} };
    },
    async read(id) {
      return { id, props: live };
    },
    async diff(_id, olds, news) {
      return diffManaged(olds, news);
    },
  });
  const last = { service: "PS1", disabled: false, summary: "r" };
  const live = { service: "PS1", disabled: true, summary: "r" };
  const news = { service: "PS1", __provider: "p" };

  // What the engine does on refresh: read with the last outputs, then diff the fresh outputs against the inputs.
  async function refresh(p: dynamic.ResourceProvider) {
    const read = await p.read!("R1", last);
    return p.diff!("R1", read.props!, news);
  }

  test("off (the default): fields left unset are not managed, the refresh is clean", async () => {
    expect((await refresh(withUnmanagedDrift("Rule", fake(live), () => false))).changes).toBe(false);
  });
  test("on: the out-of-band change of an unset field is drift", async () => {
    expect((await refresh(withUnmanagedDrift("Rule", fake(live), () => true))).changes).toBe(true);
  });
  test("on, nothing changed: clean", async () => {
    expect((await refresh(withUnmanagedDrift("Rule", fake(last), () => true))).changes).toBe(false);
  });
  test("a diff without a read before it (plain preview or up) compares managed fields only", async () => {
    const p = withUnmanagedDrift("Rule", fake(live), () => true);
    expect((await p.diff!("R1", live, news)).changes).toBe(false);
  });
  test("the record is used once: a second diff of the same resource in the run is not reported again", async () => {
    const p = withUnmanagedDrift("Rule", fake(live), () => true);
    expect((await refresh(p)).changes).toBe(true);
    expect((await p.diff!("R1", live, news)).changes).toBe(false);
  });
  test("records are per kind: another resource type with the same id does not see them", async () => {
    const rule = withUnmanagedDrift("Rule", fake(live), () => true);
    const other = withUnmanagedDrift("Other", fake(live), () => true);
    await rule.read!("R1", last);
    expect((await other.diff!("R1", live, news)).changes).toBe(false);
    expect((await rule.diff!("R1", live, news)).changes).toBe(true);
  });
});

describe("pagerduty:driftAllFields", () => {
  const env = {};
  test("off unless set to true, by config or environment; config wins", () => {
    expect(resolveDriftAllFields(() => undefined, env)).toBe(false);
    expect(resolveDriftAllFields(() => "true", env)).toBe(true);
    expect(resolveDriftAllFields(() => undefined, { PAGERDUTY_DRIFT_ALL_FIELDS: "TRUE" })).toBe(true);
    expect(resolveDriftAllFields(() => "false", { PAGERDUTY_DRIFT_ALL_FIELDS: "true" })).toBe(false);
  });
  test("anything else is an error naming the setting", () => {
    expect(() => resolveDriftAllFields(() => "yes", env)).toThrow(/"pagerduty:driftAllFields" \(env PAGERDUTY_DRIFT_ALL_FIELDS\) must be "true" or "false"; got "yes"/);
  });
});

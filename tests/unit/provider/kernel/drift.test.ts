// The opt-in report of drift in fields the program leaves unset (pagerduty:driftAllFields).
import { z } from "zod";
import { AccountContext } from "../../../../provider/account/context";
import { resolveDriftAllFields } from "../../../../provider/config";
import type { ApiClient } from "../../../../provider/http/client";
import { defineResource } from "../../../../provider/kernel/define";
import { unmanagedChanges } from "../../../../provider/kernel/drift";
import { makeProvider, type Resource } from "../../../../provider/operations/factory";

/** `summary` is an output only: the service maintains it (never drift of an unmanaged field). */
const MAINTAINED = new Set(["summary"]);

describe("unmanagedChanges", () => {
  const recorded = { service: "PS1", position: 0, disabled: false, conditions: null, summary: "Event rule R1", __provider: "a" };

  test("a field the program leaves unset that changed out of band is named", () => {
    expect(unmanagedChanges(recorded, { ...recorded, disabled: true }, { service: "PS1", position: 0 }, MAINTAINED)).toEqual(["disabled"]);
  });
  test("managed fields are left to the managed diff; server-maintained outputs and engine keys never count", () => {
    const live = { ...recorded, position: 3, summary: "renamed", __provider: "b" };
    expect(unmanagedChanges(recorded, live, { service: "PS1", position: 0 }, MAINTAINED)).toEqual([]);
  });
  test("comparison is exact, also inside objects; absent and null are the same", () => {
    const live = { ...recorded, conditions: { operator: "and" } };
    expect(unmanagedChanges(recorded, live, {}, MAINTAINED)).toEqual(["conditions"]);
    expect(unmanagedChanges({ description: undefined }, { description: null }, {}, MAINTAINED)).toEqual([]);
  });
  test("a value the service computes is compared as the program would declare it", () => {
    const asDeclared = (k: string, v: unknown) => (k === "status" && v !== "disabled" ? "active" : v);
    expect(unmanagedChanges({ status: "active" }, { status: "critical" }, {}, MAINTAINED, asDeclared)).toEqual([]);
    expect(unmanagedChanges({ status: "warning" }, { status: "disabled" }, {}, MAINTAINED, asDeclared)).toEqual(["status"]);
  });
  test("a field the last state did not record is not judged", () => {
    expect(unmanagedChanges({ name: "a" }, { name: "a", newField: 1 }, {}, MAINTAINED)).toEqual([]);
  });
});

describe("the factory's drift report", () => {
  // A resource whose read returns `live`; its diff is the factory's managed-fields diff.
  const fake = (kind: string, live: Record<string, unknown>): Resource => ({
    definition: defineResource({
      kind,
      description: "a test resource",
      notes: "",
      inputs: z.object({ service: z.string(), disabled: z.boolean().optional() }),
      outputs: z.object({ service: z.string(), disabled: z.boolean(), summary: z.string() }),
      replaceOn: [],
      creates: false,
    }),
    subject: (id) => id,
    create: async () => ({ id: "R1", outs: {} }),
    read: async (_ctx, id) => ({ id, props: live }),
    delete: async () => undefined,
  });
  const context = (on: boolean) => new AccountContext({ client: { missingScopes: async () => [] } as unknown as ApiClient, driftAllFields: on });
  const drifting = (kind: string, live: Record<string, unknown>, ctx: AccountContext) => makeProvider(fake(kind, live), () => ctx);
  const last = { service: "PS1", disabled: false, summary: "r" };
  const live = { service: "PS1", disabled: true, summary: "r" };
  const news = { service: "PS1", __provider: "p" };

  // What the engine does on refresh: read with the last outputs, then diff the fresh outputs against the inputs.
  async function refresh(p: ReturnType<typeof drifting>) {
    const read = await p.read("R1", last);
    return p.diff("R1", read.props!, news);
  }

  test("off (the default): fields left unset are not managed, the refresh is clean", async () => {
    expect((await refresh(drifting("Rule", live, context(false)))).changes).toBe(false);
  });
  test("on: the out-of-band change of an unset field is drift", async () => {
    expect((await refresh(drifting("Rule", live, context(true)))).changes).toBe(true);
  });
  test("on, nothing changed: clean; a changed server-maintained output is not drift", async () => {
    expect((await refresh(drifting("Rule", last, context(true)))).changes).toBe(false);
    expect((await refresh(drifting("Rule", { ...last, summary: "renamed" }, context(true)))).changes).toBe(false);
  });
  test("a diff without a read before it (plain preview or up) compares managed fields only", async () => {
    const p = drifting("Rule", live, context(true));
    expect((await p.diff("R1", live, news)).changes).toBe(false);
  });
  test("the record is used once: a second diff of the same resource in the run is not reported again", async () => {
    const p = drifting("Rule", live, context(true));
    expect((await refresh(p)).changes).toBe(true);
    expect((await p.diff("R1", live, news)).changes).toBe(false);
  });
  test("records are per kind: another resource type with the same id does not see them", async () => {
    const ctx = context(true);
    const rule = drifting("Rule", live, ctx);
    const other = drifting("Other", live, ctx);
    await rule.read("R1", last);
    expect((await other.diff("R1", live, news)).changes).toBe(false);
    expect((await rule.diff("R1", live, news)).changes).toBe(true);
  });
  test("records are per account: another account's context does not see them", async () => {
    const first = drifting("Rule", live, context(true));
    const second = drifting("Rule", live, context(true));
    await first.read("R1", last);
    expect((await second.diff("R1", live, news)).changes).toBe(false);
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
    expect(() => resolveDriftAllFields(() => "yes", env)).toThrow(
      /"pagerduty:driftAllFields" \(env PAGERDUTY_DRIFT_ALL_FIELDS\) must be "true" or "false"; got "yes"/,
    );
  });
});

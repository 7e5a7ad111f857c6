// ServiceEventRule against the emulator, driven as the engine drives it: what its lifecycle row does
// not show. Several rules of one service written at once, as one `up` writes them (the engine runs
// their creates and updates in parallel, in any order), end in the declared order; a rule moved
// away, made again or adopted past the end leaves the order as declared.
import type { Deployed } from "../lifecycle/engine";
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

type Rule = Record<string, unknown>;
const rule = (service: string, position: number, extra: Rule): Rule => ({ service, position, disabled: false, ...extra });
const A = {
  conditions: { operator: "or", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
  timeFrame: { scheduledWeekly: { startTime: 3600000, duration: 7200000, timezone: "UTC", weekdays: [1, 2, 3] } },
  variables: [{ type: "regex", name: "host", parameters: { value: "host=(\\w+)", path: "payload.source" } }],
  actions: { annotate: { value: "db alert" }, extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }] },
};
const B = {
  actions: { severity: { value: "warning" }, suppress: { value: true, thresholdValue: 3, thresholdTimeUnit: "minutes", thresholdTimeAmount: 5 } },
};
const C = {
  conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "payload.source" } }] },
  actions: { severity: { value: "critical" } },
};

let svc: string;
let other: string;
/** The program's rules by name: what it declares and what the state holds. */
const declared = new Map<string, Rule>();
const state = new Map<string, Deployed>();

/** The rule names of the stack in the service's live order (a rule of no name: made by hand). */
async function liveOrder(service = svc): Promise<string[]> {
  const { rules } = await expectStatus(stage().api.get(`/services/${service}/rules?limit=100`), 200, "GET rules");
  const names = new Map([...state].map(([name, r]) => [r.id, name]));
  return rules.map((r: { id: string }) => names.get(r.id) ?? `unmanaged:${r.id}`);
}

/** One `up` of the declared rules: every rule whose plan changes is updated or replaced, all at once. */
async function up(next: Record<string, Rule>): Promise<void> {
  const { engine } = stage();
  await Promise.all(
    Object.entries(next).map(async ([name, inputs]) => {
      const r = state.get(name);
      if (!r) return state.set(name, await engine.create("ServiceEventRule", name, inputs));
      const plan = await engine.plan(r, inputs);
      if (!plan.diff.changes) return;
      state.set(name, plan.diff.replaces?.length ? await engine.replace(r, inputs, plan) : await engine.update(r, plan));
    }),
  );
  for (const [name, inputs] of Object.entries(next)) declared.set(name, inputs);
}

/** `preview --refresh` of every rule shows no changes. */
async function expectClean(): Promise<void> {
  for (const [name, r] of state) {
    const read = await stage().engine.refresh(r);
    expect((await stage().engine.plan(read!, declared.get(name)!)).diff).toMatchObject({ changes: false });
    state.set(name, read!);
  }
}

beforeAll(async () => {
  const env = envOf(stage(), "rules");
  [svc, other] = [await env.service(), await env.service()];
});

test("rules created at once, declared out of order, end at their positions, every nested field as declared", async () => {
  await up({ c: rule(svc, 2, C), b: rule(svc, 1, B), a: rule(svc, 0, A) });
  expect(await liveOrder()).toEqual(["a", "b", "c"]);
  expect(["a", "b", "c"].map((n) => state.get(n)!.outs.position)).toEqual([0, 1, 2]);
  const a = await expectStatus(stage().api.get(`/services/${svc}/rules/${state.get("a")!.id}`), 200, "GET rule");
  expect(a.rule).toMatchObject({
    time_frame: { scheduled_weekly: { start_time: 3600000, duration: 7200000, timezone: "UTC", weekdays: [1, 2, 3] } },
    variables: [{ type: "regex", name: "host", parameters: { value: "host=(\\w+)", path: "payload.source" } }],
    actions: { annotate: { value: "db alert" }, extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }] },
  });
  await expectClean();
});

test("new positions, disabled and an action removed update all three in place at once; the new order holds", async () => {
  const ids = ["a", "b", "c"].map((n) => state.get(n)!.id);
  await up({ a: rule(svc, 2, A), b: rule(svc, 0, { disabled: true, actions: { severity: { value: "error" } } }), c: rule(svc, 1, C) });
  expect(["a", "b", "c"].map((n) => state.get(n)!.id)).toEqual(ids);
  expect(await liveOrder()).toEqual(["b", "c", "a"]);
  const b = (await expectStatus(stage().api.get(`/services/${svc}/rules/${ids[1]}`), 200, "GET rule")).rule;
  expect(b).toMatchObject({ disabled: true, actions: expect.objectContaining({ severity: { value: "error" } }) });
  expect(b.actions.suppress ?? null).toBeNull();
  await expectClean();
});

test("a rule moved to another service is replaced there, and the rules it left close the gap as declared", async () => {
  const old = state.get("b")!;
  await up({ a: rule(svc, 1, A), b: rule(other, 0, { disabled: true, actions: { severity: { value: "error" } } }), c: rule(svc, 0, C) });
  expect(state.get("b")!.id).not.toBe(old.id);
  expect(await liveOrder()).toEqual(["c", "a"]);
  expect(await liveOrder(other)).toEqual(["b"]);
  await expectClean();
});

test("a rule deleted by hand is dropped by refresh and made again at its position", async () => {
  const c = state.get("c")!;
  await expectStatus(stage().api.delete(`/services/${svc}/rules/${c.id}`), 204, "DELETE rule");
  expect(await stage().engine.refresh(c)).toBeUndefined();
  state.delete("c");
  await up({ c: declared.get("c")! });
  expect(state.get("c")!.id).not.toBe(c.id);
  expect(await liveOrder()).toEqual(["c", "a"]);
  await expectClean();
});

test("a rule adopted at a position past the end is last, and reports the position asked for (no perpetual diff)", async () => {
  const made = await expectStatus(stage().api.post(`/services/${svc}/rules`, { rule: { actions: { annotate: { value: "by hand" } } } }), 201, "POST rule");
  await up({ adopted: rule(svc, 9, { disabled: true, adoptId: made.rule.id }) });
  expect(state.get("adopted")!.id).toBe(made.rule.id);
  expect(await liveOrder()).toEqual(["c", "a", "adopted"]);
  expect(state.get("adopted")!.outs.position).toBe(9);
  await expectClean();
});

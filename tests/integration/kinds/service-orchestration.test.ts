// ServiceOrchestration against the emulator, driven as the engine drives it: what its lifecycle row
// does not show. An update keeps the ids the API gave the rules; a preview names the service whose
// events would bypass the orchestration; a service moves from event rules to an orchestration through
// the conversion (docs/orchestrations.md), and the rules and the conversion then leave the program
// while the orchestration stays.
import type { Deployed } from "../lifecycle/engine";
import { envOf, expectStatus } from "../lifecycle/env";
import { useStage } from "../lifecycle/stage";

const stage = useStage();

interface ApiRule {
  id: string;
  label?: string;
}
const orchestration = async (service: string) =>
  (await expectStatus(stage().api.get(`/event_orchestrations/services/${service}`), 200, "GET orchestration")).orchestration_path as {
    sets: { id: string; rules: ApiRule[] }[];
  };
const active = async (service: string) =>
  (await expectStatus(stage().api.get(`/event_orchestrations/services/${service}/active`), 200, "GET active")).active as boolean;
const ruleIds = async (service: string) => (await orchestration(service)).sets.flatMap((s) => s.rules.map((r) => r.id));

test("a changed label is an in-place update that keeps the rule ids the API gave", async () => {
  const { engine } = stage();
  const service = await envOf(stage(), "ids").service();
  const declared = (label: string) => ({
    service,
    sets: [
      { id: "start", rules: [{ label, conditions: [{ expression: "event.severity matches 'critical'" }], actions: { routeTo: "triage" } }] },
      { id: "triage", rules: [{ label: "p1", conditions: [], actions: { priority: "P1" } }] },
    ],
  });
  const made = await engine.create("ServiceOrchestration", "orch", declared("critical to triage"));
  const before = await ruleIds(service);
  expect(before).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/), expect.stringMatching(/^[0-9a-f]{8}$/)]);
  const plan = await engine.plan(made, declared("critical events to triage"));
  expect(plan.diff).toMatchObject({ changes: true, replaces: [] });
  const updated = await engine.update(made, plan);
  expect((await orchestration(service)).sets[0].rules[0].label).toBe("critical events to triage");
  expect(await ruleIds(service)).toEqual(before);
  expect((await engine.plan((await engine.refresh(updated))!, declared("critical events to triage"))).diff).toMatchObject({ changes: false });
});

test("a preview names the service whose events would bypass the orchestration, and stays quiet once they go through it", async () => {
  const { engine } = stage();
  const service = await envOf(stage(), "bypass").service();
  const { name } = (await expectStatus(stage().api.get(`/services/${service}`), 200, "GET service")).service;
  const declared = (active?: boolean) => ({
    service,
    ...(active === undefined ? {} : { active }),
    sets: [{ id: "start", rules: [{ label: "all", actions: { annotate: "seen" } }] }],
  });
  const bypassWarnings = () =>
    stage().warnings.filter((w) => w.includes(`the orchestration of service "${name}" (${service}) is not active: events bypass it`));
  // A new service's orchestration is active: declared without `active`, nothing to warn of.
  const made = await engine.create("ServiceOrchestration", "bypass", declared());
  expect(made.outs.active).toBe(true);
  expect(bypassWarnings()).toEqual([]);
  // Switched off in the program: the plan warns, and the write makes it so.
  const off = await engine.update(made, await engine.plan(made, declared(false)));
  expect(await active(service)).toBe(false);
  expect(bypassWarnings()).toEqual([expect.stringMatching(/\(active: false\); set active: true$/)]);
  // Then left out of the program: the live /active is read, and still off.
  await engine.plan(off, declared());
  expect(bypassWarnings()).toHaveLength(2);
  expect(bypassWarnings()[1]).toMatch(/\(active is unset, and the orchestration is not active today\); set active: true$/);
  // Switched on again: no more warnings.
  const on = await engine.update(off, await engine.plan(off, declared(true)));
  await engine.plan(on, declared());
  expect(bypassWarnings()).toHaveLength(2);
  expect(await active(service)).toBe(true);
});

describe("from event rules to an orchestration", () => {
  /** What the conversion makes of the two rules below (emulator/README.md, "What the rules conversion makes"). */
  const CONVERTED = [
    { label: "Converted event rule 1", conditions: [{ expression: "event.summary matches part 'db'" }], actions: { severity: "critical" } },
    { label: "Converted event rule 2", conditions: [{ expression: "event.source matches 'web'" }], actions: { suppress: true } },
  ];
  let legacy: string;
  let rules: Deployed[];
  let conversion: Deployed;
  let orch: Deployed;

  test("convert, then orchestrate: the orchestration takes over what the conversion made, with no change to it", async () => {
    const { engine } = stage();
    legacy = await envOf(stage(), "legacy").service();
    const db = { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] };
    const web = { operator: "and", subconditions: [{ operator: "equals", parameters: { path: "payload.source", value: "web" } }] };
    rules = [
      await engine.create("ServiceEventRule", "db", { service: legacy, position: 0, conditions: db, actions: { severity: { value: "critical" } } }),
      await engine.create("ServiceEventRule", "web", { service: legacy, position: 1, conditions: web, actions: { suppress: { value: true } } }),
    ];
    // Its orchestration is active already (event rules are gone): switched off by hand, so the conversion is seen to switch it on.
    expect(await active(legacy)).toBe(true);
    await expectStatus(stage().api.put(`/event_orchestrations/services/${legacy}/active`, { active: false }), 200, "PUT active");
    // The order `dependsOn` gives: the rules, then the conversion, then the orchestration.
    conversion = await engine.create("ServiceEventRulesConversion", "convert", { service: legacy });
    const declared = { service: legacy, active: true, sets: [{ id: "start", rules: CONVERTED }] };
    orch = await engine.create("ServiceOrchestration", "legacy-orch", declared);
    expect((await orchestration(legacy)).sets).toEqual([{ id: "start", rules: CONVERTED.map((r) => ({ id: expect.any(String), ...r, disabled: false })) }]);
    expect(await active(legacy)).toBe(true);
    // The audit trail: the conversion changed the orchestration; the takeover wrote the same rules, ids included.
    const { records } = await expectStatus(stage().api.get(`/services/${legacy}/audit/records`), 200, "GET audit records");
    const names = records.flatMap((r: { details: { fields: { name: string }[] } }) => r.details.fields.map((f) => f.name));
    expect(names).toContain("event_rules");
    expect(names).not.toContain("event_orchestration");
    expect((await engine.plan((await engine.refresh(orch))!, declared)).diff).toMatchObject({ changes: false });
  });

  test("then the rules and the conversion leave the program: only the state forgets them, with warnings; the orchestration stays", async () => {
    const before = await orchestration(legacy);
    for (const r of [...rules, conversion]) await stage().engine.delete(r);
    const warnings = stage().warnings.filter((w) => w.includes(legacy));
    expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining("was NOT deleted"), expect.stringContaining("conversion of service")]));
    expect((await orchestration(legacy)).sets).toEqual(before.sets);
    expect(await active(legacy)).toBe(true);
    expect((await stage().engine.refresh(orch))?.outs).toMatchObject({ active: true });
  });
});

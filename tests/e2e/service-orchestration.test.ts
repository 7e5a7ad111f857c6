// pagerduty:ServiceOrchestration end to end: real Pulumi CLI, packed package, emulator process. A
// hand-made service's orchestration taken over, updated, drift put back and emptied on destroy;
// and a service moved from event rules to an orchestration through the conversion (docs/orchestrations.md).
import { createService, DRIFT } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";
import { warningsOf } from "./stack";

jest.setTimeout(15 * 60_000);

interface Shape {
  /** The label of the hand-made service's first rule. */
  label?: string;
  /** Where that rule routes to. */
  routeTo?: string;
  /** The legacy service: "rules" (event rules only), "convert" (+ conversion and orchestration), "orchestration" (the orchestration alone). */
  legacy?: "rules" | "convert" | "orchestration";
}

/** The orchestration the conversion makes of the legacy rules (emulator/README.md, "What the rules conversion makes"). */
const CONVERTED = `[
  { label: "Converted event rule 1", conditions: [{ expression: "event.summary matches part 'db'" }], actions: { severity: "critical" } },
  { label: "Converted event rule 2", conditions: [{ expression: "event.source matches 'web'" }], actions: { suppress: true } },
]`;

const program = (pre: string, s: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
new pagerduty.ServiceOrchestration("orch", {
  service: ${JSON.stringify(pre)},
  active: true,
  sets: [
    { id: "start", rules: [{ label: ${JSON.stringify(s.label ?? "critical to triage")}, conditions: [{ expression: "event.severity matches 'critical'" }], actions: { routeTo: ${JSON.stringify(s.routeTo ?? "triage")} } }] },
    { id: "triage", rules: [{ label: "p1", conditions: [], actions: { priority: "P1", annotate: "see the runbook" } }] },
  ],
  catchAll: { actions: { severity: "warning" } },
});
const legacy = new pagerduty.Service("legacy", { name: "Orchestration legacy", escalationPolicy });
export const legacyId = legacy.id;
${
  s.legacy === "orchestration"
    ? ""
    : `const rules = [
  new pagerduty.ServiceEventRule("db", { service: legacy.id, position: 0,
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
    actions: { severity: { value: "critical" } } }),
  new pagerduty.ServiceEventRule("web", { service: legacy.id, position: 1,
    conditions: { operator: "and", subconditions: [{ operator: "equals", parameters: { path: "payload.source", value: "web" } }] },
    actions: { suppress: { value: true } } }),
];`
}
${s.legacy === "convert" ? `const conversion = new pagerduty.ServiceEventRulesConversion("convert", { service: legacy.id }, { dependsOn: rules });` : ""}
${
  s.legacy && s.legacy !== "rules"
    ? `new pagerduty.ServiceOrchestration("legacy-orch", { service: legacy.id, active: true, sets: [{ id: "start", rules: ${CONVERTED} }] }${
        s.legacy === "convert" ? ", { dependsOn: [conversion] }" : ""
      });`
    : ""
}
`;

let emu: RunningEmulator;
let project: PulumiProject;
let pre: string;

interface ApiRule {
  id: string;
  label?: string;
  conditions: { expression: string }[];
  actions: Record<string, unknown>;
}
const orchestration = async (service: string) =>
  (await emu.api("GET", `/event_orchestrations/services/${service}`)).body.orchestration_path as {
    sets: { id: string; rules: ApiRule[] }[];
    catch_all: unknown;
  };
const active = async (service: string) => (await emu.api("GET", `/event_orchestrations/services/${service}/active`)).body.active as boolean;
const ruleIds = async (service: string) => (await orchestration(service)).sets.flatMap((s) => s.rules.map((r) => r.id));
const shape = (s: Shape) => program(pre, { legacy: "rules", ...s });

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // Starting state: a service someone set up by hand, with a rule of their own in its orchestration.
  pre = await createService(emu, "Orchestration pre-existing");
  const hand = { orchestration_path: { sets: [{ id: "start", rules: [{ label: "by hand", conditions: [], actions: { suppress: true } }] }] } };
  expect((await emu.api("PUT", `/event_orchestrations/services/${pre}`, hand)).status).toBe(200);
  project = PulumiProject.create("orchestration", shape({}), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("up takes the service's orchestration over: the declared sets, catch_all and active, rule ids from the API", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const o = await orchestration(pre);
  expect(o.sets.map((s) => [s.id, s.rules.map((r) => r.label)])).toEqual([
    ["start", ["critical to triage"]],
    ["triage", ["p1"]],
  ]);
  expect(o.sets[0].rules[0].actions).toEqual({ route_to: "triage" });
  expect(o.catch_all).toEqual({ actions: { severity: "warning" } });
  expect(await active(pre)).toBe(true);
  expect(await ruleIds(pre)).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/), expect.stringMatching(/^[0-9a-f]{8}$/)]);
});

test("no changes afterwards, also after a refresh: the API's rule ids are no diff", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["refresh", "--yes", "--skip-preview"]);
  project.must(["preview", "--expect-no-changes"]);
  project.must(DRIFT);
});

test("a routeTo naming a set that does not exist fails the preview, naming the field", () => {
  project.setProgram(shape({ routeTo: "nowhere" }));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('sets[0].rules[0].actions.routeTo: names set "nowhere", which `sets` does not have (sets: start, triage)');
});

test("a changed label is an in-place update that keeps the rule ids", async () => {
  const before = await ruleIds(pre);
  project.setProgram(shape({ label: "critical events to triage" }));
  expect(project.stepsOf("orch")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await orchestration(pre)).sets[0].rules[0].label).toBe("critical events to triage");
  expect(await ruleIds(pre)).toEqual(before);
  project.must(["preview", "--expect-no-changes"]);
});

test("a rule changed by hand is drift (exit 7), and up --refresh puts it back", async () => {
  const o = await orchestration(pre);
  o.sets[1].rules[0].conditions = [{ expression: "event.source matches 'anything'" }];
  expect((await emu.api("PUT", `/event_orchestrations/services/${pre}`, { orchestration_path: o })).status).toBe(200);
  const drift = project.run(DRIFT);
  console.log(`orchestration e2e: ${DRIFT.join(" ")} exited ${drift.code} on a rule changed by hand`);
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/pagerduty:ServiceOrchestration +orch +(update|refresh)/);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await orchestration(pre)).sets[1].rules[0].conditions).toEqual([]);
  project.must(DRIFT);
});

test("convert, then orchestrate in one up: the orchestration takes over what the conversion made, with no change to it", async () => {
  const legacy = project.outputs().legacyId as string;
  expect(await active(legacy)).toBe(false);
  project.setProgram(shape({ label: "critical events to triage", legacy: "convert" }));
  project.must(["up", "--yes", "--skip-preview"]);
  const o = await orchestration(legacy);
  expect(o.sets).toEqual([
    {
      id: "start",
      rules: [
        {
          id: expect.any(String),
          label: "Converted event rule 1",
          conditions: [{ expression: "event.summary matches part 'db'" }],
          actions: { severity: "critical" },
          disabled: false,
        },
        {
          id: expect.any(String),
          label: "Converted event rule 2",
          conditions: [{ expression: "event.source matches 'web'" }],
          actions: { suppress: true },
          disabled: false,
        },
      ],
    },
  ]);
  expect(await active(legacy)).toBe(true);
  // The audit trail: the conversion changed the orchestration; the takeover's PUT wrote the same rules, ids included.
  const records = (await emu.api("GET", `/services/${legacy}/audit/records`)).body.records as { details: { fields: { name: string }[] } }[];
  const names = records.flatMap((r) => r.details.fields.map((f) => f.name));
  expect(names).toContain("event_rules");
  expect(names).not.toContain("event_orchestration");
  project.must(["preview", "--expect-no-changes"]);
  project.must(DRIFT);
});

test("then the event rules and the conversion leave the program: only the state forgets them; the orchestration stays", async () => {
  const legacy = project.outputs().legacyId as string;
  const before = await orchestration(legacy);
  project.setProgram(shape({ label: "critical events to triage", legacy: "orchestration" }));
  const warnings = warningsOf(project, ["up", "--yes", "--skip-preview"]);
  expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining("was NOT deleted"), expect.stringContaining("conversion of service")]));
  expect((await orchestration(legacy)).sets).toEqual(before.sets);
  expect(await active(legacy)).toBe(true);
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy puts the hand-made service's orchestration back to empty", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  const o = await orchestration(pre);
  expect(o.sets).toEqual([{ id: "start", rules: [] }]);
  expect(o.catch_all).toEqual({ actions: {} });
});

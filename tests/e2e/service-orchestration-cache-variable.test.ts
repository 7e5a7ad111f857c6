// pagerduty:ServiceOrchestrationCacheVariable end to end: real Pulumi CLI, packed package, emulator
// process. A variable and the service orchestration whose rule reads it (`cache_var.<name>`) in one
// program: up, no changes after a refresh, a rename and a new ttl in place, a move to another service
// (replace), a hand change put back, destroy.
import { refreshPreview } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

interface Shape {
  name: string;
  ttl: number;
  /** Which service holds the variable and the orchestration: the first or the second. */
  on: "a" | "b";
  /** A configuration written as-is (for the preview check). */
  configuration?: string;
}

const program = (s: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const a = new pagerduty.Service("a", { name: "Cache variable e2e A", escalationPolicy });
const b = new pagerduty.Service("b", { name: "Cache variable e2e B", escalationPolicy });
const service = ${s.on}.id;
const counter = new pagerduty.ServiceOrchestrationCacheVariable("counter", {
  service,
  name: ${JSON.stringify(s.name)},
  conditions: [{ expression: "event.summary matches part 'database'" }],
  configuration: ${s.configuration ?? `{ type: "trigger_event_count", ttlSeconds: ${s.ttl} }`},
});
new pagerduty.ServiceOrchestration("orch", {
  service,
  sets: [{ id: "start", rules: [{
    label: "many db triggers",
    conditions: [{ expression: pulumi.interpolate\`cache_var.\${counter.name} >= 5\` }],
    actions: { severity: "critical" },
  }] }],
}, { dependsOn: [counter] });
export const a_ = a.id;
export const b_ = b.id;
export const variableId = counter.id;
export const dataEndpoint = counter.dataEndpoint;
`;

let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("cachevar", program({ name: "db_triggers", ttl: 60, on: "a" }), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const variable = (service: string, id: string) => emu.api("GET", `/event_orchestrations/services/${service}/cache_variables/${id}`);
const firstRule = async (service: string) => (await emu.api("GET", `/event_orchestrations/services/${service}`)).body.orchestration_path.sets[0].rules[0];

test("up creates the variable and the orchestration rule that reads it", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const { a_, variableId } = project.outputs();
  expect((await variable(a_, variableId)).body.cache_variable).toMatchObject({
    name: "db_triggers",
    configuration: { type: "trigger_event_count", ttl_seconds: 60 },
    conditions: [{ expression: "event.summary matches part 'database'" }],
  });
  expect((await firstRule(a_)).conditions).toEqual([{ expression: "cache_var.db_triggers >= 5" }]);
});

test("no changes after a refresh", () => {
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("check names the configuration field that does not fit the type", () => {
  project.setProgram(program({ name: "db_triggers", ttl: 60, on: "a", configuration: `{ type: "trigger_event_count", ttlSeconds: 60, dataType: "string" }` }));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('configuration.dataType: does not apply to type "trigger_event_count"');
});

test("a rename and a new ttl update the variable in place (same id), and the rule follows the name", async () => {
  const { a_, variableId } = project.outputs();
  project.setProgram(program({ name: "database_triggers", ttl: 120, on: "a" }));
  expect(project.stepsOf("counter")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(project.outputs().variableId).toBe(variableId);
  expect((await variable(a_, variableId)).body.cache_variable).toMatchObject({ name: "database_triggers", configuration: { ttl_seconds: 120 } });
  expect((await firstRule(a_)).conditions).toEqual([{ expression: "cache_var.database_triggers >= 5" }]);
  project.must(["preview", "--expect-no-changes"]);
});

test("a hand change is drift (exit 7) and up puts it back", async () => {
  const { a_, variableId } = project.outputs();
  const put = await emu.api("PUT", `/event_orchestrations/services/${a_}/cache_variables/${variableId}`, {
    cache_variable: { configuration: { type: "recent_value", source: "event.summary", regex: "(.*)" } },
  });
  expect(put.status).toBe(200);
  expect(refreshPreview(project).code).toBe(7);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await variable(a_, variableId)).body.cache_variable.configuration).toEqual({ type: "trigger_event_count", ttl_seconds: 120 });
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("moving it to another service replaces it", async () => {
  const { a_, b_, variableId } = project.outputs();
  project.setProgram(program({ name: "database_triggers", ttl: 120, on: "b" }));
  expect(project.stepsOf("counter")).toContain("replace");
  project.must(["up", "--yes", "--skip-preview"]);
  const moved = project.outputs().variableId;
  expect(moved).not.toBe(variableId);
  expect((await variable(a_, variableId)).status).toBe(404);
  expect((await variable(b_, moved)).body.cache_variable).toMatchObject({ name: "database_triggers" });
  expect((await firstRule(b_)).conditions).toEqual([{ expression: "cache_var.database_triggers >= 5" }]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("destroy deletes the variable", async () => {
  const { b_, variableId } = project.outputs();
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await variable(b_, variableId)).status).toBe(404);
});

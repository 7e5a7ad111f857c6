// pagerduty:ServiceEventRule end to end (with the rules conversion at the end): real Pulumi CLI ->
// dynamic provider -> emulator process.
// e2e: runs alone (it counts the requests of refresh bursts, which a neighbour's load spreads out)
import { refreshPreview } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";
import { resourceOf, serviceIdOf, warningsOf } from "./stack";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceEventRule";

interface Shape {
  pos: { a: number; b: number; c: number };
  bDisabled?: boolean;
  bActions?: string;
  bOnOther?: boolean;
  aDisabled?: boolean;
  adoptId?: string;
  convert?: boolean;
}
const start: Shape = { pos: { a: 0, b: 1, c: 2 } };

// Declared out of order on purpose: the engine creates them in parallel anyway.
const program = (s: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("svc", { name: "Checkout", escalationPolicy });
const other = new pagerduty.Service("other", { name: "Search", escalationPolicy });
const c = new pagerduty.ServiceEventRule("c", {
  service: svc.id, position: ${s.pos.c},
  conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "payload.source" } }] },
  actions: { severity: { value: "critical" } },
});
const b = new pagerduty.ServiceEventRule("b", {
  service: ${s.bOnOther ? "other" : "svc"}.id, position: ${s.pos.b}, disabled: ${s.bDisabled ?? false},
  actions: ${s.bActions ?? `{ severity: { value: "warning" }, suppress: { value: true, thresholdValue: 3, thresholdTimeUnit: "minutes", thresholdTimeAmount: 5 } }`},
});
const a = new pagerduty.ServiceEventRule("a", {
  service: svc.id, position: ${s.pos.a}, disabled: ${s.aDisabled ?? false},
  conditions: { operator: "or", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
  timeFrame: { scheduledWeekly: { startTime: 3600000, duration: 7200000, timezone: "UTC", weekdays: [1, 2, 3] } },
  variables: [{ type: "regex", name: "host", parameters: { value: "host=(\\\\w+)", path: "payload.source" } }],
  actions: { annotate: { value: "db alert" }, extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }] },
});
const rules: pulumi.Resource[] = [a, b, c];
${s.adoptId ? `rules.push(new pagerduty.ServiceEventRule("adopted", { service: svc.id, adoptId: ${JSON.stringify(s.adoptId)}, position: 9, disabled: true }));` : ""}
${s.convert ? `new pagerduty.ServiceEventRulesConversion("convert", { service: svc.id }, { dependsOn: rules });` : ""}
`;

let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("rules", program(start), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const state = (name: string) => resourceOf(project, TYPE, name);
const serviceId = (name: string) => serviceIdOf(project, name);
/** Rule names of the stack in the service's live order. */
async function liveOrder(service = "svc"): Promise<string[]> {
  const rules: any[] = (await emu.api("GET", `/services/${serviceId(service)}/rules?limit=100`)).body.rules;
  const names = new Map(
    project
      .resources()
      .filter((r) => r.type === TYPE)
      .map((r) => [r.id, r.urn.split("::").pop()!]),
  );
  return rules.map((r) => names.get(r.id) ?? `unmanaged:${r.id}`);
}
const stepsFor = (name: string, steps: Array<{ op: string; urn: string }>) => steps.filter((s) => s.urn.endsWith(`::${name}`)).map((s) => s.op);

test("one up creates several rules at the requested positions", async () => {
  const t0 = Date.now();
  project.must(["up", "--yes", "--skip-preview"]);
  console.log(`rules e2e: first up ${Date.now() - t0} ms`);
  expect(await liveOrder()).toEqual(["a", "b", "c"]);
  expect(["a", "b", "c"].map((n) => state(n)!.outputs.position)).toEqual([0, 1, 2]);
  const a = (await emu.api("GET", `/services/${serviceId("svc")}/rules/${state("a")!.id}`)).body.rule;
  expect(a).toMatchObject({
    time_frame: { scheduled_weekly: { start_time: 3600000, duration: 7200000, timezone: "UTC", weekdays: [1, 2, 3] } },
    variables: [{ type: "regex", name: "host", parameters: { value: "host=(\\w+)", path: "payload.source" } }],
    actions: { annotate: { value: "db alert" }, extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }] },
  });
});

test("a second preview shows no changes, also after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("disabled, actions (one removed) and positions update in place; the new order holds", async () => {
  const shape: Shape = { pos: { a: 2, b: 0, c: 1 }, bDisabled: true, bActions: `{ severity: { value: "error" } }` };
  project.setProgram(program(shape));
  const steps = project.previewSteps();
  for (const n of ["a", "b", "c"]) expect(stepsFor(n, steps)).toEqual(["update"]);
  const ids = ["a", "b", "c"].map((n) => state(n)!.id);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(["a", "b", "c"].map((n) => state(n)!.id)).toEqual(ids);
  expect(await liveOrder()).toEqual(["b", "c", "a"]);
  const b = (await emu.api("GET", `/services/${serviceId("svc")}/rules/${ids[1]}`)).body.rule;
  expect(b.disabled).toBe(true);
  expect(b.actions.severity).toEqual({ value: "error" });
  expect(b.actions.suppress ?? null).toBeNull();
  project.must(["preview", "--expect-no-changes"]);
});

test("moving a rule to another service replaces it", async () => {
  // b leaves svc, so the program closes the gap it leaves.
  project.setProgram(program({ pos: { a: 1, b: 0, c: 0 }, bDisabled: true, bActions: `{ severity: { value: "error" } }`, bOnOther: true }));
  const steps = project.previewSteps();
  expect(stepsFor("b", steps)).toEqual(expect.arrayContaining([expect.stringMatching(/^(replace|create-replacement)$/)]));
  expect(stepsFor("b", steps)).not.toContain("update");
  const old = state("b")!;
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("b")!.id).not.toBe(old.id);
  expect(await liveOrder()).toEqual(["c", "a"]);
  expect(await liveOrder("other")).toEqual(["b"]);
  project.must(["preview", "--expect-no-changes"]);
});

const moved: Shape = { pos: { a: 1, b: 0, c: 0 }, bDisabled: true, bActions: `{ severity: { value: "error" } }`, bOnOther: true };

test("an out-of-band change is drift for refresh, and up puts it back", async () => {
  const a = state("a")!;
  const rulePath = `/services/${serviceId("svc")}/rules/${a.id}`;
  expect((await emu.api("PUT", rulePath, { rule_id: a.id, rule: { disabled: true } })).status).toBe(200);
  const drift = refreshPreview(project);
  console.log(`rules e2e: refresh --preview-only --expect-no-changes exited ${drift.code} on drift`);
  expect(drift.code).toBe(7); // --expect-no-changes with changes
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await emu.api("GET", rulePath)).body.rule.disabled).toBe(false);
  expect(refreshPreview(project).code).toBe(0);
});

test("a rule deleted by hand is dropped by refresh; up recreates it at its position", async () => {
  const c = state("c")!;
  expect((await emu.api("DELETE", `/services/${serviceId("svc")}/rules/${c.id}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(state("c")).toBeUndefined();
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("c")!.id).not.toBe(c.id);
  expect(await liveOrder()).toEqual(["c", "a"]);
  project.must(["preview", "--expect-no-changes"]);
});

test("adoptId takes over an existing rule", async () => {
  const made = await emu.api("POST", `/services/${serviceId("svc")}/rules`, { rule: { actions: { annotate: { value: "by hand" } } } });
  expect(made.status).toBe(201);
  project.setProgram(program({ ...moved, adoptId: made.body.rule.id }));
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("adopted")!.id).toBe(made.body.rule.id);
  expect(await liveOrder()).toEqual(["c", "a", "adopted"]);
  expect((await emu.api("GET", `/services/${serviceId("svc")}/rules/${made.body.rule.id}`)).body.rule.disabled).toBe(true);
  expect(state("adopted")!.outputs.position).toBe(9); // past the end = last, no perpetual diff
  project.must(["preview", "--expect-no-changes"]);
});

test("after the rules are converted, a rule write fails with a message naming the conversion", async () => {
  const withConversion: Shape = { ...moved, adoptId: state("adopted")!.id, convert: true };
  project.setProgram(program(withConversion));
  project.must(["up", "--yes", "--skip-preview"]);
  project.must(["preview", "--expect-no-changes"]);
  project.setProgram(program({ ...withConversion, aDisabled: true }));
  const failed = project.run(["up", "--yes", "--skip-preview"]);
  expect(failed.code).not.toBe(0);
  expect(failed.stdout + failed.stderr).toMatch(/event rules of service \w+ are read-only: they were converted to event orchestration rules .*rules\/convert/);
  project.setProgram(program(withConversion));
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy warns (as Pulumi warnings) about the converted rules and the conversion, and leaves the emulator empty", async () => {
  const warnings = warningsOf(project, ["destroy", "--yes", "--skip-preview"]);
  expect(warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/event rule \S+ of service \w+ was NOT deleted/),
      expect.stringMatching(/the conversion of service \w+'s event rules .* cannot be undone/),
    ]),
  );
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
  expect(project.resources()).toEqual([]);
});

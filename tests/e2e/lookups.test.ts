// The get* lookups end to end: real Pulumi CLI, packed package, emulator process. They must be
// fresh on preview and up, show no change while the data is unchanged, and never write anything.
import { createService, setAiops, setFieldValues } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

const LOOKUP = "pulumi-nodejs:dynamic/pagerduty:Lookup";
const TARGET = "Lookups target";

const program = (name = TARGET) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const config = new pulumi.Config();
const escalationPolicy = config.require("escalationPolicyId");
const pre = config.require("preId");
const svc = pagerduty.getService({ name: ${JSON.stringify(name)} });
const rules = pagerduty.getServiceEventRules({ service: pre });
const enablements = pagerduty.getServiceEnablements({ service: pre });
const fields = pagerduty.getServiceCustomFieldValues({ service: pre });
const audit = pagerduty.getServiceAuditRecords({ service: pre, limit: 2 });
const own = new pagerduty.Service("own", { name: "Lookups own", escalationPolicy, description: "mine" });
// An argument known only after deployment: the lookup needs an explicit name.
const ownLookup = pagerduty.getService({ name: own.name }, { name: "own-by-name" });
export const service = svc;
export const ruleIds = rules.rules.apply((rs) => rs.map((r) => r.id));
export const rulePositions = rules.rules.apply((rs) => rs.map((r) => r.position));
export const aiops = enablements.enablements.apply((es) => es.find((e) => e.feature === "aiops"));
export const values = fields.values;
export const auditIds = audit.records.apply((rs) => rs.map((r) => r.id));
export const ownDescription = ownLookup.description;
export const ownId = own.id;
`;

let emu: RunningEmulator;
let project: PulumiProject;
let pre: string;
let ruleIds: string[];

/** Every audit record id of the service, newest first, read directly with cursor pagination. */
async function auditIds(service: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const r: { body: { records: Array<{ id: string }>; next_cursor: string | null } } = await emu.api("GET", `/services/${service}/audit/records?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    ids.push(...r.body.records.map((x) => x.id));
    cursor = r.body.next_cursor;
  } while (cursor);
  return ids;
}

beforeAll(async () => {
  emu = await startEmulatorProcess();
  pre = await createService(emu, TARGET, { description: "before" });
  await setFieldValues(emu, pre, { tier: "gold", pci: true });
  await setAiops(emu, pre, false);
  ruleIds = [];
  for (const summary of ["disk", "cpu"]) {
    const r = await emu.api("POST", `/services/${pre}/rules`, {
      rule: { conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: summary } }] }, actions: { annotate: { value: summary } } },
    });
    expect(r.status).toBe(201);
    ruleIds.push(r.body.rule.id);
  }
  project = PulumiProject.create("lookups", program(), emu, { preId: pre });
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("up resolves every lookup, with the audit records read across pages", async () => {
  const before = await auditIds(pre);
  expect(before.length).toBeGreaterThan(2); // more than one page of limit 2
  project.must(["up", "--yes", "--skip-preview"]);
  const out = project.outputs();
  expect(out.service).toMatchObject({ id: pre, name: TARGET, description: "before", escalationPolicy: emu.escalationPolicyId, status: "active" });
  expect(out.ruleIds).toEqual(ruleIds);
  expect(out.rulePositions).toEqual([0, 1]);
  expect(out.aiops).toMatchObject({ feature: "aiops", enabled: false });
  expect(out.values).toEqual({ tier: "gold", pci: true, runbook: null });
  expect(out.auditIds).toEqual(before);
  expect(out.ownDescription).toBe("mine");
  // Names derived from the arguments, or given.
  const names = project.resources().filter((r) => r.type === LOOKUP).map((r) => r.urn.split("::").pop());
  const audit = names.find((n) => n!.startsWith("getServiceAuditRecords-"));
  expect(audit).toMatch(new RegExp(`^getServiceAuditRecords-${pre}-[0-9a-f]{8}$`));
  expect(names.sort()).toEqual(
    [`getService-${TARGET}`, `getServiceEventRules-${pre}`, `getServiceEnablements-${pre}`, `getServiceCustomFieldValues-${pre}`, "own-by-name", audit].sort(),
  );
  // The lookups wrote nothing: the service has the same audit trail as before.
  expect(await auditIds(pre)).toEqual(before);
});

test("unchanged data: no changes on preview", () => {
  project.must(["preview", "--expect-no-changes"]);
});

test("changed data: preview shows updates of exactly the affected lookups; refresh leaves lookups alone; up refreshes them", async () => {
  expect((await emu.api("PUT", `/services/${pre}`, { service: { type: "service", description: "after" } })).status).toBe(200);
  const steps = project.previewSteps();
  // The description changed, and the change added an audit record; rules, fields and enablements did not change.
  const changed = steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`).sort();
  expect(changed).toEqual([`update getService-${TARGET}`, expect.stringMatching(new RegExp(`^update getServiceAuditRecords-${pre}-`))]);
  expect(steps.every((s) => s.type === LOOKUP)).toBe(true);
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(project.outputs().service.description).toBe("after");
  expect(project.outputs().auditIds).toEqual(await auditIds(pre));
  project.must(["preview", "--expect-no-changes"]);
});

test("getService for a name that does not exist fails with the name", () => {
  project.setProgram(program("No such service"));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  const line = (r.stdout + r.stderr).split("\n").find((l) => l.includes("no service is named"));
  console.log(`lookups e2e: a missing service as printed by pulumi preview:\n${line}`);
  expect(line).toContain(`resource 'getService-No such service' has a problem: args.name: no service is named "No such service"`);
  project.setProgram(program());
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy removes only the program's own service; the looked-up one is untouched", async () => {
  const trail = await auditIds(pre);
  const own = project.outputs().ownId;
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${own}`)).status).toBe(404);
  const svc = (await emu.api("GET", `/services/${pre}`)).body.service;
  expect(svc.description).toBe("after");
  expect(await auditIds(pre)).toEqual(trail);
});

// The get* lookups end to end: real Pulumi CLI, packed package, emulator process. They must be
// fresh on preview and up, show no change while the data is unchanged, and never write anything.
import { createService, setAiops, setFieldValues } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

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

let emu: EmulatorProcess;
let project: PulumiProject;
let pre: string;
let ruleIds: string[];

/** Every audit record id of the service, newest first, read directly with cursor pagination. */
async function auditIds(service: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const r: { body: { records: Array<{ id: string }>; next_cursor: string | null } } = await emu.api(
      "GET",
      `/services/${service}/audit/records?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
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
      rule: {
        conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: summary } }] },
        actions: { annotate: { value: summary } },
      },
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
  const names = project
    .resources()
    .filter((r) => r.type === LOOKUP)
    .map((r) => r.urn.split("::").pop());
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

test("a lookup in an account whose name cannot be one fails the preview naming `account`, as the package's function does", () => {
  project.setProgram(`${program()}\nexport const elsewhere = pagerduty.getService({ name: "x" }, { account: "e u" }).id;\n`);
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('account: must be a letter followed by up to 39 letters, digits, "-" or "_"; got "e u"');
  project.setProgram(program());
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

describe("lookups by name: escalation policy, vendor, priority, business service, alert grouping setting and a service's integration", () => {
  const byName = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const pre = new pulumi.Config().require("preId");
const policy = pagerduty.getEscalationPolicy({ name: "Default" });
const vendor = pagerduty.getVendor({ name: "datadog" });
const p1 = pagerduty.getPriority({ name: "P1" });
const alerts = pagerduty.getServiceIntegration({ service: pre, name: "Alerts" });
const checkout = pagerduty.getBusinessService({ name: "Checkout" });
const grouping = pagerduty.getAlertGroupingSetting({ name: "Grouped by hand" });
const svc = new pagerduty.Service("by-policy", { name: "Lookups by policy", escalationPolicy: policy.id });
new pagerduty.ServiceDependency("checkout-on-svc", { supportingService: { id: svc.id }, dependentService: { id: checkout.id, type: "business_service" } });
const dd = new pagerduty.ServiceIntegration("dd", { service: svc.id, vendor: vendor.id, name: "DD" });
new pagerduty.ServiceEventRule("urgent", {
  service: svc.id,
  conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "down" } }] },
  actions: p1.id.apply((id) => ({ priority: { value: id } })),
});
export const policyId = policy.id;
export const vendorId = vendor.id;
export const vendorName = vendor.name;
export const priorityId = p1.id;
export const alerts_ = alerts;
export const serviceId = svc.id;
export const ddType = dd.type;
export const checkout_ = checkout;
export const grouping_ = grouping;
`;
  let named: PulumiProject;
  let alertsId: string;
  let business: string;
  let grouped: string;
  let groupingId: string;

  beforeAll(async () => {
    // Made by hand, as another tool would: this package manages neither business services nor, here, the setting.
    const made = await emu.api("POST", "/business_services", { business_service: { name: "Checkout", description: "Pay" } });
    expect(made.status).toBe(200);
    business = made.body.business_service.id;
    grouped = await createService(emu, "Lookups grouped");
    const setting = await emu.api("POST", "/alert_grouping_settings", {
      alert_grouping_setting: { name: "Grouped by hand", type: "time", config: { timeout: 300 }, services: [{ id: grouped }] },
    });
    expect(setting.status).toBe(201);
    groupingId = setting.body.alert_grouping_setting.id;
    const created = await emu.api("POST", `/services/${pre}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "Alerts" } });
    expect(created.status).toBe(201);
    alertsId = created.body.integration.id;
    // App tokens carry only the scopes asked for: these lookups read policies, vendors and priorities.
    named = PulumiProject.create("lookups-by-name", byName, emu, {
      preId: pre,
      "pagerduty:scopes": "services.read services.write custom_fields.read audit_records.read escalation_policies.read vendors.read priorities.read",
    });
  });

  afterAll(() => named?.remove());

  test("up resolves them, and the resources built from them use the looked-up ids", async () => {
    named.must(["up", "--yes", "--skip-preview"]);
    const out = named.outputs();
    const priorities = (await emu.api("GET", "/priorities")).body.priorities;
    expect(out).toMatchObject({ policyId: emu.escalationPolicyId, vendorId: "PAM4FGS", vendorName: "Datadog", priorityId: priorities[0].id });
    expect(out.alerts_).toMatchObject({ id: alertsId, service: pre, name: "Alerts", type: "events_api_v2_inbound_integration" });
    expect(out.checkout_).toEqual({
      id: business,
      type: "business_service",
      name: "Checkout",
      summary: "Checkout",
      description: "Pay",
      pointOfContact: null,
      team: null,
    });
    expect(out.grouping_).toMatchObject({ id: groupingId, name: "Grouped by hand", type: "time", config: { timeout: 300 }, services: [grouped] });
    // The looked-up business service's id made the dependency.
    const deps = (await emu.api("GET", `/service_dependencies/business_services/${business}`)).body.relationships;
    expect(deps.map((d: { supporting_service: { id: string } }) => d.supporting_service.id)).toEqual([out.serviceId]);
    const svc = (await emu.api("GET", `/services/${out.serviceId}?include[]=integrations`)).body.service;
    expect(svc.escalation_policy.id).toBe(emu.escalationPolicyId);
    expect(svc.integrations.map((i: { vendor: { id: string } | null }) => i.vendor?.id)).toEqual(["PAM4FGS"]);
    const rules = (await emu.api("GET", `/services/${out.serviceId}/rules`)).body.rules;
    expect(rules[0].actions.priority).toEqual({ value: priorities[0].id });
    // The integration lookup never puts the routing key (a secret) into state: the harness's secret scan.
    named.must(["preview", "--expect-no-changes"]);
  });

  test("a name that matches nothing fails at preview naming it; a token without the scope is told which one", () => {
    named.setProgram(byName.replace('getPriority({ name: "P1" })', 'getPriority({ name: "P9" })'));
    const r = named.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain(
      'args.name: no priority is named "P9" (names match exactly, including case); there are: "P1", "P2", "P3", "P4", "P5"',
    );
    named.setProgram(byName.replace('getBusinessService({ name: "Checkout" })', 'getBusinessService({ name: "checkout" })'));
    const miss = named.run(["preview"]);
    expect(miss.code).not.toBe(0);
    expect(miss.stdout + miss.stderr).toContain(
      'args.name: no business service is named "checkout" (names match exactly, including case); there are: "Checkout"',
    );
    named.setProgram(byName);
    named.must(["config", "set", "pagerduty:scopes", "services.read services.write custom_fields.read audit_records.read"]);
    const denied = named.run(["preview"]);
    expect(denied.code).not.toBe(0);
    // Whichever lookup runs first names the scope it lacks and where to add it.
    expect(denied.stdout + denied.stderr).toMatch(
      /lacks \\?"(escalation_policies|vendors|priorities)\.read\\?".*add the scope to the app or to \\?"pagerduty:scopes\\?"/,
    );
  });

  test("destroy removes what the program made and nothing it looked up", async () => {
    named.must([
      "config",
      "set",
      "pagerduty:scopes",
      "services.read services.write custom_fields.read audit_records.read escalation_policies.read vendors.read priorities.read",
    ]);
    const id = named.outputs().serviceId;
    named.must(["destroy", "--yes", "--skip-preview"]);
    expect((await emu.api("GET", `/services/${id}`)).status).toBe(404);
    expect((await emu.api("GET", `/services/${pre}/integrations/${alertsId}`)).status).toBe(200);
    expect((await emu.api("GET", `/business_services/${business}`)).status).toBe(200);
    expect((await emu.api("GET", `/alert_grouping_settings/${groupingId}`)).body.alert_grouping_setting.services).toEqual([
      expect.objectContaining({ id: grouped }),
    ]);
  });
});

// Busy services end to end: incidents opened through the stack's own integrations (the Events API v2,
// routing key = the integration's `integrationKey`) move the services' `status`, and none of it is
// drift. Real Pulumi CLI -> dynamic provider -> emulator process; events sent as a monitor would.
// The same stack shows what only the real engine does with the provider: the serialized provider it
// writes into state, and the reads of a refresh it runs at once, which one listing answers.
// e2e: runs apart (it counts the requests of a refresh burst, which a busy machine spreads out)
import { request } from "undici";
import { DRIFT, requestCounts } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { resourceOf, serviceIdOf } from "./stack";

jest.setTimeout(15 * 60_000);

const INTEGRATION = "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration";

// Three services, each with an events integration: one will have a triggered incident, one an
// acknowledged one, one is disabled. `legacy` still declares the incident-only alert creation.
const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
for (const [name, status] of [["paging", "active"], ["acked", "active"], ["off", "disabled"]] as const) {
  const svc = new pagerduty.Service(name, { name: "Busy " + name, escalationPolicy, status });
  new pagerduty.ServiceIntegration(name + "-events", { service: svc.id, type: "events_api_v2_inbound_integration", name: "Monitoring" });
}
new pagerduty.Service("legacy", { name: "Busy legacy", escalationPolicy, alertCreation: "create_incidents" });
`;

let emu: EmulatorProcess;
let project: PulumiProject;
/** The routing keys, read from the API (never printed by pulumi; the harness scans for them), to send events with. */
const keys: Record<string, string> = {};

/** What a monitoring tool sends: one Events API v2 event to the emulator's events endpoint. */
async function sendEvent(routingKey: string, action: "trigger" | "acknowledge" | "resolve", dedupKey: string) {
  const event = {
    routing_key: routingKey,
    event_action: action,
    dedup_key: dedupKey,
    ...(action === "trigger" ? { payload: { summary: `disk full on ${dedupKey}`, source: "db-1", severity: "critical" } } : {}),
  };
  const res = await request(emu.eventsUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

const service = async (name: string) => (await emu.api("GET", `/services/${serviceIdOf(project, name)}`)).body.service;
const incidentsOf = async (name: string, statuses = ["triggered", "acknowledged"]) =>
  (await emu.api("GET", `/incidents?service_ids[]=${serviceIdOf(project, name)}&${statuses.map((s) => `statuses[]=${s}`).join("&")}`)).body.incidents;
const servicePuts = async () => (await requestCounts(emu))["PUT /services/:id"] ?? 0;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("busy", program, emu);
  project.must(["up", "--yes", "--skip-preview"]);
  for (const name of ["paging", "acked", "off"]) {
    const integration = resourceOf(project, INTEGRATION, `${name}-events`)!;
    keys[name] = (await emu.api("GET", `/services/${integration.outputs.service}/integrations/${integration.id}`)).body.integration.integration_key;
  }
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("an integration's routing key pages its own service: trigger and acknowledge open incidents there, the disabled service gets none", async () => {
  expect(await sendEvent(keys.paging, "trigger", "paging-disk")).toMatchObject({ status: 202, body: { status: "success", dedup_key: "paging-disk" } });
  expect((await sendEvent(keys.acked, "trigger", "acked-disk")).status).toBe(202);
  expect((await sendEvent(keys.acked, "acknowledge", "acked-disk")).status).toBe(202);
  expect((await sendEvent(keys.off, "trigger", "off-disk")).status).toBe(202);

  expect(await incidentsOf("paging")).toEqual([expect.objectContaining({ status: "triggered", incident_key: "paging-disk" })]);
  expect(await incidentsOf("acked")).toEqual([expect.objectContaining({ status: "acknowledged", incident_key: "acked-disk" })]);
  expect(await incidentsOf("off")).toEqual([]);
  expect(await service("paging")).toMatchObject({ status: "critical", last_incident_timestamp: expect.any(String) });
  expect(await service("acked")).toMatchObject({ status: "warning" });
  expect(await service("off")).toMatchObject({ status: "disabled", last_incident_timestamp: null });
});

test("busy services pass the drift check and a refreshing preview; up --refresh changes nothing and sends no status", async () => {
  expect(project.run(DRIFT).code).toBe(0);
  expect(project.run(["preview", "--refresh", "--expect-no-changes"]).code).toBe(0);
  const before = await servicePuts();
  const up = project.must(["up", "--refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(up.stdout).not.toMatch(/updated/);
  expect(await servicePuts()).toBe(before);
  // The state reports what PagerDuty computes; the inputs keep what the program means (enabled).
  const paging = resourceOf(project, "pulumi-nodejs:dynamic/pagerduty:Service", "paging")!;
  expect(paging.outputs.status).toBe("critical");
  expect(paging.inputs.status).toBe("active");
  expect((await service("paging")).status).toBe("critical");
});

test("an incident resolved makes its service active again, with no diff either way", async () => {
  const [incident] = await incidentsOf("paging");
  // As a responder resolves it: an account key names the acting user (the seeded admin) in `From`.
  const resolved = await emu.api(
    "PUT",
    `/incidents/${incident.id}`,
    { incident: { type: "incident_reference", status: "resolved" } },
    { from: `admin@${emu.account.subdomain}.example` },
  );
  expect(resolved).toMatchObject({ status: 200, body: { incident: { status: "resolved" } } });
  expect((await sendEvent(keys.acked, "resolve", "acked-disk")).status).toBe(202);
  expect(await incidentsOf("paging")).toEqual([]);
  expect(await incidentsOf("acked", ["resolved"])).toEqual([expect.objectContaining({ incident_key: "acked-disk" })]);
  expect((await service("paging")).status).toBe("active");
  expect((await service("acked")).status).toBe("active");
  expect(project.run(DRIFT).code).toBe(0);
  project.must(["up", "--refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(resourceOf(project, "pulumi-nodejs:dynamic/pagerduty:Service", "paging")!.outputs.status).toBe("active");
});

test("a disabled service enabled by hand is still drift, and up puts it back", async () => {
  const id = serviceIdOf(project, "off");
  expect((await emu.api("PUT", `/services/${id}`, { service: { type: "service", status: "active" } })).status).toBe(200);
  const drift = project.run([...DRIFT, "--diff"]);
  expect(drift.code).toBe(7);
  expect(drift.stdout + drift.stderr).toMatch(/status/);
  const before = await servicePuts();
  project.must(["up", "--refresh", "--yes", "--skip-preview"]);
  expect(await servicePuts()).toBe(before + 1);
  expect((await service("off")).status).toBe("disabled");
  expect(project.run(DRIFT).code).toBe(0);
});

test("the serialized provider in state is one require line under 100 bytes", () => {
  const sizes = project
    .resources()
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r) => Buffer.byteLength(String(r.outputs.__provider)));
  // Printed so CI logs carry the figure.
  console.log(`busy-services e2e: __provider bytes per resource in state: ${sizes.join(", ")}`);
  expect(sizes).toHaveLength(7);
  for (const size of sizes) expect(size).toBeLessThan(100);
});

test("a refresh answers the engine's overlapping reads of services and integrations from one listing, and still sees drift", async () => {
  const reads = async () => {
    const n = await requestCounts(emu);
    return { list: n["GET /services"] ?? 0, one: (n["GET /services/:id"] ?? 0) + (n["GET /services/:id/integrations/:integration_id"] ?? 0) };
  };
  // 150 ms per request: the engine's seven reads overlap, as they do on a real network.
  expect((await emu.admin("POST", "/_emulator/faults", { route: "*", latencyMs: 150 })).status).toBeLessThan(300);
  try {
    const before = await reads();
    project.must(["preview", "--refresh", "--expect-no-changes"]);
    const after = await reads();
    // Four services and three integrations: a GET, then one listing page for the reads that overlapped it.
    expect(after.list - before.list).toBe(1);
    expect(after.one - before.one).toBeLessThan(4);

    // What the listing shows is what refresh compares: a service renamed by hand is drift.
    const id = serviceIdOf(project, "acked");
    expect((await emu.api("PUT", `/services/${id}`, { service: { name: "Renamed by hand" } })).status).toBe(200);
    const drift = project.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toMatch(/~ name\s*:\s*"Busy acked" => "Renamed by hand"/);
    expect(drift.stdout).toMatch(/pagerduty:Service: \(update\)/);
    expect((await emu.api("PUT", `/services/${id}`, { service: { name: "Busy acked" } })).status).toBe(200);
  } finally {
    await emu.admin("DELETE", "/_emulator/faults");
  }
});

test('alertCreation "create_incidents": a warning naming the field at preview, and no diff against what the service reports', async () => {
  expect((await service("legacy")).alert_creation).toBe("create_alerts_and_incidents");
  const preview = project.run(["preview", "--expect-no-changes"]);
  expect(preview.code).toBe(0);
  expect(preview.stdout + preview.stderr).toMatch(/service "Busy legacy": alertCreation: "create_incidents" is no longer offered by PagerDuty/);
});

// The walking skeleton end to end: user program -> real Pulumi engine -> dynamic-provider process ->
// HTTP -> emulator, for pagerduty:Service.
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";
import { resourceOf } from "./stack";

jest.setTimeout(15 * 60_000);

const program = (description: string) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("checkout", { name: "Checkout", description: ${JSON.stringify(description)}, escalationPolicy, acknowledgementTimeout: 600 });
new pagerduty.Service("search", { name: "Search", escalationPolicy, autoResolveTimeout: null });
export const checkoutId = svc.id;
export const checkoutUrl = svc.htmlUrl;
`;

let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("skeleton", program("Takes orders"), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const services = async () => (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services;
const serviceUrn = (name: string) => resourceOf(project, "pulumi-nodejs:dynamic/pagerduty:Service", name);

test("up creates both services with server defaults left unmanaged", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const live = await services();
  expect(live.map((s) => s.name).sort()).toEqual(["Checkout", "Search"]);
  const checkout = live.find((s) => s.name === "Checkout");
  expect(checkout.acknowledgement_timeout).toBe(600);
  expect(checkout.auto_resolve_timeout).toBe(14400); // server default, not set by the program
  expect(live.find((s) => s.name === "Search").auto_resolve_timeout).toBeNull();
  const state = serviceUrn("checkout")!;
  expect(state.id).toBe(checkout.id);
  expect(state.outputs.htmlUrl).toBe(checkout.html_url);
  expect(state.outputs.status).toBe("active");
});

test("a second preview shows no changes (no perpetual diff)", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("the serialized provider stays thin", () => {
  const sizes = project
    .resources()
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r) => Buffer.byteLength(String(r.outputs.__provider)));
  // Printed so CI logs carry the figure the issue asks for.
  console.log(`__provider bytes per resource in state: ${sizes.join(", ")}`);
  // Installed under node_modules, each kind's provider is one require line (sdk/providers/).
  for (const size of sizes) expect(size).toBeLessThanOrEqual(400);
});

test("changing description previews exactly one update, then applies it", async () => {
  project.setProgram(program("Takes orders and payments"));
  const steps = project.previewSteps();
  expect(steps).toEqual([expect.objectContaining({ op: "update", type: "pulumi-nodejs:dynamic/pagerduty:Service" })]);
  expect(steps[0].urn).toMatch(/::checkout$/);
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await services()).find((s) => s.name === "Checkout").description).toBe("Takes orders and payments");
  project.must(["preview", "--expect-no-changes"]);
});

test("nested, null and list fields update in place and then show no perpetual diff", async () => {
  const rich = program("Takes orders and payments").replace(
    "acknowledgementTimeout: 600 }",
    `acknowledgementTimeout: 600, status: "disabled", alertCreation: "create_alerts_and_incidents",
      incidentUrgencyRule: { type: "use_support_hours", duringSupportHours: { type: "constant", urgency: "high" }, outsideSupportHours: { type: "constant", urgency: "low" } },
      supportHours: { type: "fixed_time_per_day", timeZone: "Europe/Berlin", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1, 2, 3, 4, 5] },
      scheduledActions: [{ type: "urgency_change", at: { type: "named_time", name: "support_hours_start" }, toUrgency: "high" }],
      alertGroupingParameters: { type: "time", config: { timeout: 15 } },
      autoPauseNotificationsParameters: { enabled: true, timeout: 300 } }`,
  );
  project.setProgram(rich);
  expect(project.previewSteps().map((s) => [s.op, s.urn.split("::").pop()])).toEqual([["update", "checkout"]]);
  project.must(["up", "--yes", "--skip-preview"]);
  const live = (await services()).find((s) => s.name === "Checkout");
  expect(live).toMatchObject({
    status: "disabled",
    support_hours: { time_zone: "Europe/Berlin", days_of_week: [1, 2, 3, 4, 5] },
    alert_grouping_parameters: { type: "time", config: { timeout: 15 } },
  });
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
  project.setProgram(program("Takes orders and payments"));
});

test("an out-of-band change is reported as drift by refresh", async () => {
  const id = serviceUrn("checkout")!.id!;
  expect((await emu.api("PUT", `/services/${id}`, { service: { type: "service", description: "edited by hand" } })).status).toBe(200);
  // Exit code 7 is the CLI's "changes were proposed" under --expect-no-changes.
  const drift = project.run(["refresh", "--preview-only", "--expect-no-changes"]);
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/~ 1 to update/);
  expect(project.run(["preview", "--refresh", "--expect-no-changes"]).code).toBe(7);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await services()).find((s) => s.id === id).description).toBe("Takes orders and payments");
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
});

test("a service deleted out of band is dropped by refresh and recreated by up", async () => {
  const id = serviceUrn("checkout")!.id!;
  expect((await emu.api("DELETE", `/services/${id}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(serviceUrn("checkout")).toBeUndefined();
  project.must(["up", "--yes", "--skip-preview"]);
  const recreated = serviceUrn("checkout")!;
  expect(recreated.id).not.toBe(id); // ids are never reused
  expect((await services()).map((s) => s.name).sort()).toEqual(["Checkout", "Search"]);
});

test("bad input fails at preview, naming the field, and touches nothing", async () => {
  const before = await services();
  project.setProgram(program("Takes orders and payments").replace("acknowledgementTimeout: 600", "acknowledgementTimeout: -5"));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/acknowledgementTimeout/);
  expect(await services()).toEqual(before);
  project.setProgram(program("Takes orders and payments"));
});

test("destroy leaves no services", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect(await services()).toEqual([]);
});

test("the client secret and access tokens appear nowhere in state or CLI output", async () => {
  const haystack = project.stateText() + project.log;
  expect(haystack).not.toContain(emu.oauth.clientSecret);
  // The emulator keeps only token hashes; its access and refresh tokens start with pde_/pdr_.
  const stats = (await emu.admin<{ tokensIssued: Record<string, number> }>("GET", "/_emulator/stats")).body;
  expect(stats.tokensIssued.client_credentials).toBeGreaterThan(0);
  expect(haystack).not.toMatch(/pd[er]_[A-Za-z0-9_-]{8,}/);
  // The secret is in the stack config, encrypted.
  expect(project.must(["config", "get", "pagerduty:clientSecret"]).stdout.trim()).toBe(emu.oauth.clientSecret);
});

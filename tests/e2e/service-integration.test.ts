// pagerduty:ServiceIntegration end to end: real Pulumi CLI -> dynamic provider -> emulator process.
// e2e: runs alone (it counts the requests of refresh bursts, which a neighbour's load spreads out)
import { startDetached } from "./crash-support";
import { refreshPreview } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";
import { resourceOf, serviceIdOf } from "./stack";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration";

interface Shape {
  eventsName?: string;
  eventsType?: string;
  eventsVendor?: string;
  eventsOnOther?: boolean;
  filterMode?: string;
  adoptId?: string;
  /** A fixed inbound address for "mail", and whether it lives on the other service. */
  mailAddress?: string;
  mailOnOther?: boolean;
}

const program = (s: Shape = {}) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("svc", { name: "Checkout", escalationPolicy });
const other = new pagerduty.Service("other", { name: "Search", escalationPolicy });
const events = new pagerduty.ServiceIntegration("events", {
  service: ${s.eventsOnOther ? "other" : "svc"}.id,
  ${s.eventsVendor ? `vendor: ${JSON.stringify(s.eventsVendor)},` : `type: ${JSON.stringify(s.eventsType ?? "events_api_v2_inbound_integration")},`}
  name: ${JSON.stringify(s.eventsName ?? "Alerts")},
});
new pagerduty.ServiceIntegration("mail", {
  service: ${s.mailOnOther ? "other" : "svc"}.id,
  type: "generic_email_inbound_integration",
  name: "Inbox",${s.mailAddress ? `\n  integrationEmail: ${JSON.stringify(s.mailAddress)},` : ""}
  emailIncidentCreation: "on_new_email_subject",
  emailFilterMode: ${JSON.stringify(s.filterMode ?? "or-rules-email")},
  emailFilters: [{ subjectMode: "match", subjectRegex: "^ALERT", bodyMode: "always", fromEmailMode: "always" }],
});
${s.adoptId ? `new pagerduty.ServiceIntegration("adopted", { service: svc.id, type: "events_api_v2_inbound_integration", name: "Adopted", adoptId: ${JSON.stringify(s.adoptId)} });` : ""}
export const routingKey = events.integrationKey;
`;

let emu: RunningEmulator;
let project: PulumiProject;
/** Every integration key the emulator handed out during the test, for the secret scan. */
const keys = new Set<string>();

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("integration", program(), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const state = (name: string) => resourceOf(project, TYPE, name);
const serviceId = (name: string) => serviceIdOf(project, name);
async function live(name: string) {
  const r = state(name)!;
  const res = await emu.api("GET", `/services/${r.outputs.service}/integrations/${r.id}`);
  if (res.body?.integration?.integration_key) keys.add(res.body.integration.integration_key);
  return res;
}

test("up creates both integrations; the routing key is a secret in state", async () => {
  const t0 = Date.now();
  project.must(["up", "--yes", "--skip-preview"]);
  console.log(`integration e2e: first up ${Date.now() - t0} ms`);
  const events = (await live("events")).body.integration;
  expect(events).toMatchObject({ type: "events_api_v2_inbound_integration", name: "Alerts" });
  expect(events.integration_key).toMatch(/^[0-9a-z]{32}$/i);
  const mail = (await live("mail")).body.integration;
  expect(mail).toMatchObject({ email_incident_creation: "on_new_email_subject", email_filter_mode: "or-rules-email" });
  expect(mail.email_filters[0]).toMatchObject({ subject_mode: "match", subject_regex: "^ALERT" });
  const out = state("events")!.outputs;
  expect(out.integrationKey).toEqual(
    expect.objectContaining({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) }),
  );
  expect(out.service).toBe(serviceId("svc"));
  // An email integration has no routing key: the output is left out of state, not a null (secret or not).
  expect(mail.integration_key ?? null).toBeNull();
  expect(state("mail")!.outputs).not.toHaveProperty("integrationKey");
  expect(project.must(["stack", "output", "routingKey"]).stdout.trim()).toBe("[secret]");
});

test("a second preview shows no changes, also after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("a refresh answers overlapping reads of services and integrations from one listing, and still sees drift", async () => {
  type Stats = { byRoute: Record<string, Record<string, number>> };
  const reads = async () => {
    const { byRoute } = (await emu.admin<Stats>("GET", "/_emulator/stats")).body;
    const n = (route: string) => Object.values(byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
    return { list: n("GET /services"), one: n("GET /services/:id") + n("GET /services/:id/integrations/:integration_id") };
  };
  // 150 ms per request: the engine's four reads overlap, as they do on a real network.
  expect((await emu.admin("POST", "/_emulator/faults", { route: "*", latencyMs: 150 })).status).toBeLessThan(300);
  try {
    const before = await reads();
    project.must(["preview", "--refresh", "--expect-no-changes"]);
    const after = await reads();
    // Two services and two integrations: one GET, then one listing page for the reads that overlapped it.
    expect(after.list - before.list).toBe(1);
    expect(after.one - before.one).toBeLessThan(4);

    // What the listing shows is what refresh compares: a service renamed by hand is drift.
    const svc = serviceId("other");
    expect((await emu.api("PUT", `/services/${svc}`, { service: { name: "Renamed by hand" } })).status).toBe(200);
    const drift = project.run(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toMatch(/~ name\s*:\s*"Search" => "Renamed by hand"/);
    expect(drift.stdout).toMatch(/pagerduty:Service: \(update\)/);
    expect((await emu.api("PUT", `/services/${svc}`, { service: { name: "Search" } })).status).toBe(200);
  } finally {
    await emu.admin("DELETE", "/_emulator/faults");
  }
});

test("name and email settings update in place", async () => {
  project.setProgram(program({ eventsName: "Paging", filterMode: "and-rules-email" }));
  expect(project.stepsOf("events")).toEqual(["update"]);
  expect(project.stepsOf("mail")).toEqual(["update"]);
  const id = state("events")!.id;
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("events")!.id).toBe(id);
  expect((await live("events")).body.integration.name).toBe("Paging");
  expect((await live("mail")).body.integration.email_filter_mode).toBe("and-rules-email");
  project.must(["preview", "--expect-no-changes"]);
});

test.each([
  ["type", { eventsName: "Paging", filterMode: "and-rules-email", eventsType: "generic_events_api_inbound_integration" }],
  ["service", { eventsName: "Paging", filterMode: "and-rules-email", eventsType: "generic_events_api_inbound_integration", eventsOnOther: true }],
  ["vendor", { eventsName: "Paging", filterMode: "and-rules-email", eventsVendor: "PAM4FGS", eventsOnOther: true }],
])("changing %s replaces the integration", async (_field, shape) => {
  project.setProgram(program(shape));
  const ops = project.stepsOf("events");
  expect(ops).toEqual(expect.arrayContaining([expect.stringMatching(/^(replace|create-replacement)$/)]));
  expect(ops).not.toContain("update");
  expect(project.stepsOf("mail")).toEqual([]);
  const old = state("events")!;
  project.must(["up", "--yes", "--skip-preview"]);
  const now = state("events")!;
  expect(now.id).not.toBe(old.id);
  expect((await emu.api("GET", `/services/${old.outputs.service}/integrations/${old.id}`)).status).toBe(404);
  expect((await live("events")).status).toBe(200);
  project.must(["preview", "--expect-no-changes"]);
});

test("an out-of-band change is drift for refresh, and up puts it back", async () => {
  const r = state("mail")!;
  const path = `/services/${r.outputs.service}/integrations/${r.id}`;
  expect((await emu.api("PUT", path, { integration: { email_filter_mode: "all-email" } })).status).toBe(200);
  const drift = refreshPreview(project);
  console.log(`integration e2e: refresh --preview-only --expect-no-changes exited ${drift.code} on drift`);
  expect(drift.code).toBe(7); // --expect-no-changes with changes
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await emu.api("GET", path)).body.integration.email_filter_mode).toBe("and-rules-email");
  expect(refreshPreview(project).code).toBe(0);
});

test("an integration deleted by hand is dropped by refresh and recreated by up", async () => {
  const r = state("events")!;
  expect((await emu.api("DELETE", `/services/${r.outputs.service}/integrations/${r.id}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(state("events")).toBeUndefined();
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("events")!.id).not.toBe(r.id);
  expect((await live("events")).status).toBe(200);
});

test("adoptId takes over an existing integration instead of creating one", async () => {
  const svc = serviceId("svc");
  const made = await emu.api("POST", `/services/${svc}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "Made by hand" } });
  expect(made.status).toBe(201);
  keys.add(made.body.integration.integration_key);
  const before = (await emu.api("GET", `/services/${svc}?include[]=integrations`)).body.service.integrations.length;
  project.setProgram(
    program({ eventsName: "Paging", filterMode: "and-rules-email", eventsVendor: "PAM4FGS", eventsOnOther: true, adoptId: made.body.integration.id }),
  );
  project.must(["up", "--yes", "--skip-preview"]);
  expect(state("adopted")!.id).toBe(made.body.integration.id);
  expect((await live("adopted")).body.integration.name).toBe("Adopted");
  expect((await emu.api("GET", `/services/${svc}?include[]=integrations`)).body.service.integrations.length).toBe(before);
  project.must(["preview", "--expect-no-changes"]);
});

test("an email integration with a fixed address moves to another service: the old one is deleted first, the address is dead only in between", async () => {
  const moved: Shape = { eventsName: "Paging", filterMode: "and-rules-email", eventsVendor: "PAM4FGS", eventsOnOther: true, adoptId: state("adopted")?.id };
  const address = `inbox-move@${emu.account.subdomain}.pagerduty.com`;
  project.setProgram(program({ ...moved, mailAddress: address }));
  project.must(["up", "--yes", "--skip-preview"]);
  const before = state("mail")!;
  expect(before.outputs).toMatchObject({ service: serviceId("svc"), integrationEmail: address });

  project.setProgram(program({ ...moved, mailAddress: address, mailOnOther: true }));
  expect(project.stepsOf("mail")).toEqual(["replace"]);

  // Who holds the address, polled while `up` runs, as the mail a monitor sends would find it.
  const [from, to] = [serviceId("svc"), serviceId("other")];
  const holders = async () => {
    const found: string[] = [];
    for (const svc of [from, to]) {
      const listed = (await emu.api("GET", `/services/${svc}?include[]=integrations`)).body.service.integrations;
      if (listed.some((i: { integration_email?: string }) => i.integration_email === address)) found.push(svc);
    }
    return found;
  };
  const seen: Array<{ at: number; holders: string[] }> = [];
  // Plain output: `--json` events carry secret outputs' values in clear, which this file's secret scan would find.
  const up = startDetached(project, ["up", "--yes", "--skip-preview"]);
  let done = false;
  void up.exited.then(() => (done = true));
  while (!done) {
    seen.push({ at: Date.now(), holders: await holders() });
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await up.exited).toBe(0);
  // The engine's steps for it, in order: the old integration is deleted before the new one is made.
  const printed = up.output();
  const step = (what: string) => printed.search(new RegExp(`ServiceIntegration mail ${what}`));
  expect(step("deleting original")).toBeGreaterThanOrEqual(0);
  expect(step("deleting original")).toBeLessThan(step("creating replacement"));
  seen.push({ at: Date.now(), holders: await holders() });
  expect(seen.every((s) => s.holders.length <= 1)).toBe(true);
  expect(seen.at(-1)!.holders).toEqual([to]);
  const lastOld = seen.map((s) => s.holders.includes(from)).lastIndexOf(true);
  const firstNew = seen.findIndex((s) => s.holders.includes(to));
  expect(lastOld).toBeLessThan(firstNew);
  const gap = lastOld < 0 ? "(moved before the first look)" : `${seen[firstNew].at - seen[lastOld].at} ms`;
  console.log(`integration e2e: the moved address answered nowhere for at most ${gap} of an up of ${seen.at(-1)!.at - seen[0].at} ms`);
  const after = state("mail")!;
  expect(after.id).not.toBe(before.id);
  expect(after.outputs).toMatchObject({ service: serviceId("other"), integrationEmail: address });
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy returns the emulator to its starting state", async () => {
  const adopted = state("adopted")!;
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
  expect((await emu.api("GET", `/services/${adopted.outputs.service}/integrations/${adopted.id}`)).status).toBe(404);
});

test("no integration key appears in plaintext in state or CLI output", () => {
  expect(keys.size).toBeGreaterThanOrEqual(4);
  const haystack = project.stateText() + project.log;
  for (const k of keys) expect(haystack).not.toContain(k);
});

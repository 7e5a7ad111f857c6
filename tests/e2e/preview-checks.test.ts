// Input the API would refuse half way through an `up` (after the service, and maybe one of two
// integrations, were made) fails the preview instead, naming the field and the resources or the
// holder; nothing is created, not even by an `up`. A ServiceOrchestration whose rules would not see
// the service's events is a warning naming the service. Real CLI, emulator process.
import { DRIFT } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { failsAtPreview as fails } from "./preview-failure";

jest.setTimeout(10 * 60_000);

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("previewchecks", program(""), emu);
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

/** A service "Checks" (with `serviceExtra` in its args) and whatever else `more` declares. */
function program(serviceExtra: string, more = ""): string {
  return `
import * as pulumi from "@pulumi/pulumi";
import * as pd from "pulumi-pagerduty-dynamic";
const svc = new pd.Service("svc", { name: "Checks", escalationPolicy: new pulumi.Config().require("escalationPolicyId"), ${serviceExtra} });
${more}
`;
}

const mail = (name: string, address: string) =>
  `new pd.ServiceIntegration(${JSON.stringify(name)}, { service: svc.id, type: "generic_email_inbound_integration", integrationEmail: ${JSON.stringify(address)} });`;

const services = async () =>
  (await emu.api<{ services: Array<{ name: string }> }>("GET", "/services?limit=100")).body.services.filter((s) => s.name !== "Held by hand").length;

const failsAtPreview = (source: string, pattern: RegExp) => fails(project, services, source, pattern);

test("two integrations of the program with one integrationEmail: the preview names both", async () => {
  const out = await failsAtPreview(
    program("", [mail("first", "orders@acme.pagerduty.com"), mail("second", "orders@acme.pagerduty.com")].join("\n")),
    /ServiceIntegration "second" and ServiceIntegration "first" both set integrationEmail "orders@acme\.pagerduty\.com"/,
  );
  expect(out).toMatch(/ServiceIntegration resource 'second'/);
});

test("an address another integration of the account has: the preview names the field and the holder", async () => {
  // Made by hand, outside the stack: a service with an email integration.
  const held = (
    await emu.api("POST", "/services", {
      service: { name: "Held by hand", escalation_policy: { id: emu.escalationPolicyId, type: "escalation_policy_reference" } },
    })
  ).body.service;
  const holder = (
    await emu.api("POST", `/services/${held.id}/integrations`, {
      integration: { type: "generic_email_inbound_integration", integration_email: "held@acme.pagerduty.com" },
    })
  ).body.integration;
  expect(holder.integration_email).toBe("held@acme.pagerduty.com");
  await failsAtPreview(
    program("", mail("mail", "held@acme.pagerduty.com")),
    new RegExp(`integrationEmail: "held@acme\\.pagerduty\\.com" is already the address of integration ${holder.id} of service ${held.id} \\("Held by hand"\\)`),
  );
});

test("a service name over 255 characters names the field", async () => {
  const source = program("").replace('name: "Checks"', `name: ${JSON.stringify("N".repeat(256))}`);
  await failsAtPreview(source, /name: must be at most 255 characters; it has 256/);
});

test.each(["autoResolveTimeout", "acknowledgementTimeout"])("%s: 1e308 names the field and the bound", async (field) => {
  await failsAtPreview(program(`${field}: 1e308,`), new RegExp(`${field}: must be at most 2147483647 seconds`));
});

test("valid input still previews and deploys (the checks are not blanket refusals)", async () => {
  project.setProgram(program("autoResolveTimeout: 2147483647,", mail("mail", "fresh@acme.pagerduty.com")));
  project.must(["up", "--yes"]);
  expect(await services()).toBe(1);
  // Its own address is no conflict on the next preview.
  project.must(["preview", "--expect-no-changes"]);
  project.must(["destroy", "--yes"]);
});

test("an orchestration its service's events would bypass: the preview warns, naming the service; none when they go through it", async () => {
  const orchestration = (active: string) =>
    `new pd.ServiceOrchestration("routing", { service: svc.id, ${active} sets: [{ id: "start", rules: [{ label: "all", actions: { annotate: "seen" } }] }] });`;
  const bypass = /the orchestration of .* is not active: events bypass it/;
  // `active` left out: a new service's orchestration is active, so its rules see the events.
  project.setProgram(program("", orchestration("")));
  const up = project.must(["up", "--yes"]);
  expect(up.stdout + up.stderr).not.toMatch(bypass);
  const id = project.resources().find((r) => r.type.endsWith("pagerduty:Service"))!.id!;
  project.setProgram(program("", orchestration("active: false,")));
  const off = project.must(["preview"]);
  expect(off.stdout + off.stderr).toMatch(
    new RegExp(`ServiceOrchestration: the orchestration of service "Checks" \\(${id}\\) is not active: events bypass it \\(active: false\\); set active: true`),
  );
  project.setProgram(program("", orchestration("active: true,")));
  const on = project.must(["preview"]);
  expect(on.stdout + on.stderr).not.toMatch(bypass);
  project.must(["destroy", "--yes"]);
});

test("a token that cannot write fails the preview of any planned write; it still runs drift checks", async () => {
  project.setProgram(program('description: "Checked",'));
  project.must(["up", "--yes"]);
  const id = project.resources().find((r) => r.type.endsWith("pagerduty:Service"))!.id!;
  // The same app, asked for services.read only: what an app granted nothing more gets.
  project.must(["config", "set", "pagerduty:scopes", "services.read"]);
  try {
    expect(project.run(DRIFT).code).toBe(0);
    expect((await emu.api("PUT", `/services/${id}`, { service: { description: "By hand" } })).status).toBe(200);
    // Drift is drift (exit 7), not an error: a refresh's own diff plans nothing.
    expect(project.run(DRIFT).code).toBe(7);
    const refused =
      /the program plans to (update|create) this (Service|ServiceIntegration), and the credentials' token lacks "services\.write", which that needs/;
    // Putting the drift back, changing a field and adding a resource all plan writes: each preview fails.
    for (const [source, args] of [
      [program('description: "Checked",'), ["preview", "--refresh"]],
      [program('description: "Changed",'), ["preview"]],
      [program('description: "By hand",', mail("mail", "readonly@acme.pagerduty.com")), ["preview"]],
    ] as const) {
      project.setProgram(source);
      const r = project.run([...args]);
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(refused);
    }
  } finally {
    project.must(["config", "rm", "pagerduty:scopes"]);
  }
  project.setProgram(program('description: "Checked",'));
  project.must(["up", "--refresh", "--yes"]);
  project.must(["destroy", "--yes"]);
});

// How configuration and credential errors reach the user through the real CLI: each message once,
// naming the config key to fix, without the provider's stack trace. (A wrong client secret on a
// deployed stack: tests/e2e/drift.test.ts.)
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { count, diagnostics, expectOnceWithoutTrace } from "./stack";

jest.setTimeout(10 * 60_000);

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const svc = new pagerduty.Service("svc", { name: "Error output", escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
new pagerduty.ServiceCustomFieldValues("fields", { service: svc.id, values: { tier: "gold" } });
`;

let emu: EmulatorProcess;
const projects: PulumiProject[] = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
});
afterAll(async () => {
  await emu?.stop();
  for (const p of projects) p.remove();
});

test("a wrong API key: printed once, naming the key, without a stack trace", async () => {
  const project = PulumiProject.create("errors", program, emu, {}, { auth: "none", secretConfig: { "pagerduty:token": "wrong-api-key-value" } });
  projects.push(project);
  for (const args of [["preview"], ["up", "--yes", "--skip-preview"]]) expectOnceWithoutTrace(project.run(args), '"pagerduty:token"', "The API key is invalid");
});

const serviceProgram = (description: string, values?: string) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const svc = new pagerduty.Service("svc", { name: "Deleted out of band", description: ${JSON.stringify(description)}, escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
${values ? `new pagerduty.ServiceCustomFieldValues("fields", { service: svc.id, values: ${values} });` : ""}
`;

test("custom field values of the wrong kind fail at preview, named as values.<field>", async () => {
  const project = PulumiProject.create("fieldkinds", serviceProgram("x", `{ pci: "yes", tier: "platinum" }`), emu);
  projects.push(project);
  const r = project.run(["preview"]);
  const out = r.stdout + r.stderr;
  expect(r.code).not.toBe(0);
  expect(out).toContain('values.pci: must be true or false ("pci" is a single_value boolean field); got "yes"');
  expect(out).toContain(`values.tier: must be one of the field's options "gold", "silver"; got "platinum"`);
  expect(out).not.toMatch(/custom_fields\[\d\]/);
});

test("an update of a service deleted out of band says it is gone and that pulumi refresh reconciles", async () => {
  const project = PulumiProject.create("gone", serviceProgram("first"), emu);
  projects.push(project);
  project.must(["up", "--yes", "--skip-preview"]);
  const id = project.resources().find((r) => r.urn.endsWith("::svc"))!.id!;
  expect((await emu.api("DELETE", `/services/${id}`)).status).toBe(204);

  project.setProgram(serviceProgram("second"));
  const r = project.run(["up", "--yes", "--skip-preview"]);
  const out = r.stdout + r.stderr;
  expect(r.code).not.toBe(0);
  expect(out).toContain(`service ${id} is gone: it was deleted outside Pulumi`);
  expect(out).toContain('Run "pulumi refresh" to reconcile the state');
  expect(count(diagnostics(out), `service ${id} is gone`)).toBe(1);

  // What the message says works: refresh drops it, the next up creates it again.
  project.must(["refresh", "--yes", "--skip-preview"]);
  project.must(["up", "--yes", "--skip-preview"]);
  const again = project.resources().find((r) => r.urn.endsWith("::svc"))!;
  expect(again.id).not.toBe(id);
  expect((await emu.api("GET", `/services/${again.id}`)).body.service.description).toBe("second");
  project.must(["destroy", "--yes", "--skip-preview"]);
});

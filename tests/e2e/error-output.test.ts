// How configuration and credential errors reach the user through the real CLI: each message once,
// naming the config key to fix, without the provider's stack trace.
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(10 * 60_000);

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const svc = new pagerduty.Service("svc", { name: "Error output", escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
new pagerduty.ServiceCustomFieldValues("fields", { service: svc.id, values: { tier: "gold" } });
`;

let emu: RunningEmulator;
const projects: PulumiProject[] = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
});
afterAll(async () => {
  await emu?.stop();
  for (const p of projects) p.remove();
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The "Diagnostics:" part of the CLI's output, where each resource's and the stack's messages are listed once. */
const diagnostics = (out: string) => out.slice(out.indexOf("Diagnostics:"));

test.each([
  ["a wrong client secret", { secretConfig: { "pagerduty:clientSecret": "wrong-secret-value" } }, '"pagerduty:clientSecret"', "client_secret is wrong"],
  ["a wrong API key", { auth: "none" as const, secretConfig: { "pagerduty:token": "wrong-api-key-value" } }, '"pagerduty:token"', "The API key is invalid"],
])("%s: printed once, naming the key, without a stack trace", async (_name, opts, key, detail) => {
  const project = PulumiProject.create("errors", program, emu, {}, opts);
  projects.push(project);
  for (const args of [["preview"], ["up", "--yes", "--skip-preview"]]) {
    const r = project.run(args);
    const out = r.stdout + r.stderr;
    expect(r.code).not.toBe(0);
    expect(out).toContain(key);
    // Once in the diagnostics (the progress display above it echoes the resource's error line).
    expect(count(diagnostics(out), detail)).toBe(1);
    expect(count(out, detail)).toBeLessThanOrEqual(2);
    expect(out).not.toMatch(/ConfigError|PagerDutyError/);
    expect(out).not.toMatch(/\sat (\S+ \()?\S+:\d+:\d+\)?$/m); // no "    at fn (file:line:col)" lines
  }
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

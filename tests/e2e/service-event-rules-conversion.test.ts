// pagerduty:ServiceEventRulesConversion end to end: an irreversible verb as a resource.
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";
import { resourceOf, serviceIdOf, warningsOf } from "./stack";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceEventRulesConversion";

const program = (target: "svc" | "other") => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("svc", { name: "Checkout", escalationPolicy });
const other = new pagerduty.Service("other", { name: "Search", escalationPolicy });
new pagerduty.ServiceEventRulesConversion("convert", { service: ${target}.id });
`;

let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("conversion", program("svc"), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const conversion = () => resourceOf(project, TYPE, "convert");
const serviceId = (name: string) => serviceIdOf(project, name);
/** A rule write on the service: 409 once its rules were converted. */
const ruleWrite = async (service: string) => (await emu.api("POST", `/services/${service}/rules`, { rule: { disabled: true } })).status;
test("create converts the service's rules; later rule writes are refused", async () => {
  expect(await ruleWrite((await emu.api("GET", "/services")).body.services[0]?.id ?? "none")).toBe(404);
  project.must(["up", "--yes", "--skip-preview"]);
  const c = conversion()!;
  expect(c.id).toBe(serviceId("svc"));
  expect(c.outputs).toMatchObject({ service: serviceId("svc"), convertStatus: "completed", convertedTo: expect.any(String) });
  expect(await ruleWrite(serviceId("svc"))).toBe(409);
  expect(await ruleWrite(serviceId("other"))).toBe(201);
});

test("no changes afterwards, also after a refresh (read never converts)", async () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("changing the service previews a replace; the old conversion is only forgotten, with a warning", async () => {
  project.setProgram(program("other"));
  const ops = project
    .previewSteps()
    .filter((s) => s.type === TYPE)
    .map((s) => s.op);
  expect(ops).toEqual(expect.arrayContaining([expect.stringMatching(/^(replace|create-replacement)$/)]));
  expect(ops).not.toContain("update");
  const warnings = warningsOf(project, ["up", "--yes", "--skip-preview"]);
  expect(warnings).toEqual([
    expect.stringMatching(new RegExp(`conversion of service ${serviceId("svc")}'s event rules .*cannot be undone.*only drops it from the Pulumi state`)),
  ]);
  expect(conversion()!.id).toBe(serviceId("other"));
  expect(await ruleWrite(serviceId("svc"))).toBe(409); // still converted: nothing was undone
});

test("when the service is deleted by hand, refresh drops the conversion and up converts the new service", async () => {
  const old = serviceId("other");
  expect((await emu.api("DELETE", `/services/${old}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(conversion()).toBeUndefined();
  project.must(["up", "--yes", "--skip-preview"]);
  expect(serviceId("other")).not.toBe(old);
  expect(conversion()!.id).toBe(serviceId("other"));
  expect(await ruleWrite(serviceId("other"))).toBe(409);
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy warns that the conversion stays, and leaves the emulator empty", async () => {
  const warnings = warningsOf(project, ["destroy", "--yes", "--skip-preview"]);
  expect(warnings).toEqual([expect.stringContaining("cannot be undone")]);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
});

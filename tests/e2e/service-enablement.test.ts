// pagerduty:ServiceEnablement end to end: real Pulumi CLI, packed package, emulator process.
import { aiops, createService, refreshPreview, setAiops } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceEnablement";

/** `target` is a literal service id, or "own" for the service the program creates. */
const program = (target: string, enabled: boolean, feature = "aiops") => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const own = new pagerduty.Service("own", { name: "Enablement own", escalationPolicy });
const aiops = new pagerduty.ServiceEnablement("aiops", {
  service: ${target === "own" ? "own.id" : JSON.stringify(target)},
  feature: ${JSON.stringify(feature)} as "aiops",
  enabled: ${enabled},
});
export const ownId = own.id;
export const previousEnabled = aiops.previousEnabled;
export const enabled = aiops.enabled;
`;

let emu: RunningEmulator;
let project: PulumiProject;
let pre: string;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // Starting state: a service someone set up by hand, with AIOps switched off.
  pre = await createService(emu, "Enablement pre-existing");
  await setAiops(emu, pre, false);
  project = PulumiProject.create("enablement", program(pre, true), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const state = () => project.resources().find((r) => r.type === TYPE)!;

test("up switches the feature on and records the value found before", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await aiops(emu, pre)).enabled).toBe(true);
  expect(project.outputs()).toMatchObject({ previousEnabled: false, enabled: true });
  expect(state().id).toBe(`${pre}/aiops`);
});

test("a second preview shows no changes, also after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("check rejects another feature, naming the field", () => {
  project.setProgram(program(pre, true, "incident_ai"));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain("feature");
  expect(r.stdout + r.stderr).toContain('must be one of "aiops"');
});

test("changing enabled is an in-place update", async () => {
  project.setProgram(program(pre, false));
  expect(project.stepsOf("aiops")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await aiops(emu, pre)).enabled).toBe(false);
  expect(project.outputs()).toMatchObject({ previousEnabled: false, enabled: false });
  project.must(["preview", "--expect-no-changes"]);
});

test("changing the service replaces: the new one is set, the old one restored", async () => {
  await setAiops(emu, pre, true); // drift on the old service; the replacement's delete must still restore it
  project.setProgram(program("own", false));
  expect(project.stepsOf("aiops")).toContain("replace");
  project.must(["up", "--yes", "--skip-preview"]);
  const own = project.outputs().ownId;
  expect((await aiops(emu, own)).enabled).toBe(false);
  expect(project.outputs()).toMatchObject({ previousEnabled: true, enabled: false });
  expect((await aiops(emu, pre)).enabled).toBe(false); // back to its starting value
  project.must(["preview", "--expect-no-changes"]);
});

test("an out-of-band change is drift for refresh, and up puts it back", async () => {
  const own = project.outputs().ownId;
  await setAiops(emu, own, true);
  const drift = refreshPreview(project);
  console.log(`enablement e2e: refresh --preview-only --expect-no-changes exited ${drift.code} on drift`);
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/pagerduty:ServiceEnablement +aiops +(update|refresh)/);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await aiops(emu, own)).enabled).toBe(false);
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
});

test("a not-entitled warning shows in the CLI output while up succeeds", async () => {
  expect((await emu.admin("PUT", "/_emulator/accounts/acme", { aiopsEntitled: false })).status).toBe(200);
  try {
    project.setProgram(program("own", true));
    const r = project.must(["up", "--yes", "--skip-preview"]);
    const out = r.stdout + r.stderr;
    console.log(
      `enablement e2e: warning as printed by pulumi up:\n${out
        .split("\n")
        .filter((l) => /warning/i.test(l))
        .join("\n")}`,
    );
    expect(out).toMatch(/warning: pagerduty:ServiceEnablement \w+\/aiops: The account is not entitled to "aiops"/);
    expect(out).toMatch(/1 warning/);
    expect((await aiops(emu, project.outputs().ownId)).enabled).toBe(true);
  } finally {
    await emu.admin("PUT", "/_emulator/accounts/acme", { aiopsEntitled: true });
  }
});

test("a service deleted out of band drops the enablement on refresh; up recreates both", async () => {
  const own = project.outputs().ownId;
  expect((await emu.api("DELETE", `/services/${own}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(project.resources().filter((r) => r.type === TYPE)).toEqual([]);
  project.must(["up", "--yes", "--skip-preview"]);
  const again = project.outputs().ownId;
  expect(again).not.toBe(own);
  expect((await aiops(emu, again)).enabled).toBe(true);
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy restores the starting state", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  const services = (await emu.api("GET", "/services")).body.services;
  expect(services.map((s: { id: string }) => s.id)).toEqual([pre]);
  expect((await aiops(emu, pre)).enabled).toBe(false);
});

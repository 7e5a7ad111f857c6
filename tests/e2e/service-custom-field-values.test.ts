// pagerduty:ServiceCustomFieldValues end to end: real Pulumi CLI, packed package, emulator process.
import { createService, fieldValues, refreshPreview, setFieldValues } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceCustomFieldValues";

/** `target` is a literal service id, or "own" for the service the program creates. */
const program = (target: string, values: Record<string, unknown>) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const own = new pagerduty.Service("own", { name: "Fields own", escalationPolicy });
const fields = new pagerduty.ServiceCustomFieldValues("fields", {
  service: ${target === "own" ? "own.id" : JSON.stringify(target)},
  values: ${JSON.stringify(values)},
});
export const ownId = own.id;
export const values = fields.values;
export const previousValues = fields.previousValues;
`;

let emu: RunningEmulator;
let project: PulumiProject;
let pre: string;
let start: Record<string, unknown>;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // A fourth field, never named by the program: it must never cause a diff or be touched.
  const owner = await emu.api("POST", "/services/custom_fields", {
    field: { name: "owner", display_name: "Owner", data_type: "string", field_type: "single_value" },
  });
  expect(owner.status).toBe(201);
  // Starting state: a service set up by hand, with some fields filled in.
  pre = await createService(emu, "Fields pre-existing");
  await setFieldValues(emu, pre, { tier: "silver", pci: true, owner: "team-a" });
  start = await fieldValues(emu, pre);
  expect(start).toEqual({ owner: "team-a", pci: true, runbook: null, tier: "silver" });
  project = PulumiProject.create("fields", program(pre, { tier: "gold", runbook: "https://runbooks.example/checkout" }), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("up sets the named fields, leaves the others alone and records what they held", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  expect(await fieldValues(emu, pre)).toEqual({ ...start, tier: "gold", runbook: "https://runbooks.example/checkout" });
  expect(project.outputs()).toMatchObject({
    values: { tier: "gold", runbook: "https://runbooks.example/checkout" },
    previousValues: { tier: "silver", runbook: null },
  });
});

test("a second preview shows no changes, also after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("a change to a field the program does not name is never a diff", async () => {
  await setFieldValues(emu, pre, { owner: "team-b" });
  try {
    project.must(["refresh", "--preview-only", "--expect-no-changes"]);
    project.must(["preview", "--refresh", "--expect-no-changes"]);
  } finally {
    await setFieldValues(emu, pre, { owner: "team-a" });
  }
});

test("adding, changing and removing fields is one in-place update; a removed field gets its value back", async () => {
  project.setProgram(program(pre, { tier: "silver", pci: false }));
  expect(project.stepsOf("fields")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(await fieldValues(emu, pre)).toEqual({ ...start, tier: "silver", pci: false, runbook: null });
  expect(project.outputs()).toMatchObject({ values: { tier: "silver", pci: false }, previousValues: { tier: "silver", pci: true } });
  project.must(["preview", "--expect-no-changes"]);
});

test("changing the service replaces: the new one is set, the old one restored", async () => {
  project.setProgram(program("own", { tier: "gold", pci: true }));
  expect(project.stepsOf("fields")).toContain("replace");
  project.must(["up", "--yes", "--skip-preview"]);
  expect(await fieldValues(emu, project.outputs().ownId)).toEqual({ owner: null, pci: true, runbook: null, tier: "gold" });
  expect(await fieldValues(emu, pre)).toEqual(start);
  expect(project.outputs().previousValues).toEqual({ tier: null, pci: null });
  project.must(["preview", "--expect-no-changes"]);
});

test("an out-of-band change to a managed field is drift for refresh, and up puts it back", async () => {
  const own = project.outputs().ownId;
  await setFieldValues(emu, own, { tier: "silver" });
  const drift = refreshPreview(project);
  console.log(`custom field values e2e: refresh --preview-only --expect-no-changes exited ${drift.code} on drift`);
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/pagerduty:ServiceCustomFieldValues +fields +update/);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await fieldValues(emu, own)).tier).toBe("gold");
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
});

test("values cleared out of band are reset by up", async () => {
  const own = project.outputs().ownId;
  await setFieldValues(emu, own, { tier: null, pci: null });
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect(await fieldValues(emu, own)).toMatchObject({ tier: "gold", pci: true });
});

test("a service deleted out of band drops the values on refresh; up recreates both", async () => {
  const own = project.outputs().ownId;
  expect((await emu.api("DELETE", `/services/${own}`)).status).toBe(204);
  project.must(["refresh", "--yes", "--skip-preview"]);
  expect(project.resources().filter((r) => r.type === TYPE)).toEqual([]);
  project.must(["up", "--yes", "--skip-preview"]);
  const again = project.outputs().ownId;
  expect(again).not.toBe(own);
  expect(await fieldValues(emu, again)).toMatchObject({ tier: "gold", pci: true });
  project.must(["preview", "--expect-no-changes"]);
});

test("a field the account does not have fails at preview (and up), naming it, and nothing is written", async () => {
  project.setProgram(program("own", { tier: "silver", colour: "red" }));
  for (const args of [["preview"], ["up", "--yes", "--skip-preview"]]) {
    const r = project.run(args);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/values\.colour: the account has no custom field named "colour" \(fields: [a-z, ]*tier/);
  }
  expect(await fieldValues(emu, project.outputs().ownId)).toMatchObject({ tier: "gold", pci: true });
  project.setProgram(program("own", { tier: "gold", pci: true }));
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy restores the starting state", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  const services = (await emu.api("GET", "/services")).body.services;
  expect(services.map((s: { id: string }) => s.id)).toEqual([pre]);
  expect(await fieldValues(emu, pre)).toEqual(start);
});

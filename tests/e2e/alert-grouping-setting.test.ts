// pagerduty:AlertGroupingSetting end to end: real Pulumi CLI, packed package, emulator process. The
// migration from a service's alertGroupingParameters (docs/alert-grouping-and-dependencies.md) runs
// first: the setting is added and the parameters dropped from the program in one deployment, and the
// service never groups nothing.
import { createService, refreshPreview } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

interface Shape {
  /** The service still declares its own parameters (before the migration). */
  parameters?: boolean;
  setting?: { name: string; config: string; adoptId?: string };
}

const program = (s: Shape) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("svc", {
  name: "Grouping e2e",
  escalationPolicy,
  ${s.parameters ? `alertGroupingParameters: { type: "content_based", config: { aggregate: "all", fields: ["summary"], timeWindow: 300 } },` : ""}
});
export const serviceId = svc.id;
${
  s.setting
    ? `const setting = new pagerduty.AlertGroupingSetting("grouping", {
  name: ${JSON.stringify(s.setting.name)},
  type: "content_based",
  config: ${s.setting.config},
  services: [svc.id],
  ${s.setting.adoptId ? `adoptId: ${JSON.stringify(s.setting.adoptId)},` : ""}
});
export const settingId = setting.id;`
    : ""
}
`;

const CONFIG = `{ aggregate: "all", fields: ["summary"], timeWindow: 300 }`;
let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("grouping", program({ parameters: true }), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const grouping = async (service: string) => (await emu.api("GET", `/services/${service}`)).body.service.alert_grouping_parameters;
const setting = async (id: string) => emu.api("GET", `/alert_grouping_settings/${id}`);

test("migration: the setting is created and the service's parameters dropped from the program in one up; the service groups all along", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const sid = project.outputs().serviceId;
  expect(await grouping(sid)).toMatchObject({ type: "content_based" });
  project.setProgram(program({ setting: { name: "Grouping e2e", config: CONFIG } }));
  // Dropping a field the program no longer declares changes nothing remote: the service is not updated.
  expect(project.stepsOf("svc")).toEqual([]);
  expect(project.stepsOf("grouping")).toEqual(["create"]);
  project.must(["up", "--yes", "--skip-preview"]);
  const id = project.outputs().settingId;
  expect(await grouping(sid)).toMatchObject({ id, type: "alert_grouping_setting_reference" });
  expect((await setting(id)).body.alert_grouping_setting).toMatchObject({ type: "content_based", services: [{ id: sid }] });
});

test("no changes after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["refresh", "--yes", "--skip-preview"]);
  project.must(["preview", "--expect-no-changes"]);
});

test("check names the config field that does not fit the type", () => {
  project.setProgram(program({ setting: { name: "Grouping e2e", config: `{ aggregate: "all", fields: ["summary"], timeout: 60 }` } }));
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('config.timeout: does not apply to type "content_based"');
});

test("an update puts the new config in place", async () => {
  project.setProgram(program({ setting: { name: "Grouping e2e", config: `{ aggregate: "any", fields: ["summary", "component"] }` } }));
  expect(project.stepsOf("grouping")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await setting(project.outputs().settingId)).body.alert_grouping_setting.config).toMatchObject({ aggregate: "any", fields: ["summary", "component"] });
  project.must(["preview", "--expect-no-changes"]);
});

test("a hand change is drift (exit 7) and up puts it back", async () => {
  const id = project.outputs().settingId;
  expect(
    (await emu.api("PUT", `/alert_grouping_settings/${id}`, { alert_grouping_setting: { config: { aggregate: "all", fields: ["summary"] } } })).status,
  ).toBe(200);
  const drift = refreshPreview(project);
  expect(drift.code).toBe(7);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  expect((await setting(id)).body.alert_grouping_setting.config).toMatchObject({ aggregate: "any" });
  project.must(["refresh", "--preview-only", "--expect-no-changes", "--run-program"]);
});

test("adoption by id: a setting made by hand is taken over and brought to the program", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  const other = await createService(emu, "Grouping e2e");
  const made = await emu.api("POST", "/alert_grouping_settings", {
    alert_grouping_setting: { name: "By hand", type: "content_based", config: { aggregate: "any", fields: ["x"] }, services: [{ id: other }] },
  });
  expect(made.status).toBe(201);
  const id = made.body.alert_grouping_setting.id;
  expect((await emu.api("DELETE", `/services/${other}`)).status).toBe(204); // the setting goes with its last service
  const again = await createService(emu, "Grouping hand");
  const hand = (
    await emu.api("POST", "/alert_grouping_settings", {
      alert_grouping_setting: { name: "By hand", type: "content_based", config: { aggregate: "any", fields: ["x"] }, services: [{ id: again }] },
    })
  ).body.alert_grouping_setting.id;
  expect(id).not.toBe(hand);
  project.setProgram(program({ setting: { name: "Adopted", config: CONFIG, adoptId: hand } }));
  project.must(["up", "--yes", "--skip-preview"]);
  expect(project.outputs().settingId).toBe(hand);
  const adopted = (await setting(hand)).body.alert_grouping_setting;
  expect(adopted).toMatchObject({ name: "Adopted", services: [{ id: project.outputs().serviceId }] });
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy deletes the setting", async () => {
  const id = project.outputs().settingId;
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await setting(id)).status).toBe(404);
});

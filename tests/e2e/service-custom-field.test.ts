// pagerduty:ServiceCustomField end to end: real Pulumi CLI, packed package, emulator process. The
// program defines a field and sets its value on a service in the same deployment (the OAuth app's
// token asks for custom_fields.write as an optional default scope).
import { DRIFT, fieldValues } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

interface Spec {
  displayName: string;
  options: string[];
  /** The id of a field made by hand, adopted as `owner`. */
  adopt?: string;
}

// The values name the field literally and depend on it, so the first preview judges them by the
// field's declaration (the field does not exist yet).
const program = (s: Spec) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const field = new pagerduty.ServiceCustomField("environment", {
  name: "environment",
  displayName: ${JSON.stringify(s.displayName)},
  description: "Where the service runs",
  dataType: "string",
  fieldType: "single_value_fixed",
  fieldOptions: ${JSON.stringify(s.options)},
});
const svc = new pagerduty.Service("svc", { name: "Fields defined", escalationPolicy });
const values = new pagerduty.ServiceCustomFieldValues("values", { service: svc.id, values: { environment: "prod" } }, { dependsOn: [field] });
${
  s.adopt
    ? `const owner = new pagerduty.ServiceCustomField("owner", {
  adoptId: ${JSON.stringify(s.adopt)}, name: "owner_team", displayName: "Owning team", dataType: "string", fieldType: "single_value",
});
export const ownerId = owner.id;`
    : ""
}
export const fieldId = field.id;
export const serviceId = svc.id;
export const options = field.fieldOptions;
export const valuesSet = values.values;
`;

let emu: RunningEmulator;
let project: PulumiProject;

const field = async (id: string) => (await emu.api("GET", `/services/custom_fields/${id}?include[]=field_options`)).body.field;
const optionValues = (f: { field_options: { data: { value: string } }[] }) => f.field_options.map((o) => o.data.value);

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("custom-field", program({ displayName: "Environment", options: ["prod", "staging"] }), emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("a field with options and its value on a service in one up, after a preview that judged the value by the declaration", async () => {
  project.must(["preview"]);
  project.must(["up", "--yes", "--skip-preview"]);
  const out = project.outputs();
  expect(out).toMatchObject({ options: ["prod", "staging"], valuesSet: { environment: "prod" } });
  expect(await field(out.fieldId)).toMatchObject({ name: "environment", display_name: "Environment", field_type: "single_value_fixed" });
  expect((await fieldValues(emu, out.serviceId)).environment).toBe("prod");
});

test("no changes after, also after a refresh", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
  project.must(DRIFT);
});

test("display name and options update in place: kept options keep their ids, the value stays", async () => {
  const before = await field(project.outputs().fieldId);
  project.setProgram(program({ displayName: "Env", options: ["staging", "prod", "dev"] }));
  expect(project.stepsOf("environment")).toEqual(["update"]);
  project.must(["up", "--yes", "--skip-preview"]);
  const after = await field(project.outputs().fieldId);
  expect(after.display_name).toBe("Env");
  expect(optionValues(after).sort()).toEqual(["dev", "prod", "staging"]);
  const idOf = (f: typeof before, v: string) => f.field_options.find((o: { data: { value: string } }) => o.data.value === v).id;
  expect(idOf(after, "prod")).toBe(idOf(before, "prod"));
  expect((await fieldValues(emu, project.outputs().serviceId)).environment).toBe("prod");
  project.must(["preview", "--expect-no-changes"]);
  project.must(DRIFT);
});

test("a hand change (display name, an option added) is drift, and up puts it back", async () => {
  const id = project.outputs().fieldId;
  expect((await emu.api("PUT", `/services/custom_fields/${id}`, { field: { display_name: "By hand" } })).status).toBe(200);
  expect((await emu.api("POST", `/services/custom_fields/${id}/field_options`, { field_option: { data: { data_type: "string", value: "qa" } } })).status).toBe(
    201,
  );
  const drift = project.run(DRIFT);
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/pagerduty:ServiceCustomField +environment +update/);
  project.must(["up", "--yes", "--skip-preview", "--refresh"]);
  const back = await field(id);
  expect(back.display_name).toBe("Env");
  expect(optionValues(back).sort()).toEqual(["dev", "prod", "staging"]);
  project.must(DRIFT);
});

test("adoption by id: a field made by hand is taken over and brought to the declared values, nothing created", async () => {
  const made = await emu.api("POST", "/services/custom_fields", {
    field: { name: "owner_team", display_name: "Owner team", data_type: "string", field_type: "single_value" },
  });
  expect(made.status).toBe(201);
  const id = made.body.field.id;
  project.setProgram(program({ displayName: "Env", options: ["staging", "prod", "dev"], adopt: id }));
  project.must(["up", "--yes", "--skip-preview"]);
  expect(project.outputs().ownerId).toBe(id);
  expect((await field(id)).display_name).toBe("Owning team");
  const names = (await emu.api("GET", "/services/custom_fields")).body.fields.map((f: { name: string }) => f.name);
  expect(names.filter((n: string) => n === "owner_team")).toHaveLength(1);
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy deletes the values, the fields (the adopted one too) and the service", async () => {
  const { fieldId, ownerId, serviceId } = project.outputs();
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/custom_fields/${fieldId}`)).status).toBe(404);
  expect((await emu.api("GET", `/services/custom_fields/${ownerId}`)).status).toBe(404);
  expect((await emu.api("GET", `/services/${serviceId}`)).status).toBe(404);
  const names = (await emu.api("GET", "/services/custom_fields")).body.fields.map((f: { name: string }) => f.name);
  expect(names).toEqual(["pci", "runbook", "tier"]);
});

import { PagerDutyError } from "../../../../provider/errors";
import { UNKNOWN } from "../../../../provider/kernel/check";
import { resource as values } from "../../../../provider/resources/service-custom-field-values";
import { optionsBody, resource } from "../../../../provider/resources/service-custom-field";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const FIELDS = "/services/custom_fields";
const WITH_OPTIONS = "?include%5B%5D=field_options";

const option = (id: string, value: string) => ({ id, type: "field_option", data: { data_type: "string", value } });
const apiField = (extra: Record<string, unknown> = {}) => ({
  id: "PF1",
  type: "field",
  name: "environment",
  display_name: "Environment",
  summary: "Environment",
  description: null,
  data_type: "string",
  field_type: "single_value_fixed",
  default_value: null,
  enabled: true,
  field_options: [option("O1", "prod"), option("O2", "staging")],
  created_at: "2026-01-01T00:00:00Z",
  ...extra,
});
const declared = { name: "environment", displayName: "Environment", dataType: "string", fieldType: "single_value_fixed", fieldOptions: ["prod", "staging"] };

describe("check", () => {
  const reasons = async (news: Record<string, unknown>) =>
    ((await provider.check!({ name: "x" }, { ...declared, ...news })).failures ?? []).map((f) => f.reason);
  test("names the field: name format, options only on fixed string fields, duplicates, boolean single value", async () => {
    expect(await reasons({ name: "Environment" })).toEqual(['name: must be lowercase letters, digits and "_"']);
    expect(await reasons({ fieldType: "single_value" })).toEqual([
      'fieldOptions: apply only to the field types "single_value_fixed" and "multi_value_fixed", not "single_value"',
    ]);
    expect(await reasons({ dataType: "integer", fieldOptions: undefined })).toEqual([
      'dataType: must be "string" for field type "single_value_fixed" (options are strings)',
    ]);
    expect(await reasons({ fieldOptions: ["a", "b", "a"] })).toEqual(['fieldOptions[2]: "a" is listed twice (options are unique within a field)']);
    expect(await reasons({ dataType: "boolean", fieldType: "multi_value", fieldOptions: undefined })).toEqual([
      'fieldType: a boolean field must be "single_value"',
    ]);
    expect(await reasons({ fieldOptions: ["x".repeat(201)] })).toEqual([expect.stringMatching(/^fieldOptions\[0\]: /)]);
  });
  test("defaultValue must fit the data type, the field type and the options", async () => {
    expect(await reasons({ defaultValue: "qa" })).toEqual([`defaultValue: must be one of the field's options "prod", "staging"; got "qa"`]);
    expect(await reasons({ defaultValue: ["prod"] })).toEqual([expect.stringMatching(/^defaultValue: must be a single value, not a list/)]);
    expect(await reasons({ dataType: "integer", fieldType: "single_value", fieldOptions: undefined, defaultValue: "1" })).toEqual([
      'defaultValue: must be an integer ("environment" is a single_value integer field); got "1"',
    ]);
    expect(await reasons({ defaultValue: "prod" })).toEqual([]);
  });
  test("values not known yet pass", async () => {
    expect(await reasons({ fieldOptions: UNKNOWN, defaultValue: "qa" })).toEqual([]);
  });
});

describe("a program's own field and its values", () => {
  const valuesProvider = api.provider(values);
  test("the values' preview check judges a field the program declares (not in the account yet) by its declaration", async () => {
    reply(api, "GET", `${FIELDS}${WITH_OPTIONS}`, { fields: [{ id: "F1", name: "tier", data_type: "string", field_type: "single_value" }] });
    await provider.check!({}, declared);
    const check = (v: Record<string, unknown>) => valuesProvider.check!({}, { service: "PSVC", values: v });
    await expect(check({ environment: "prod", tier: "x" })).resolves.not.toHaveProperty("failures");
    await expect(check({ environment: "qa" })).resolves.toMatchObject({
      failures: [{ reason: `values.environment: must be one of the field's options "prod", "staging"; got "qa"` }],
    });
    await expect(check({ colour: "red" })).resolves.toMatchObject({
      failures: [{ reason: 'values.colour: the account has no custom field named "colour" (fields: tier, environment)' }],
    });
  });

  test("after this process created the field, a write of values waits until the service shows it", async () => {
    reply(api, "POST", FIELDS, { field: apiField() }, 201);
    await provider.create!({ ...declared, __provider: "p" });
    const PATH = "/services/PSVC/custom_fields/values";
    const environment = { id: "PF1", name: "environment", type: "field_value", value: null };
    reply(api, "GET", PATH, { custom_fields: [] });
    reply(api, "GET", PATH, { custom_fields: [environment] });
    reply(api, "PUT", PATH, { custom_fields: [{ ...environment, value: "prod" }] }, 201);
    const made = await valuesProvider.create!({ service: "PSVC", values: { environment: "prod" } });
    expect(made.outs.values).toEqual({ environment: "prod" });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /services/custom_fields", `GET ${PATH}`, `GET ${PATH}`, `PUT ${PATH}`]);
  });
});

describe("create", () => {
  test("one POST with the options; outputs list options and their ids", async () => {
    reply(api, "POST", FIELDS, { field: apiField({ enabled: false }) }, 201);
    const r = await provider.create!({ ...declared, enabled: false, __provider: "p" });
    expect(api.calls[0].body).toEqual({
      field: {
        name: "environment",
        display_name: "Environment",
        data_type: "string",
        field_type: "single_value_fixed",
        enabled: false,
        field_options: [{ data: { data_type: "string", value: "prod" } }, { data: { data_type: "string", value: "staging" } }],
      },
    });
    expect(r.id).toBe("PF1");
    expect(r.outs).toMatchObject({ fieldOptions: ["prod", "staging"], fieldOptionIds: { prod: "O1", staging: "O2" }, enabled: false });
    expect(r.outs).not.toHaveProperty("defaultValue");
  });

  test("a taken name fails naming the field that has it and the ways out", async () => {
    reply(api, "POST", FIELDS, { error: { message: "Invalid Input Provided", code: 2001, errors: ['Name has already been taken ("environment")'] } }, 400);
    reply(api, "GET", FIELDS, { fields: [apiField()] });
    const err = await provider.create!({ ...declared }).catch((e) => e);
    expect(err).toBeInstanceOf(PagerDutyError);
    expect(err.message).toMatch(/custom field "environment": .*already been taken.* \(field PF1\)\. Rename the field, adopt the existing one with `adoptId`/);
  });
});

describe("diff", () => {
  const olds = { ...declared, description: null, defaultValue: null, enabled: true, fieldOptionIds: {}, summary: "", createdAt: "" };
  const diff = (news: Record<string, unknown>) => provider.diff!("PF1", olds, { ...declared, __provider: "p", ...news });
  test("options compare as a set: the API's order is no change", async () => {
    await expect(diff({ fieldOptions: ["staging", "prod"] })).resolves.toMatchObject({ changes: false });
    await expect(diff({ fieldOptions: ["prod", "staging", "dev"] })).resolves.toMatchObject({ changes: true, replaces: [] });
  });
  test("display name updates; name, dataType and fieldType replace, deleting first while a unique name is kept", async () => {
    await expect(diff({ displayName: "Env" })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(diff({ fieldType: "multi_value_fixed" })).resolves.toMatchObject({ replaces: ["fieldType"], deleteBeforeReplace: true });
    await expect(diff({ name: "env", displayName: "Env" })).resolves.toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });
  });
});

describe("update, adopt, read, delete", () => {
  test("update keeps the ids of options it keeps, adds new ones without, and leaves out the rest", async () => {
    reply(api, "GET", `${FIELDS}/PF1${WITH_OPTIONS}`, { field: apiField() });
    reply(api, "PUT", `${FIELDS}/PF1`, { field: apiField({ display_name: "Env", field_options: [option("O2", "staging"), option("O3", "dev")] }) });
    const r = await provider.update!("PF1", { ...declared }, { ...declared, displayName: "Env", fieldOptions: ["staging", "dev"] });
    expect(api.calls[1].body.field).toEqual({
      display_name: "Env",
      field_options: [{ id: "O2", data: { data_type: "string", value: "staging" } }, { data: { data_type: "string", value: "dev" } }],
    });
    expect(r.outs).toMatchObject({ displayName: "Env", fieldOptions: ["staging", "dev"], fieldOptionIds: { staging: "O2", dev: "O3" } });
    expect(optionsBody([], [option("O1", "x")], "string")).toEqual([]);
  });

  test("adoption refuses a field whose fixed settings differ, and brings a matching one to the declared values", async () => {
    reply(api, "GET", `${FIELDS}/PF1${WITH_OPTIONS}`, { field: apiField({ field_type: "multi_value_fixed" }) });
    await expect(provider.create!({ ...declared, adoptId: "PF1" })).rejects.toThrow(
      /cannot adopt custom field PF1: its field_type is "multi_value_fixed", which cannot change/,
    );
    reply(api, "GET", `${FIELDS}/PF1${WITH_OPTIONS}`, { field: apiField() });
    reply(api, "GET", `${FIELDS}/PF1${WITH_OPTIONS}`, { field: apiField() });
    reply(api, "PUT", `${FIELDS}/PF1`, { field: apiField({ display_name: "Env" }) });
    const r = await provider.create!({ ...declared, displayName: "Env", adoptId: "PF1" });
    expect(r).toMatchObject({ id: "PF1", outs: { displayName: "Env" } });
  });

  test("read reports the live field with its options; delete sends DELETE", async () => {
    reply(api, "GET", `${FIELDS}/PF1${WITH_OPTIONS}`, { field: apiField({ display_name: "By hand" }) });
    await expect(provider.read!("PF1", { ...declared })).resolves.toMatchObject({
      id: "PF1",
      props: { displayName: "By hand", fieldOptions: ["prod", "staging"] },
    });
    reply(api, "DELETE", `${FIELDS}/PF1`, undefined, 204);
    await provider.delete!("PF1", { ...declared });
    expect(api.calls.at(-1)).toMatchObject({ method: "DELETE", path: `${FIELDS}/PF1` });
  });

  test("describe and findExisting name the field by its unique name", async () => {
    expect(resource.describe!({ name: "environment" })).toBe('custom field "environment"');
    reply(api, "GET", FIELDS, { fields: [apiField(), apiField({ id: "PF2", name: "other" })] });
    await expect(resource.findExisting!(api.ctx().client, { name: "environment" })).resolves.toEqual(["PF1"]);
  });
});

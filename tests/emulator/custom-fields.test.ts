// Custom field definitions and their options (issue 36): CRUD of /services/custom_fields, the
// options inside a field PUT (by id) and on their own routes, what may not change, what a change
// does to services' values, the lag of a new field, persistence and reset, scopes.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { admin, bearer, type Client, client, createService, type Emu, start } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => {
  e = await start({ rateLimit: 1_000_000 });
  api = client(e, `Token token=${e.seed.apiKey}`);
});
afterAll(() => e.close());
beforeEach(async () => {
  expect((await admin(e, "POST", "/reset")).status).toBe(200);
});

const opts = (...values: string[]) => values.map((value) => ({ data: { data_type: "string", value } }));
const envField = (extra: Record<string, unknown> = {}) => ({
  field: {
    name: "environment",
    display_name: "Environment",
    data_type: "string",
    field_type: "single_value_fixed",
    field_options: opts("prod", "staging"),
    ...extra,
  },
});
async function create(body: { field: Record<string, unknown> } = envField()) {
  const res = await api.post("/services/custom_fields", body);
  expect(res.status).toBe(201);
  return res.json.field as { id: string; field_options: { id: string; data: { value: string } }[] };
}
const values = async (sid: string) =>
  Object.fromEntries(
    ((await api.get(`/services/${sid}/custom_fields/values`)).json.custom_fields as { name: string; value: unknown }[]).map((f) => [f.name, f.value]),
  );
const errorsOf = (res: { json: { error: { errors: string[] } } }) => res.json.error.errors.join(" | ");

describe("definitions", () => {
  test("create → 201 with its options (ids, type field_option); show and list give options only with include[]=field_options", async () => {
    const f = await create();
    expect(f).toMatchObject({ type: "field", name: "environment", display_name: "Environment", enabled: true, summary: "Environment" });
    expect(f.field_options).toEqual([
      expect.objectContaining({ id: expect.any(String), type: "field_option", data: { data_type: "string", value: "prod" } }),
      expect.objectContaining({ data: { data_type: "string", value: "staging" } }),
    ]);
    expect((await api.get(`/services/custom_fields/${f.id}`)).json.field.field_options).toBeUndefined();
    expect((await api.get(`/services/custom_fields/${f.id}?include[]=field_options`)).json.field.field_options).toEqual(f.field_options);
    const listed = (await api.get("/services/custom_fields?include[]=field_options")).json.fields.find((x: { id: string }) => x.id === f.id);
    expect(listed.field_options).toEqual(f.field_options);
  });

  test("400 naming the field: name format and uniqueness, display name uniqueness, options only on fixed string fields, duplicate options", async () => {
    await create();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: "Environment" }, /"name" has an invalid format/],
      [{ display_name: "Other" }, /Name has already been taken \("environment"\)/],
      [{ name: "env2" }, /Display name has already been taken \("Environment"\)/],
      [
        { name: "env3", display_name: "E3", field_type: "single_value" },
        /"field_options" apply only to the field types single_value_fixed and multi_value_fixed/,
      ],
      [{ name: "env4", display_name: "E4", data_type: "integer", field_options: [] }, /needs "data_type" string/],
      [{ name: "env5", display_name: "E5", field_options: opts("a", "a") }, /lists the value "a" twice/],
      [
        { name: "env6", display_name: "E6", field_options: [{ data: { data_type: "integer", value: "a" } }] },
        /"field_options\[0\].data.data_type" must be the field's data type/,
      ],
      [{ name: "env7", display_name: "E7", field_options: opts("x".repeat(201)) }, /"field_options\[0\].data.value" is too long/],
    ];
    for (const [extra, message] of cases) {
      const res = await api.post("/services/custom_fields", envField(extra));
      expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
      expect(errorsOf(res)).toMatch(message);
    }
  });

  test("PUT changes display name, description and enabled; name, data_type and field_type are refused when changed, accepted when the same", async () => {
    const f = await create();
    const res = await api.put(`/services/custom_fields/${f.id}`, { field: { display_name: "Env", description: "where", enabled: false, name: "environment" } });
    expect(res.status).toBe(200);
    expect(res.json.field).toMatchObject({ display_name: "Env", description: "where", enabled: false, name: "environment" });
    for (const k of ["name", "data_type", "field_type"]) {
      const changed = await api.put(`/services/custom_fields/${f.id}`, {
        field: { [k]: { name: "other", data_type: "integer", field_type: "multi_value_fixed" }[k] },
      });
      expect(changed.status).toBe(400);
      expect(errorsOf(changed)).toContain(`"${k}" cannot be changed`);
    }
  });

  test("PUT field_options: an id updates that option (values follow it), no id creates one, left out deletes it (values dropped)", async () => {
    const f = await create();
    const [prod, staging] = f.field_options;
    const a = await createService(e, api);
    const b = await createService(e, api);
    await api.put(`/services/${a}/custom_fields/values`, { custom_fields: [{ name: "environment", value: "prod" }] });
    await api.put(`/services/${b}/custom_fields/values`, { custom_fields: [{ name: "environment", value: "staging" }] });
    const res = await api.put(`/services/custom_fields/${f.id}`, {
      field: { field_options: [{ id: prod.id, data: { data_type: "string", value: "production" } }, { data: { data_type: "string", value: "dev" } }] },
    });
    expect(res.status).toBe(200);
    const after = res.json.field.field_options as { id: string; data: { value: string } }[];
    expect(after.map((o) => [o.id === prod.id, o.data.value])).toEqual([
      [true, "production"],
      [false, "dev"],
    ]);
    expect(after.some((o) => o.id === staging.id)).toBe(false);
    expect((await values(a)).environment).toBe("production");
    expect((await values(b)).environment).toBe(null);
    const unknown = await api.put(`/services/custom_fields/${f.id}`, {
      field: { field_options: [{ id: "PNOPE00", data: { data_type: "string", value: "x" } }] },
    });
    expect(errorsOf(unknown)).toMatch(/"field_options\[0\].id" "PNOPE00" is not an option of field "environment"/);
  });

  test("the default value's option cannot be left out or renamed", async () => {
    const f = await create(envField({ default_value: "prod" }));
    const res = await api.put(`/services/custom_fields/${f.id}`, { field: { field_options: opts("staging") } });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toMatch(/leaves out "prod", the field's default value/);
    const renamed = await api.put(`/services/custom_fields/${f.id}/field_options/${f.field_options[0].id}`, {
      field_option: { data: { data_type: "string", value: "p" } },
    });
    expect(renamed.status).toBe(400);
  });

  test("DELETE → 204; the field is gone from show, list and every service's values", async () => {
    const f = await create();
    const sid = await createService(e, api);
    await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "environment", value: "prod" }] });
    expect((await api.delete(`/services/custom_fields/${f.id}`)).status).toBe(204);
    expect((await api.get(`/services/custom_fields/${f.id}`)).status).toBe(404);
    expect((await api.get("/services/custom_fields")).json.fields.map((x: { id: string }) => x.id)).not.toContain(f.id);
    expect(Object.keys(await values(sid))).not.toContain("environment");
    expect((await api.delete(`/services/custom_fields/${f.id}`)).status).toBe(404);
  });
});

describe("field options routes", () => {
  test("list, create (201), show, update (200), delete (204); values follow a rename and are dropped with a deleted option", async () => {
    const f = await create(envField({ field_type: "multi_value_fixed" }));
    const base = `/services/custom_fields/${f.id}/field_options`;
    expect((await api.get(base)).json.field_options.map((o: { data: { value: string } }) => o.data.value)).toEqual(["prod", "staging"]);
    const made = await api.post(base, { field_option: { data: { data_type: "string", value: "dev" } } });
    expect(made.status).toBe(201);
    const dev = made.json.field_option;
    expect(dev).toMatchObject({ type: "field_option", data: { data_type: "string", value: "dev" } });
    expect((await api.get(`${base}/${dev.id}`)).json.field_option).toEqual(dev);
    const sid = await createService(e, api);
    await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "environment", value: ["dev", "prod"] }] });
    const renamed = await api.put(`${base}/${dev.id}`, { field_option: { data: { data_type: "string", value: "development" } } });
    expect(renamed.status).toBe(200);
    expect((await values(sid)).environment).toEqual(["development", "prod"]);
    expect((await api.delete(`${base}/${f.field_options[0].id}`)).status).toBe(204);
    expect((await values(sid)).environment).toEqual(["development"]);
    expect((await api.get(`${base}/${f.field_options[0].id}`)).status).toBe(404);
  });

  test("400 naming the field: a duplicate value, an empty value, options of a field that is not fixed", async () => {
    const f = await create();
    const base = `/services/custom_fields/${f.id}/field_options`;
    const dup = await api.post(base, { field_option: { data: { data_type: "string", value: "prod" } } });
    expect(errorsOf(dup)).toMatch(/"field_option.data.value" "prod" is already an option of field "environment"/);
    const empty = await api.post(base, { field_option: { data: { data_type: "string", value: " " } } });
    expect(errorsOf(empty)).toMatch(/"field_option.data.value" must be a non-empty string/);
    const plain = await create({ field: { name: "owner", display_name: "Owner", data_type: "string", field_type: "single_value" } });
    const refused = await api.post(`/services/custom_fields/${plain.id}/field_options`, { field_option: { data: { data_type: "string", value: "x" } } });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)).toMatch(/only single_value_fixed and multi_value_fixed fields have options/);
  });
});

describe("scopes, lag, persistence", () => {
  test("reads need custom_fields.read, writes custom_fields.write (services.* is not enough)", async () => {
    const f = await create();
    const readOnly = await bearer(e, "custom_fields.read services.read services.write");
    expect((await readOnly.get(`/services/custom_fields/${f.id}/field_options`)).status).toBe(200);
    expect((await readOnly.post(`/services/custom_fields/${f.id}/field_options`, { field_option: { data: { value: "x" } } })).status).toBe(403);
    expect((await readOnly.put(`/services/custom_fields/${f.id}`, { field: { display_name: "X" } })).status).toBe(403);
    expect((await readOnly.delete(`/services/custom_fields/${f.id}`)).status).toBe(403);
  });

  test("lag: a new field answers 404 and is left out of the listing and of services' values until its window ends", async () => {
    expect((await admin(e, "PUT", "/lag", { ms: 60_000 })).status).toBe(200);
    const sid = await createService(e, api);
    await admin(e, "POST", "/clock", { advanceMs: 61_000 });
    const f = await create();
    expect((await api.get(`/services/custom_fields/${f.id}`)).status).toBe(404);
    expect((await api.get(`/services/custom_fields/${f.id}/field_options`)).status).toBe(404);
    expect((await api.get("/services/custom_fields")).json.fields.map((x: { id: string }) => x.id)).not.toContain(f.id);
    expect(Object.keys(await values(sid))).not.toContain("environment");
    const put = await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "environment", value: "prod" }] });
    expect(put.status).toBe(400);
    await admin(e, "POST", "/clock", { advanceMs: 61_000 });
    expect((await api.get(`/services/custom_fields/${f.id}`)).status).toBe(200);
    expect((await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "environment", value: "prod" }] })).status).toBe(201);
  });

  test("reset brings back the seeded definitions only; a data file keeps fields and options across a restart", async () => {
    const f = await create();
    const seeded = (await api.get("/services/custom_fields")).json.fields.find((x: { name: string }) => x.name === "tier");
    expect((await api.delete(`/services/custom_fields/${seeded.id}`)).status).toBe(204);
    await admin(e, "POST", "/reset");
    const names = (await api.get("/services/custom_fields")).json.fields.map((x: { name: string }) => x.name);
    expect(names).toEqual(["pci", "runbook", "tier"]);
    expect(names).not.toContain(f.id);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-fields-"));
    const dataFile = path.join(dir, "state.json");
    const first = await start({ dataFile });
    const key = client(first, `Token token=${first.seed.apiKey}`);
    const made = (await key.post("/services/custom_fields", envField())).json.field;
    await first.close();
    const second = await start({ dataFile });
    try {
      const again = client(second, `Token token=${second.seed.apiKey}`);
      const kept = (await again.get(`/services/custom_fields/${made.id}?include[]=field_options`)).json.field;
      expect(kept.field_options).toEqual(made.field_options);
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Cache variables of a service's event orchestration: list, create (200), show, partial update,
// delete; each type's configuration keys; unique names; what the Terraform provider sends; lag,
// persistence, reset, and deletion with the service.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, appToken, bearer, type Client, client, createService, type Emu, start, startWithClient } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

const list = (sid: string) => `/event_orchestrations/services/${sid}/cache_variables`;
const one = (sid: string, id: string) => `${list(sid)}/${id}`;
const counter = (extra: Record<string, unknown> = {}) => ({
  cache_variable: {
    name: "db_triggers",
    conditions: [{ expression: "event.summary matches part 'db'" }],
    configuration: { type: "trigger_event_count", ttl_seconds: 60 },
    ...extra,
  },
});
const errorsOf = (res: { json: { error?: { errors?: string[] } } }) => res.json.error?.errors ?? [];

test("create answers 200 with the variable; show, list, partial update and delete", async () => {
  const sid = await createService(e, api);
  const made = await api.post(list(sid), counter());
  expect(made.status).toBe(200);
  const v = made.json.cache_variable;
  expect(v).toMatchObject({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    name: "db_triggers",
    disabled: false,
    conditions: [{ expression: "event.summary matches part 'db'" }],
    configuration: { type: "trigger_event_count", ttl_seconds: 60 },
    created_by: { type: "app_reference" },
  });
  expect(v).not.toHaveProperty("data_endpoint");
  expect((await api.get(one(sid, v.id))).json.cache_variable).toEqual(v);
  expect((await api.get(list(sid))).json).toEqual({ cache_variables: [v], total: 1 });
  // Partial: the description's update examples send a name and one other field.
  const renamed = await api.put(one(sid, v.id), { cache_variable: { name: "renamed", disabled: true } });
  expect(renamed.status).toBe(200);
  expect(renamed.json.cache_variable).toMatchObject({ name: "renamed", disabled: true, conditions: v.conditions, configuration: v.configuration });
  // A new configuration replaces the old one whole: the other type's keys go.
  const retyped = await api.put(one(sid, v.id), { cache_variable: { configuration: { type: "recent_value", source: "event.summary", regex: "(.*)" } } });
  expect(retyped.json.cache_variable.configuration).toEqual({ type: "recent_value", source: "event.summary", regex: "(.*)" });
  expect((await api.delete(one(sid, v.id))).status).toBe(204);
  expect((await api.get(one(sid, v.id))).status).toBe(404);
  expect((await api.get(list(sid))).json.cache_variables).toEqual([]);
});

test("external_data variables report their data endpoint and take no conditions", async () => {
  const sid = await createService(e, api);
  const body = { cache_variable: { name: "in_maintenance", configuration: { type: "external_data", data_type: "boolean", ttl_seconds: 7200 } } };
  const made = (await api.post(list(sid), body)).json.cache_variable;
  expect(made.data_endpoint).toMatch(new RegExp(`/event_orchestrations/services/${sid}/cache_variables/${made.id}/data$`));
  const refused = await api.put(one(sid, made.id), { cache_variable: { conditions: [{ expression: "event.source exists" }] } });
  expect(refused.status).toBe(400);
  expect(errorsOf(refused)).toEqual([
    '"cache_variable.conditions" do not apply to an external_data cache variable (its value is set through its data endpoint)',
  ]);
});

test("each type's keys are required and checked; one 400 names every wrong field", async () => {
  const sid = await createService(e, api);
  const post = (configuration: unknown, extra: Record<string, unknown> = {}) => api.post(list(sid), { cache_variable: { name: "x", configuration, ...extra } });
  expect(errorsOf(await post({ type: "recent_value", regex: ".*" }))).toEqual(['"cache_variable.configuration.source" is required']);
  expect(errorsOf(await post({ type: "trigger_event_count", ttl_seconds: 0 }))).toEqual(['"cache_variable.configuration.ttl_seconds" must be an integer >= 1']);
  expect(errorsOf(await post({ type: "external_data", data_type: "date", ttl_seconds: 5 }))).toEqual([
    '"cache_variable.configuration.data_type" must be one of: string, number, boolean',
  ]);
  expect(errorsOf(await post({ type: "latest" }, { name: "" }))).toEqual([
    '"cache_variable.name" can\'t be blank',
    '"cache_variable.configuration.type" must be one of: recent_value, trigger_event_count, external_data',
  ]);
  expect(errorsOf(await api.post(list(sid), { cache_variable: { name: "x" } }))).toEqual(['"cache_variable.configuration" is required']);
  expect(errorsOf(await api.post(list(sid), {}))).toEqual([expect.stringContaining("cache_variable")]);
  // Keys of another type are ignored, as unknown fields are.
  const ok = await post({ type: "trigger_event_count", ttl_seconds: 5, regex: ".*" });
  expect(ok.json.cache_variable.configuration).toEqual({ type: "trigger_event_count", ttl_seconds: 5 });
});

test("names are unique within an orchestration, not across services", async () => {
  const sid = await createService(e, api);
  const first = (await api.post(list(sid), counter())).json.cache_variable;
  const again = await api.post(list(sid), counter());
  expect(again.status).toBe(400);
  expect(errorsOf(again)).toEqual([
    '"cache_variable.name" "db_triggers" is already taken by another cache variable of this orchestration; names are unique within one',
  ]);
  const second = (await api.post(list(sid), counter({ name: "other" }))).json.cache_variable;
  expect((await api.put(one(sid, second.id), { cache_variable: { name: "db_triggers" } })).status).toBe(400);
  // Its own name is no clash.
  expect((await api.put(one(sid, first.id), { cache_variable: { name: "db_triggers" } })).status).toBe(200);
  const other = await createService(e, api);
  expect((await api.post(list(other), counter())).status).toBe(200);
  // Another service's variable is not found under this one.
  expect((await api.get(one(other, first.id))).status).toBe(404);
});

test("what the Terraform provider sends (every field, conditions [] and disabled false when unset) is accepted", async () => {
  const sid = await createService(e, api);
  const tf = {
    cache_variable: { name: "tf", disabled: false, conditions: [], configuration: { type: "external_data", data_type: "string", ttl_seconds: 60 } },
  };
  const made = await api.post(list(sid), tf);
  expect(made.status).toBe(200);
  expect((await api.put(one(sid, made.json.cache_variable.id), tf)).status).toBe(200);
});

test("scopes: services.read to read, services.write to write", async () => {
  const sid = await createService(e, api);
  const reader = await bearer(e, "services.read");
  expect((await reader.get(list(sid))).status).toBe(200);
  const refused = await reader.post(list(sid), counter());
  expect(refused.status).toBe(403);
  expect(refused.json.error.required_scopes).toEqual(["services.write"]);
});

test("deleting the service deletes its variables", async () => {
  const sid = await createService(e, api);
  const v = (await api.post(list(sid), counter())).json.cache_variable;
  expect((await api.delete(`/services/${sid}`)).status).toBe(204);
  expect(e.core.state.cacheVariables[v.id]).toBeUndefined();
  expect((await api.get(one(sid, v.id))).status).toBe(404);
});

test("lag: a new variable, and everything under a new service, 404s and is left out of the listing", async () => {
  const sid = await createService(e, api);
  await admin(e, "PUT", "/lag", { ms: 60_000 });
  try {
    const v = (await api.post(list(sid), counter())).json.cache_variable;
    expect((await api.get(one(sid, v.id))).json.error.errors).toEqual([`Cache variable ${v.id} of service ${sid} not found`]);
    expect((await api.put(one(sid, v.id), { cache_variable: { disabled: true } })).status).toBe(404);
    expect((await api.get(list(sid))).json.cache_variables).toEqual([]);
    // Uniqueness is the primary's: a hidden variable's name is taken.
    expect((await api.post(list(sid), counter())).status).toBe(400);
    const young = await createService(e, api);
    expect((await api.post(list(young), counter())).status).toBe(404);
    // Deletes reach the primary.
    expect((await api.delete(one(sid, v.id))).status).toBe(204);
  } finally {
    await admin(e, "PUT", "/lag", { ms: 0 });
  }
});

test("variables survive a restart and go with a reset", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cachevar-"));
  try {
    const file = join(dir, "state.json");
    const first = await start({ dataFile: file });
    const token = await appToken(first);
    const sid = await createService(first, client(first, `Bearer ${token}`));
    const v = (await client(first, `Bearer ${token}`).post(list(sid), counter())).json.cache_variable;
    expect(v.created_by.type).toBe("app_reference");
    await first.close();
    const second = await start({ dataFile: file });
    expect((await client(second, `Bearer ${token}`).get(one(sid, v.id))).json.cache_variable).toEqual(v);
    await admin(second, "POST", "/reset");
    expect(second.core.state.cacheVariables).toEqual({});
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

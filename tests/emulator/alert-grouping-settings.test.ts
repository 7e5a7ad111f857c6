// Alert grouping settings (issue 36): CRUD as PagerDuty's Terraform provider uses it, one setting per
// service, the service's parameters reading as a reference to its setting, cursor pages, scopes,
// lag, persistence and reset.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, bearer, type Client, client, createService, type Emu, start } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => {
  e = await start({ rateLimit: 1_000_000 });
  api = client(e, `Token token=${e.seed.apiKey}`);
});
afterAll(() => e.close());
beforeEach(async () => expect((await admin(e, "POST", "/reset")).status).toBe(200));

const setting = (services: string[], extra: Record<string, unknown> = {}) => ({
  alert_grouping_setting: {
    name: "Checkout grouping",
    type: "content_based",
    config: { aggregate: "all", fields: ["summary"], time_window: 300 },
    services: services.map((id) => ({ id })),
    ...extra,
  },
});

test("create, show, update and delete a setting; the service's parameters read as a reference while it belongs", async () => {
  const sid = await createService(e, api, { alert_grouping_parameters: { type: "time", config: { timeout: 5 } } });
  const made = await api.post("/alert_grouping_settings", setting([sid]));
  expect(made.status).toBe(201);
  const g = made.json.alert_grouping_setting;
  expect(g).toMatchObject({ name: "Checkout grouping", description: null, type: "content_based", services: [{ id: sid }] });
  expect(g.config).toEqual({ aggregate: "all", fields: ["summary"], time_window: 300 });
  expect((await api.get(`/services/${sid}`)).json.service.alert_grouping_parameters).toMatchObject({ id: g.id, type: "alert_grouping_setting_reference" });

  const put = await api.put(`/alert_grouping_settings/${g.id}`, {
    alert_grouping_setting: { description: "why", config: { aggregate: "any", fields: ["component"] } },
  });
  expect(put.status).toBe(200);
  expect(put.json.alert_grouping_setting).toMatchObject({ name: "Checkout grouping", description: "why", services: [{ id: sid }] });
  expect(put.json.alert_grouping_setting.config).toEqual({ aggregate: "any", fields: ["component"], time_window: 0 });

  expect((await api.delete(`/alert_grouping_settings/${g.id}`)).status).toBe(204);
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).status).toBe(404);
  expect((await api.delete(`/alert_grouping_settings/${g.id}`)).status).toBe(404);
  // Its grouping was the setting's: the service groups nothing now.
  expect((await api.get(`/services/${sid}`)).json.service.alert_grouping_parameters).toEqual({ type: null });
});

test("validation names the field: type, per-type config, services", async () => {
  const sid = await createService(e, api);
  const bad = async (body: unknown) => {
    const res = await api.post("/alert_grouping_settings", body);
    expect(res.status).toBe(400);
    return res.json.error.errors as string[];
  };
  expect(await bad(setting([sid], { type: "clever" }))).toEqual([expect.stringContaining('"type" must be one of')]);
  expect(await bad(setting([sid], { config: { fields: [] } }))).toEqual(
    expect.arrayContaining(['"config.aggregate" is required', expect.stringContaining('"config.fields"')]),
  );
  expect(await bad(setting([sid], { type: "time", config: { timeout: 30 } }))).toEqual([expect.stringContaining('"config.timeout" must be 0')]);
  expect(await bad(setting([sid], { type: "intelligent", config: { time_window: 86400 } }))).toEqual([expect.stringContaining('"config.time_window"')]);
  expect(await bad(setting([]))).toEqual(['"services" must name at least one service']);
  expect(await bad({ alert_grouping_setting: { type: "time" } })).toEqual(['"services" is required']);
  const other = await createService(e, api);
  expect(await bad(setting([sid, other], { type: "time", config: {} }))).toEqual([expect.stringContaining('one service for type "time"')]);
  expect((await api.post("/alert_grouping_settings", setting(["PNOPE00"]))).status).toBe(404);
  // What the Terraform provider sends for a program that leaves the windows unset: 0, the recommended one.
  const tf = await api.post("/alert_grouping_settings", setting([sid], { type: "intelligent", config: { time_window: 0, iag_fields: ["summary"] } }));
  expect(tf.status).toBe(201);
  expect(tf.json.alert_grouping_setting.config).toEqual({ time_window: 0, iag_fields: ["summary"] });
});

test("a service belongs to one setting; its own parameters or its deletion take it out, and the last one out deletes the setting", async () => {
  const [a, b] = [await createService(e, api), await createService(e, api)];
  const g = (await api.post("/alert_grouping_settings", setting([a, b]))).json.alert_grouping_setting;
  const again = await api.post("/alert_grouping_settings", setting([b]));
  expect(again.status).toBe(400);
  expect(again.json.error.errors).toEqual([expect.stringContaining(`"services[0]": service ${b} already belongs to alert grouping setting ${g.id}`)]);
  // A reference sent back is ignored, as the description says.
  const ref = (await api.get(`/services/${a}`)).json.service.alert_grouping_parameters;
  expect((await api.put(`/services/${a}`, { service: { alert_grouping_parameters: ref } })).status).toBe(200);
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).json.alert_grouping_setting.services.map((s: { id: string }) => s.id)).toEqual([a, b]);
  // Its own parameters take a service out.
  await api.put(`/services/${a}`, { service: { alert_grouping_parameters: { type: "time", config: { timeout: 2 } } } });
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).json.alert_grouping_setting.services.map((s: { id: string }) => s.id)).toEqual([b]);
  expect((await api.get(`/services/${a}`)).json.service.alert_grouping_parameters).toEqual({ type: "time", config: { timeout: 2 } });
  expect((await api.delete(`/services/${b}`)).status).toBe(204);
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).status).toBe(404);
});

test("lists in cursor pages (after, before, limit, total) and by service_ids[]", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const sid = await createService(e, api);
    ids.push((await api.post("/alert_grouping_settings", setting([sid], { name: `g${i}` }))).json.alert_grouping_setting.id);
  }
  const first = (await api.get("/alert_grouping_settings?limit=2&total=true")).json;
  expect(first.alert_grouping_settings.map((g: { id: string }) => g.id)).toEqual(ids.slice(0, 2));
  expect(first).toMatchObject({ limit: 2, total: 3 });
  expect(first.before).toBeUndefined();
  const second = (await api.get(`/alert_grouping_settings?limit=2&after=${first.after}`)).json;
  expect(second.alert_grouping_settings.map((g: { id: string }) => g.id)).toEqual([ids[2]]);
  expect(second.after).toBeUndefined();
  expect((await api.get(`/alert_grouping_settings?limit=2&before=${second.before}`)).json.alert_grouping_settings.map((g: { id: string }) => g.id)).toEqual(
    ids.slice(0, 2),
  );
  expect((await api.get("/alert_grouping_settings?after=garbage")).status).toBe(400);
  const svc = (await api.get(`/alert_grouping_settings/${ids[1]}`)).json.alert_grouping_setting.services[0].id;
  expect((await api.get(`/alert_grouping_settings?service_ids[]=${svc}`)).json.alert_grouping_settings.map((g: { id: string }) => g.id)).toEqual([ids[1]]);
});

test("scopes: services.read to read, services.write to write", async () => {
  const sid = await createService(e, api);
  const reader = await bearer(e, "services.read");
  expect((await reader.get("/alert_grouping_settings")).status).toBe(200);
  expect((await reader.post("/alert_grouping_settings", setting([sid]))).status).toBe(403);
  const none = await bearer(e, "custom_fields.read");
  expect((await none.get("/alert_grouping_settings")).status).toBe(403);
});

test("lag: a new setting answers 404 and is left out of listings until its window ends", async () => {
  const sid = await createService(e, api);
  await admin(e, "PUT", "/lag", { ms: 60_000 });
  const g = (await api.post("/alert_grouping_settings", setting([sid]))).json.alert_grouping_setting;
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).status).toBe(404);
  expect((await api.put(`/alert_grouping_settings/${g.id}`, { alert_grouping_setting: { name: "x" } })).status).toBe(404);
  expect((await api.get("/alert_grouping_settings")).json.alert_grouping_settings).toEqual([]);
  await admin(e, "POST", "/clock", { advanceMs: 61_000 });
  expect((await api.get(`/alert_grouping_settings/${g.id}`)).status).toBe(200);
});

test("settings persist with the data file and go with a reset", async () => {
  const dataFile = join(mkdtempSync(join(tmpdir(), "ags-")), "state.json");
  const first = await start({ dataFile });
  const c = client(first, `Token token=${first.seed.apiKey}`);
  const sid = await createService(first, c);
  const id = (await c.post("/alert_grouping_settings", setting([sid]))).json.alert_grouping_setting.id;
  await first.close();
  const second = await start({ dataFile });
  try {
    const c2 = client(second, `Token token=${second.seed.apiKey}`);
    expect((await c2.get(`/alert_grouping_settings/${id}`)).status).toBe(200);
    await admin(second, "POST", "/reset");
    expect((await c2.get(`/alert_grouping_settings/${id}`)).status).toBe(404);
  } finally {
    await second.close();
  }
});

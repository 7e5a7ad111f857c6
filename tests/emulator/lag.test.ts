// Consistency-lag mode (issue 28): a service, integration or event rule created a moment ago
// answers 404 and is left out of listings until its window ends, as PagerDuty's eventually
// consistent API does. Windows are long (a minute) where a test checks that something is hidden,
// and ended by moving the emulator's clock; the real-time expiry test waits out a short window.
import { Clock } from "../../emulator/src/clock";
import { Lag } from "../../emulator/src/lag";
import { Stats } from "../../emulator/src/stats";
import { admin, type Client, client, type Emu, euClient, serviceBody, start } from "./helpers";

const MINUTE = 60_000;
let e: Emu;
let us: Client;
let eu: Client;

beforeAll(async () => {
  e = await start({ rateLimit: 1_000_000 });
  // API keys survive a reset (tokens do not), and have every scope.
  us = client(e, `Token token=${e.seed.apiKey}`);
  eu = euClient(e, `Token token=${e.seed.eu!.apiKey}`);
});
afterAll(() => e.close());
beforeEach(async () => {
  expect((await admin(e, "POST", "/reset")).status).toBe(200);
});

const setLag = async (body: Record<string, unknown>) => {
  const res = await admin(e, "PUT", "/lag", body);
  expect(res.status).toBe(200);
  return res.json;
};
const advance = (ms: number) => admin(e, "POST", "/clock", { advanceMs: ms });
const lagStats = async () => (await admin(e, "GET", "/stats")).json.lag;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newService(api: Client = us, extra: Record<string, unknown> = {}, policy = e.seed.escalationPolicyId) {
  const body = serviceBody(e, extra);
  body.service.escalation_policy.id = policy;
  const res = await api.post("/services", body);
  expect(res.status).toBe(201);
  return res.json.service as { id: string; name: string; integrations: unknown[] };
}
async function newIntegration(sid: string, extra: Record<string, unknown> = {}) {
  const res = await us.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration", ...extra } });
  expect(res.status).toBe(201);
  return res.json.integration as { id: string; integration_key: string };
}
async function newRule(sid: string) {
  const res = await us.post(`/services/${sid}/rules`, { rule: { actions: { annotate: { value: "x" } } } });
  expect(res.status).toBe(201);
  return res.json.rule as { id: string; position: number };
}
const listedIds = async (path: string, key: string) => ((await us.get(path)).json[key] as { id: string }[]).map((x) => x.id);

describe("settings", () => {
  test("default lag 0: every new object is readable, listed and embedded at once; no lag counted", async () => {
    expect((await admin(e, "GET", "/lag")).json).toEqual({ ms: 0, euMs: 0, deletes: false });
    const s = await newService();
    const i = await newIntegration(s.id);
    const r = await newRule(s.id);
    expect((await us.get(`/services/${s.id}`)).json.service.integrations.map((x: { id: string }) => x.id)).toEqual([i.id]);
    expect((await us.get(`/services/${s.id}/integrations/${i.id}`)).status).toBe(200);
    expect((await us.get(`/services/${s.id}/rules/${r.id}`)).status).toBe(200);
    expect(await listedIds("/services", "services")).toEqual([s.id]);
    expect(await listedIds(`/services/${s.id}/rules`, "rules")).toEqual([r.id]);
    expect((await us.get(`/services/${s.id}/audit/records`)).json.records).toHaveLength(3);
    expect(await lagStats()).toEqual({ hidden404: 0, leftOut: 0 });
  });

  test("PUT /_emulator/lag changes only the keys given; bad values are a 400 naming each field; the admin token is required", async () => {
    expect(await setLag({ ms: 2000 })).toEqual({ ms: 2000, euMs: 0, deletes: false });
    expect(await setLag({ euMs: 9000, deletes: true })).toEqual({ ms: 2000, euMs: 9000, deletes: true });
    expect((await admin(e, "GET", "/lag")).json).toEqual({ ms: 2000, euMs: 9000, deletes: true });
    const bad = await admin(e, "PUT", "/lag", { ms: -1, euMs: 1.5, deletes: "yes", window: 3 });
    expect(bad.status).toBe(400);
    const text = bad.json.error.errors.join("\n");
    for (const field of ['"ms"', '"euMs"', '"deletes"', '"window"']) expect(text).toContain(field);
    expect((await admin(e, "PUT", "/lag", { ms: 3_600_001 })).json.error.errors[0]).toMatch(/"ms" must be an integer number of milliseconds from 0 to 3600000/);
    expect((await admin(e, "PUT", "/lag", [1])).status).toBe(400);
    // Nothing of a refused body was applied.
    expect((await admin(e, "GET", "/lag")).json).toEqual({ ms: 2000, euMs: 9000, deletes: true });
    const anon = await fetch(`${e.url}/_emulator/lag`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 1 }) });
    expect(anon.status).toBe(401);
  });

  test("a reset returns to the startup settings (EmulatorOptions.lag), and those apply from the start", async () => {
    const other = await start({ lag: { ms: MINUTE, deletes: true } });
    try {
      const api = client(other, `Token token=${other.seed.apiKey}`);
      expect((await admin(other, "GET", "/lag")).json).toEqual({ ms: MINUTE, euMs: 0, deletes: true });
      const res = await api.post("/services", serviceBody(other));
      expect((await api.get(`/services/${res.json.service.id}`)).status).toBe(404);
      await admin(other, "PUT", "/lag", { ms: 0 });
      await admin(other, "POST", "/reset");
      expect((await admin(other, "GET", "/lag")).json).toEqual({ ms: MINUTE, euMs: 0, deletes: true });
    } finally {
      await other.close();
    }
  });
});

describe("a hidden service", () => {
  test("its create replies as usual; reads and updates answer the normal 404 body, as for a service that does not exist", async () => {
    await setLag({ ms: MINUTE });
    const s = await newService();
    expect(s).toMatchObject({ type: "service", name: expect.any(String) });
    const hidden = await us.get(`/services/${s.id}`);
    const absent = await us.get("/services/PNOSUCH");
    expect(hidden.status).toBe(404);
    expect(hidden.json).toEqual({ error: { message: "Not Found", code: 2100, errors: [`Service ${s.id} not found`] } });
    expect(Object.keys(hidden.json.error)).toEqual(Object.keys(absent.json.error));
    expect((await us.put(`/services/${s.id}`, { service: { description: "d" } })).status).toBe(404);
    // Update multiple names it as not found, and changes nothing.
    const bulk = await us.put("/services", { services: [{ id: s.id, description: "d" }] });
    expect(bulk.status).toBe(400);
    expect(bulk.json.error.errors[0]).toBe(`"services[0]": service ${s.id} not found`);
    await advance(MINUTE);
    expect((await us.get(`/services/${s.id}`)).json.service.description).toBeNull();
  });

  test("every request under it answers 404: children creates and reads, custom field values, enablements, audit records, convert", async () => {
    await setLag({ ms: MINUTE });
    const s = await newService();
    const under = [
      us.post(`/services/${s.id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } }),
      us.post(`/services/${s.id}/rules`, { rule: {} }),
      us.get(`/services/${s.id}/rules`),
      us.get(`/services/${s.id}/custom_fields/values`),
      us.put(`/services/${s.id}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "gold" }] }),
      us.get(`/services/${s.id}/enablements`),
      us.put(`/services/${s.id}/enablements/aiops`, { enablement: { enabled: false } }),
      us.get(`/services/${s.id}/audit/records`),
      us.post(`/services/${s.id}/rules/convert`),
    ];
    for (const res of await Promise.all(under)) {
      expect(res.status).toBe(404);
      expect(res.json.error.errors).toEqual([`Service ${s.id} not found`]);
    }
    expect(await lagStats()).toEqual({ hidden404: under.length, leftOut: 0 });
    // Nothing was created under it meanwhile.
    await advance(MINUTE);
    const svc = (await us.get(`/services/${s.id}`)).json.service;
    expect(svc.integrations).toEqual([]);
    expect((await us.get(`/services/${s.id}/rules`)).json.rules).toEqual([]);
    expect((await us.get(`/services/${s.id}/audit/records`)).json.records.map((r: { action: string }) => r.action)).toEqual(["create"]);
  });

  test("listings leave it out (name, query, total, pages); its name stays taken", async () => {
    const seen = await newService();
    await setLag({ ms: MINUTE });
    const s = await newService();
    expect(await listedIds("/services", "services")).toEqual([seen.id]);
    expect((await us.get(`/services?name=${encodeURIComponent(s.name)}`)).json.services).toEqual([]);
    expect((await us.get(`/services?query=${encodeURIComponent(s.name)}&total=true`)).json).toMatchObject({ services: [], total: 0, more: false });
    // The name check is on the primary: it sees the hidden service.
    const dup = await us.post("/services", { service: { name: s.name, escalation_policy: { id: e.seed.escalationPolicyId } } });
    expect(dup.status).toBe(400);
    expect(dup.json.error.errors).toContain(`Name has already been taken ("${s.name}")`);
    const renamed = await us.put(`/services/${seen.id}`, { service: { name: s.name } });
    expect(renamed.status).toBe(400);
    const stats = await lagStats();
    expect(stats.leftOut).toBe(3);
    await advance(MINUTE);
    expect((await listedIds("/services", "services")).sort()).toEqual([seen.id, s.id].sort());
  });

  test("deletes work by default; with deletes lagging they answer 404 until the window ends", async () => {
    await setLag({ ms: MINUTE });
    const a = await newService();
    expect((await us.delete(`/services/${a.id}`)).status).toBe(204);
    await advance(MINUTE);
    expect((await us.get(`/services/${a.id}`)).status).toBe(404);

    await setLag({ deletes: true });
    const b = await newService();
    const res = await us.delete(`/services/${b.id}`);
    expect(res.status).toBe(404);
    expect(res.json.error.errors).toEqual([`Service ${b.id} not found`]);
    await advance(MINUTE);
    expect((await us.get(`/services/${b.id}`)).status).toBe(200);
    expect((await us.delete(`/services/${b.id}`)).status).toBe(204);
  });
});

describe("hidden children of a visible service", () => {
  test("a new integration: 404 to read and update, left out of the service's integrations (with and without include[]) and of GET /services", async () => {
    const s = await newService();
    const old = await newIntegration(s.id);
    await setLag({ ms: MINUTE });
    const i = await newIntegration(s.id, { name: "new" });
    expect(i.integration_key).toMatch(/^\w{32}$/);
    const read = await us.get(`/services/${s.id}/integrations/${i.id}`);
    expect(read.status).toBe(404);
    expect(read.json.error.errors).toEqual([`Integration ${i.id} of service ${s.id} not found`]);
    expect((await us.put(`/services/${s.id}/integrations/${i.id}`, { integration: { name: "renamed" } })).status).toBe(404);
    expect((await us.get(`/services/${s.id}/integrations/${old.id}`)).status).toBe(200);
    const embedded = async (path: string) => {
      const body = (await us.get(path)).json;
      return (body.service ?? body.services[0]).integrations.map((x: { id: string }) => x.id);
    };
    expect(await embedded(`/services/${s.id}`)).toEqual([old.id]);
    expect(await embedded(`/services/${s.id}?include[]=integrations`)).toEqual([old.id]);
    expect(await embedded(`/services?include[]=integrations`)).toEqual([old.id]);
    // An update's reply shows the service as a read would.
    expect((await us.put(`/services/${s.id}`, { service: { description: "d" } })).json.service.integrations.map((x: { id: string }) => x.id)).toEqual([old.id]);
    expect(await lagStats()).toEqual({ hidden404: 2, leftOut: 4 });
    await advance(MINUTE);
    expect(await embedded(`/services/${s.id}?include[]=integrations`)).toEqual([old.id, i.id]);
    expect((await us.get(`/services/${s.id}/integrations/${i.id}`)).json.integration.name).toBe("new");
  });

  test("a hidden integration's email address is still taken (uniqueness is checked on the primary)", async () => {
    const s = await newService();
    await setLag({ ms: MINUTE });
    const type = "generic_email_inbound_integration";
    await newIntegration(s.id, { type, integration_email: "lagging@acme.pagerduty.example" });
    const dup = await us.post(`/services/${s.id}/integrations`, { integration: { type, integration_email: "lagging@acme.pagerduty.example" } });
    expect(dup.status).toBe(400);
    expect(dup.json.error.errors[0]).toMatch(/already used/);
  });

  test("a new event rule: 404 to read, update and reorder; left out of the rules listing; older rules keep working", async () => {
    const s = await newService();
    const old = await newRule(s.id);
    await setLag({ ms: MINUTE });
    const r = await newRule(s.id);
    expect(r.position).toBe(1);
    const read = await us.get(`/services/${s.id}/rules/${r.id}`);
    expect(read.status).toBe(404);
    expect(read.json.error.errors).toEqual([`Event rule ${r.id} of service ${s.id} not found`]);
    expect((await us.put(`/services/${s.id}/rules/${r.id}`, { rule: { position: 0 } })).status).toBe(404);
    expect(await listedIds(`/services/${s.id}/rules`, "rules")).toEqual([old.id]);
    expect((await us.get(`/services/${s.id}/rules?total=true`)).json.total).toBe(1);
    expect((await us.put(`/services/${s.id}/rules/${old.id}`, { rule: { disabled: true } })).status).toBe(200);
    await advance(MINUTE);
    expect(await listedIds(`/services/${s.id}/rules`, "rules")).toEqual([old.id, r.id]);
    expect((await us.put(`/services/${s.id}/rules/${r.id}`, { rule: { position: 0 } })).json.rule.position).toBe(0);
  });

  test("audit records of hidden objects are left out of the service's records until their window ends", async () => {
    const s = await newService();
    await setLag({ ms: MINUTE });
    await newIntegration(s.id);
    await newRule(s.id);
    const records = async () =>
      (await us.get(`/services/${s.id}/audit/records`)).json.records.map((x: { details: { resource: { type: string } } }) => x.details.resource.type);
    expect(await records()).toEqual(["service_reference"]);
    expect((await lagStats()).leftOut).toBe(2);
    await advance(MINUTE);
    expect(await records()).toEqual(["service_event_rule_reference", "integration_reference", "service_reference"]);
  });

  test("deletes of hidden children: work by default; 404 with deletes lagging until the window ends", async () => {
    const s = await newService();
    await setLag({ ms: MINUTE });
    const i = await newIntegration(s.id);
    const r = await newRule(s.id);
    expect((await us.delete(`/services/${s.id}/integrations/${i.id}`)).status).toBe(204);
    expect((await us.delete(`/services/${s.id}/rules/${r.id}`)).status).toBe(204);

    await setLag({ deletes: true });
    const i2 = await newIntegration(s.id);
    const r2 = await newRule(s.id);
    expect((await us.delete(`/services/${s.id}/integrations/${i2.id}`)).status).toBe(404);
    expect((await us.delete(`/services/${s.id}/rules/${r2.id}`)).status).toBe(404);
    const hiddenParent = await newService();
    expect((await us.delete(`/services/${hiddenParent.id}`)).status).toBe(404);
    await advance(MINUTE);
    expect((await us.delete(`/services/${hiddenParent.id}`)).status).toBe(204);
    expect((await us.delete(`/services/${s.id}/integrations/${i2.id}`)).status).toBe(204);
    expect((await us.delete(`/services/${s.id}/rules/${r2.id}`)).status).toBe(204);
    expect(await lagStats()).toEqual({ hidden404: 3, leftOut: 0 });
  });
});

describe("regions and time", () => {
  test("each region has its own window, fixed per object at its create", async () => {
    await setLag({ ms: 0, euMs: MINUTE });
    const usSvc = await newService(us);
    const euSvc = await newService(eu, {}, e.seed.eu!.escalationPolicyId);
    expect((await us.get(`/services/${usSvc.id}`)).status).toBe(200);
    expect((await eu.get(`/services/${euSvc.id}`)).status).toBe(404);
    expect((await eu.get("/services")).json.services).toEqual([]);

    // A later change of the settings does not shorten (or lengthen) existing windows.
    await setLag({ ms: 2 * MINUTE, euMs: 0 });
    expect((await eu.get(`/services/${euSvc.id}`)).status).toBe(404);
    const usLate = await newService(us);
    const euLate = await newService(eu, {}, e.seed.eu!.escalationPolicyId);
    expect((await eu.get(`/services/${euLate.id}`)).status).toBe(200);
    expect((await us.get(`/services/${usLate.id}`)).status).toBe(404);
    await advance(MINUTE);
    expect((await eu.get(`/services/${euSvc.id}`)).status).toBe(200);
    expect((await us.get(`/services/${usLate.id}`)).status).toBe(404);
    await advance(MINUTE);
    expect((await us.get(`/services/${usLate.id}`)).status).toBe(200);
  });

  test("children take the window of their account's region", async () => {
    const euSvc = await newService(eu, {}, e.seed.eu!.escalationPolicyId);
    await setLag({ ms: 0, euMs: MINUTE });
    const i = (await eu.post(`/services/${euSvc.id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
    expect((await eu.get(`/services/${euSvc.id}/integrations/${i.id}`)).status).toBe(404);
    const usSvc = await newService(us);
    const ui = await newIntegration(usSvc.id);
    expect((await us.get(`/services/${usSvc.id}/integrations/${ui.id}`)).status).toBe(200);
  });

  test("windows end in real time: after a short window everything is readable and listed", async () => {
    await setLag({ ms: 300, euMs: 400 });
    const s = await newService();
    const euSvc = await newService(eu, {}, e.seed.eu!.escalationPolicyId);
    await sleep(900);
    expect((await us.get(`/services/${s.id}`)).status).toBe(200);
    // Children can be made once their service shows, and show in their turn.
    const i = await newIntegration(s.id);
    const r = await newRule(s.id);
    await sleep(900);
    expect((await us.get(`/services/${s.id}/integrations/${i.id}`)).status).toBe(200);
    expect(await listedIds(`/services/${s.id}/rules`, "rules")).toEqual([r.id]);
    expect((await us.get(`/services/${s.id}`)).json.service.integrations.map((x: { id: string }) => x.id)).toEqual([i.id]);
    expect(await listedIds("/services", "services")).toEqual([s.id]);
    expect((await eu.get(`/services/${euSvc.id}`)).status).toBe(200);
  });
});

describe("transient 404 faults", () => {
  test("a 404 can be injected like the other fault statuses, with the normal not-found body", async () => {
    const s = await newService();
    const f = await admin(e, "POST", "/faults", { route: "GET /services/:id", status: 404, count: 1 });
    expect(f.status).toBe(201);
    const first = await us.get(`/services/${s.id}`);
    expect(first.status).toBe(404);
    expect(first.json.error).toMatchObject({ message: "Not Found", code: 2100 });
    expect((await us.get(`/services/${s.id}`)).status).toBe(200);
    const bad = await admin(e, "POST", "/faults", { route: "*", status: 418 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors[0]).toBe('"status" must be one of 404, 429, 500, 502, 503, 504');
  });
});

describe("the window table (in process)", () => {
  test("ended windows of objects never looked at again are swept, so the table does not grow for good", () => {
    const clock = new Clock();
    const lag = new Lag({ ms: 1000, euMs: 5000, deletes: false }, clock, new Stats());
    for (let n = 0; n < 10_000; n++) lag.created(`P${n}`, "us");
    expect(lag.active).toBe(true);
    clock.advance(1000);
    lag.created("PLAST", "eu");
    expect(lag.isHidden("PLAST")).toBe(true);
    clock.advance(5000);
    expect(lag.isHidden("PLAST")).toBe(false);
    // Nothing left: requests skip every lag check again.
    expect(lag.active).toBe(false);
  });
});

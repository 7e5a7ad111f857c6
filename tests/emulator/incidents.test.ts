// Incidents on the REST API and what they make of a service: its status, last_incident_timestamp,
// the urgency rule, disabled and maintenance services, scopes, the From header, pagination and
// filters, persistence and reset; and alert_creation, which now always reports alerts and incidents.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, bearer, type Client, client, createService, type Emu, registry, sendEvent, serviceWithKey, start, startWithClient, trigger } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

const FROM = { from: "admin@acme.example" };
const status = async (id: string) => (await api.get(`/services/${id}`)).json.service.status;
const act = (key: string, event_action: string, dedup_key: string) => sendEvent(e, { routing_key: key, event_action, dedup_key });

describe("the service's status follows its open incidents", () => {
  test("active → critical (triggered) → warning (acknowledged only) → active (resolved); last_incident_timestamp", async () => {
    const { id, key } = await serviceWithKey(e, api);
    expect(await status(id)).toBe("active");
    expect((await api.get(`/services/${id}`)).json.service.last_incident_timestamp).toBeNull();
    await sendEvent(e, trigger(key, { dedup_key: "a" }));
    expect(await status(id)).toBe("critical");
    const incident = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents[0];
    expect((await api.get(`/services/${id}`)).json.service.last_incident_timestamp).toBe(incident.created_at);
    await act(key, "acknowledge", "a");
    expect(await status(id)).toBe("warning");
    // One triggered incident among acknowledged ones makes it critical again.
    await sendEvent(e, trigger(key, { dedup_key: "b" }));
    expect(await status(id)).toBe("critical");
    await act(key, "resolve", "b");
    expect(await status(id)).toBe("warning");
    await act(key, "resolve", "a");
    expect(await status(id)).toBe("active");
    // The listing computes it the same way.
    expect((await api.get(`/services?query=${(await api.get(`/services/${id}`)).json.service.name}`)).json.services[0].status).toBe("active");
  });

  test("PUT status disabled: events open nothing (202), open incidents stay open, the service shows disabled until enabled", async () => {
    const { id, key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key, { dedup_key: "before" }));
    expect((await api.put(`/services/${id}`, { service: { status: "disabled" } })).json.service.status).toBe("disabled");
    const before = (await admin(e, "GET", "/stats")).json.events;
    const res = await sendEvent(e, trigger(key, { dedup_key: "during" }));
    expect(res.status).toBe(202);
    // Resolving through events does nothing either: the integrations are switched off.
    await act(key, "resolve", "before");
    const list = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents;
    expect(list.map((i: { incident_key: string; status: string }) => [i.incident_key, i.status])).toEqual([["before", "triggered"]]);
    expect((await admin(e, "GET", "/stats")).json.events).toMatchObject({ ignored: before.ignored + 2, incidentsOpened: before.incidentsOpened });
    // Enabling it again: the open incident makes it critical, not active.
    expect((await api.put(`/services/${id}`, { service: { status: "active" } })).json.service.status).toBe("critical");
  });

  test("PUT of a computed status (warning, critical, maintenance) is ignored: a service read and written back keeps its state", async () => {
    const { id, key } = await serviceWithKey(e, api);
    for (const s of ["warning", "critical", "maintenance"]) {
      const res = await api.put(`/services/${id}`, { service: { status: s } });
      expect(res.status).toBe(200);
      expect(res.json.service.status).toBe("active");
    }
    await sendEvent(e, trigger(key));
    const read = (await api.get(`/services/${id}`)).json.service;
    expect(read.status).toBe("critical");
    expect((await api.put(`/services/${id}`, { service: read })).json.service.status).toBe("critical");
    expect((await api.put(`/services/${id}`, { service: { status: "bogus" } })).status).toBe(400);
  });

  test("maintenance (an ongoing maintenance window): status maintenance, events open and resolve nothing, the REST API still resolves", async () => {
    const { id, key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key, { dedup_key: "open" }));
    const now = Date.now() + (await admin(e, "GET", "/clock")).json.offsetMs;
    const w = { start_time: new Date(now).toISOString(), end_time: new Date(now + 3_600_000).toISOString(), services: [{ id, type: "service_reference" }] };
    const window = (await api.post("/maintenance_windows", { maintenance_window: w })).json.maintenance_window;
    expect(await status(id)).toBe("maintenance");
    await sendEvent(e, trigger(key, { dedup_key: "new" }));
    await act(key, "resolve", "open");
    const [incident, ...none] = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents;
    expect(none).toEqual([]);
    expect(incident.status).toBe("triggered");
    expect((await api.put(`/incidents/${incident.id}`, { incident: { type: "incident_reference", status: "resolved" } }, FROM)).json.incident.status).toBe(
      "resolved",
    );
    // Ending the window ends the maintenance.
    expect((await api.delete(`/maintenance_windows/${window.id}`)).status).toBe(204);
    expect(await status(id)).toBe("active");
    // Disabled wins over maintenance.
    await api.post("/maintenance_windows", { maintenance_window: w });
    expect(await status(id)).toBe("maintenance");
    await api.put(`/services/${id}`, { service: { status: "disabled" } });
    expect(await status(id)).toBe("disabled");
  });

  test("deleting a service deletes its incidents", async () => {
    const { id, key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key));
    const incident = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents[0];
    await api.delete(`/services/${id}`);
    expect((await api.get(`/incidents/${incident.id}`)).status).toBe(404);
  });
});

describe("urgency from the service's incident_urgency_rule", () => {
  test("constant, severity_based (critical/error high, warning/info low)", async () => {
    const low = await serviceWithKey(e, api, { incident_urgency_rule: { type: "constant", urgency: "low" } });
    const bySeverity = await serviceWithKey(e, api, { incident_urgency_rule: { type: "constant", urgency: "severity_based" } });
    await sendEvent(e, trigger(low.key, {}, { severity: "critical" }));
    for (const severity of ["critical", "error", "warning", "info"]) await sendEvent(e, trigger(bySeverity.key, { dedup_key: severity }, { severity }));
    expect((await api.get(`/incidents?service_ids[]=${low.id}`)).json.incidents[0].urgency).toBe("low");
    const list = (await api.get(`/incidents?service_ids[]=${bySeverity.id}&sort_by=incident_number`)).json.incidents;
    expect(list.map((i: { incident_key: string; urgency: string }) => [i.incident_key, i.urgency])).toEqual([
      ["critical", "high"],
      ["error", "high"],
      ["warning", "low"],
      ["info", "low"],
    ]);
  });

  test("use_support_hours: during and outside the hours, read in the support hours' time zone", async () => {
    // Its own emulator: the clock moves years ahead (API keys do not expire, tokens would).
    const own = await start();
    try {
      const key = (await registry(own)).apiKeys.find((k) => k.kind === "account" && !k.readOnly && k.account === "acme")!.token;
      const c = client(own, `Token token=${key}`);
      const svc = await serviceWithKey(own, c, {
        incident_urgency_rule: {
          type: "use_support_hours",
          during_support_hours: { type: "constant", urgency: "high" },
          outside_support_hours: { type: "constant", urgency: "severity_based" },
        },
        support_hours: { type: "fixed_time_per_day", time_zone: "Asia/Tokyo", start_time: "09:00:00", end_time: "17:00:00", days_of_week: [1, 2, 3, 4, 5] },
      });
      const urgencyAt = async (at: string, dedup_key: string) => {
        expect((await admin(own, "POST", "/clock", { at })).status).toBe(200);
        await sendEvent(own, trigger(svc.key, { dedup_key }, { severity: "warning" }));
        return (await c.get(`/incidents?incident_key=${dedup_key}&date_range=all`)).json.incidents[0].urgency;
      };
      // Monday 2031-01-06 10:00 in Tokyo is 01:00 UTC: during (UTC would say outside).
      expect(await urgencyAt("2031-01-06T01:00:00Z", "mon-10-tokyo")).toBe("high");
      // Monday 18:00 in Tokyo (09:00 UTC, within UTC's 9 to 5): outside, so severity decides.
      expect(await urgencyAt("2031-01-06T09:00:00Z", "mon-18-tokyo")).toBe("low");
      // Saturday 2031-01-11 10:00 in Tokyo: not a support day.
      expect(await urgencyAt("2031-01-11T01:00:00Z", "sat-10-tokyo")).toBe("low");
      expect((await admin(own, "POST", "/clock", { at: "2020-01-01T00:00:00Z" })).status).toBe(400);
    } finally {
      await own.close();
    }
  });
});

describe("REST endpoints", () => {
  test("scopes: incidents.read for reads, incidents.write for updates", async () => {
    const { key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key));
    const id = (await api.get("/incidents")).json.incidents[0].id;
    const scopes = e.seed.oauth.scopes.split(" ");
    const noRead = await bearer(e, scopes.filter((s) => s !== "incidents.read").join(" "));
    for (const path of ["/incidents", `/incidents/${id}`]) {
      const res = await noRead.get(path);
      expect(res.status).toBe(403);
      expect(res.json.error.required_scopes).toEqual(["incidents.read"]);
    }
    const noWrite = await bearer(e, scopes.filter((s) => s !== "incidents.write").join(" "));
    const res = await noWrite.put(`/incidents/${id}`, { incident: { type: "incident_reference", status: "acknowledged" } }, FROM);
    expect(res.json.error.required_scopes).toEqual(["incidents.write"]);
    const readOnly = (await registry(e)).apiKeys.find((k) => k.readOnly && k.account === "acme")!.token;
    expect((await client(e, `Token token=${readOnly}`).get(`/incidents/${id}`)).status).toBe(200);
    expect((await client(e, `Token token=${readOnly}`).put(`/incidents/${id}`, { incident: { type: "incident" } }, FROM)).status).toBe(403);
  });

  test("PUT /incidents/{id}: an account key or app token names the acting user in From; a user key is its user", async () => {
    const { key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key, { dedup_key: "from" }));
    const incident = (await api.get("/incidents?incident_key=from")).json.incidents[0];
    const body = { incident: { type: "incident_reference", status: "acknowledged" } };
    const missing = await api.put(`/incidents/${incident.id}`, body);
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: 2016, message: 'You must specify a user\'s email address in the "From" header to perform this action' });
    const stranger = await api.put(`/incidents/${incident.id}`, body, { from: "nobody@example.com" });
    expect(stranger.status).toBe(400);
    expect(stranger.json.error.errors[0]).toMatch(/not the email address of a user/);
    const ok = await api.put(`/incidents/${incident.id}`, body, { from: "ADMIN@acme.example" });
    expect(ok.status).toBe(200);
    const users = (await registry(e)).users;
    const ada = users.find((u) => u.email === "admin@acme.example")!;
    expect(ok.json.incident).toMatchObject({ status: "acknowledged", last_status_change_by: { id: ada.id, type: "user_reference" } });
    expect(ok.json.incident.acknowledgements[0].acknowledger).toMatchObject({ id: ada.id, type: "user_reference" });
    const userKey = (await registry(e)).apiKeys.find((k) => k.kind === "user")!;
    const resolved = await client(e, `Token token=${userKey.token}`).put(`/incidents/${incident.id}`, { incident: { type: "incident", status: "resolved" } });
    expect(resolved.json.incident).toMatchObject({ status: "resolved", last_status_change_by: { id: userKey.userId, type: "user_reference" } });
    // Title and urgency; a reopen; a body without type names it.
    const edited = await api.put(`/incidents/${incident.id}`, { incident: { type: "incident", status: "triggered", title: "renamed", urgency: "low" } }, FROM);
    expect(edited.json.incident).toMatchObject({
      status: "triggered",
      title: "renamed",
      summary: `[#${incident.incident_number}] renamed`,
      urgency: "low",
      resolved_at: null,
    });
    const noType = await api.put(`/incidents/${incident.id}`, { incident: { status: "resolved" } }, FROM);
    expect(noType.status).toBe(400);
    expect(noType.json.error.errors).toEqual(['"type" is required']);
  });

  test("show by id or incident number; other accounts' incidents are 404", async () => {
    const { key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key, { dedup_key: "by-number" }));
    const incident = (await api.get("/incidents?incident_key=by-number")).json.incidents[0];
    expect((await api.get(`/incidents/${incident.incident_number}`)).json.incident.id).toBe(incident.id);
    const show = (await api.get(`/incidents/${incident.id}?include[]=services`)).json.incident;
    expect(show.service).toMatchObject({ type: "service", status: "critical" });
    expect((await api.get("/incidents/PNOPE00")).status).toBe(404);
  });

  test("filters (service_ids[], statuses[], urgencies[], incident_key), sort_by and offset pagination with total", async () => {
    const { id, key } = await serviceWithKey(e, api);
    for (const k of ["p1", "p2", "p3", "p4", "p5"]) await sendEvent(e, trigger(key, { dedup_key: k }));
    await act(key, "acknowledge", "p2");
    await act(key, "resolve", "p3");
    const q = `/incidents?service_ids[]=${id}`;
    const page1 = (await api.get(`${q}&limit=2&total=true`)).json;
    expect(page1).toMatchObject({ limit: 2, offset: 0, more: true, total: 5 });
    expect(page1.incidents.map((i: { incident_key: string }) => i.incident_key)).toEqual(["p1", "p2"]);
    const page3 = (await api.get(`${q}&limit=2&offset=4`)).json;
    expect(page3).toMatchObject({ more: false, total: null });
    expect(page3.incidents.map((i: { incident_key: string }) => i.incident_key)).toEqual(["p5"]);
    const open = (await api.get(`${q}&statuses[]=triggered&statuses[]=acknowledged`)).json.incidents;
    expect(open.map((i: { incident_key: string }) => i.incident_key)).toEqual(["p1", "p2", "p4", "p5"]);
    const desc = (await api.get(`${q}&sort_by=incident_number:desc`)).json.incidents;
    expect(desc[0].incident_key).toBe("p5");
    expect((await api.get(`${q}&urgencies[]=low`)).json.incidents).toEqual([]);
    expect((await api.get(`/incidents?incident_key=p4&service_ids[]=${id}`)).json.incidents).toHaveLength(1);
    const bad = await api.get("/incidents?statuses[]=open");
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors[0]).toMatch(/"statuses\[\]" must be one of: triggered, acknowledged, resolved/);
    expect((await api.get("/incidents?sort_by=name")).status).toBe(400);
    expect((await api.get("/incidents?include[]=everything")).status).toBe(400);
  });

  test("the index covers the last month unless since/until or date_range=all say otherwise", async () => {
    const { id, key } = await serviceWithKey(e, api);
    await sendEvent(e, trigger(key));
    const created = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents[0].created_at;
    const later = new Date(Date.parse(created) + 40 * 86_400_000).toISOString();
    expect((await api.get(`/incidents?service_ids[]=${id}&until=${later}`)).json.incidents).toEqual([]);
    expect((await api.get(`/incidents?service_ids[]=${id}&since=${created}&until=${later}`)).json.incidents).toHaveLength(1);
    expect((await api.get(`/incidents?service_ids[]=${id}&date_range=all`)).json.incidents).toHaveLength(1);
    expect((await api.get("/incidents?since=soon")).status).toBe(400);
  });
});

describe("alert_creation", () => {
  test("create_incidents is accepted on create and update and reported as create_alerts_and_incidents", async () => {
    const created = await api.post("/services", {
      service: { name: `legacy-${Date.now()}`, escalation_policy: { id: e.seed.escalationPolicyId }, alert_creation: "create_incidents" },
    });
    expect(created.status).toBe(201);
    expect(created.json.service.alert_creation).toBe("create_alerts_and_incidents");
    const id = created.json.service.id;
    const updated = await api.put(`/services/${id}`, { service: { alert_creation: "create_incidents" } });
    expect(updated.status).toBe(200);
    expect(updated.json.service.alert_creation).toBe("create_alerts_and_incidents");
    expect((await api.put(`/services/${id}`, { service: { alert_creation: "never" } })).status).toBe(400);
  });
});

describe("persistence, reset, lag", () => {
  test("incidents survive a restart with --data; numbers continue; a reset clears them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pd-emulator-incidents-"));
    let onExit = async () => {};
    try {
      const file = join(dir, "state.json");
      // One public URL, so links are the same across the two ports.
      const opts = { dataFile: file, publicUrl: "http://emulator.test" };
      const one = await start(opts);
      const key1 = (await registry(one)).apiKeys.find((k) => k.kind === "account" && !k.readOnly && k.account === "acme")!.token;
      const c1 = client(one, `Token token=${key1}`);
      const svc = await serviceWithKey(one, c1);
      await sendEvent(one, trigger(svc.key, { dedup_key: "kept" }));
      const before = (await c1.get("/incidents")).json.incidents[0];
      await one.close();

      const two = await start(opts);
      onExit = () => two.close();
      const c2 = client(two, `Token token=${key1}`);
      expect((await c2.get(`/incidents/${before.id}`)).json.incident).toEqual(before);
      expect((await c2.get(`/services/${svc.id}`)).json.service.status).toBe("critical");
      await sendEvent(two, trigger(svc.key, { dedup_key: "next" }));
      expect((await c2.get("/incidents?incident_key=next")).json.incidents[0].incident_number).toBe(before.incident_number + 1);
      await admin(two, "POST", "/reset");
      expect((await c2.get("/incidents")).json.incidents).toEqual([]);
      expect((await admin(two, "GET", "/stats")).json.events).toEqual({ accepted: 0, incidentsOpened: 0, ignored: 0 });
    } finally {
      await onExit();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an integration in its consistency-lag window already receives events (the events pipeline is separate)", async () => {
    await admin(e, "PUT", "/lag", { ms: 60_000 });
    try {
      const id = await createService(e, api);
      await admin(e, "POST", "/clock", { advanceMs: 61_000 });
      const created = (await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
      expect((await api.get(`/services/${id}/integrations/${created.id}`)).status).toBe(404);
      expect((await sendEvent(e, trigger(created.integration_key))).status).toBe(202);
      expect((await api.get(`/incidents?service_ids[]=${id}`)).json.incidents).toHaveLength(1);
    } finally {
      await admin(e, "PUT", "/lag", { ms: 0 });
    }
  });
});

// Maintenance windows (`/maintenance_windows`), as PagerDuty's REST API v2 serves them and as its
// Terraform provider (through heimweh/go-pagerduty) and PagerDuty/go-pagerduty call them: create,
// list with filters and pagination, show, update, delete of future, ongoing and ended windows, and
// what an ongoing window does to the services it names (status "maintenance", events open nothing).
// PagerDuty's pages for what is checked here:
// https://developer.pagerduty.com/api-reference/b3A6Mjc0ODE1OA-create-a-maintenance-window (times,
//   services; "If this date is in the past, it will be updated to be the current time")
// https://support.pagerduty.com/docs/maintenance-windows ("no new incidents will trigger";
//   "incidents cannot be resolved through the Events API" during maintenance)
// https://rubydoc.info/gems/pager_duty/0.1.2/PagerDuty/Client/MaintenanceWindows ("Once started, a
//   maintenance window cannot be deleted; it can only be ended immediately")
import { admin, bearer, type Client, client, createService, type Emu, sendEvent, serviceWithKey, start, trigger } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => {
  e = await start();
  api = await bearer(e);
});
afterAll(() => e.close());

const HOUR = 3_600_000;
const now = async () => Date.parse((await admin(e, "GET", "/clock")).json.now);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const advance = (ms: number) => admin(e, "POST", "/clock", { advanceMs: ms });
const body = (services: string[], startMs: number, endMs: number, extra: Record<string, unknown> = {}) => ({
  maintenance_window: {
    start_time: iso(startMs),
    end_time: iso(endMs),
    services: services.map((id) => ({ id, type: "service_reference" })),
    ...extra,
  },
});
async function window(services: string[], fromNow: number, length: number, extra: Record<string, unknown> = {}) {
  const t = await now();
  const res = await api.post("/maintenance_windows", body(services, t + fromNow, t + fromNow + length, extra));
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.json.maintenance_window;
}
const status = async (id: string) => (await api.get(`/services/${id}`)).json.service.status;

describe("create, show, update", () => {
  test("POST answers 201 with the window as PagerDuty renders it; GET shows the same", async () => {
    const sid = await createService(e, api);
    const t = await now();
    const res = await api.post("/maintenance_windows", body([sid], t + HOUR, t + 2 * HOUR, { type: "maintenance_window", description: "DB upgrade" }));
    expect(res.status).toBe(201);
    const w = res.json.maintenance_window;
    expect(w).toEqual({
      id: expect.stringMatching(/^P[0-9A-Z]{6}$/),
      type: "maintenance_window",
      summary: "DB upgrade",
      self: `${e.apiUrl}/maintenance_windows/${w.id}`,
      html_url: `${e.apiUrl}/maintenance_windows#${w.id}`,
      sequence_number: expect.any(Number),
      start_time: iso(t + HOUR),
      end_time: iso(t + 2 * HOUR),
      description: "DB upgrade",
      // An app token names no user.
      created_by: null,
      services: [{ id: sid, type: "service_reference", summary: expect.any(String), self: `${e.apiUrl}/services/${sid}`, html_url: expect.any(String) }],
      teams: [],
    });
    expect((await api.get(`/maintenance_windows/${w.id}`)).json).toEqual({ maintenance_window: w });
    const next = await window([sid], HOUR, HOUR);
    expect(next.sequence_number).toBe(w.sequence_number + 1);
  });

  test("what Terraform's client sends (no type, no From) is enough; a From header names created_by; times are read with their offset", async () => {
    const sid = await createService(e, api);
    const key = client(e, `Token token=${e.seed.apiKey}`);
    const t = await now();
    const start = new Date(t + HOUR);
    // The same instant written at -05:00.
    const local = new Date(start.getTime() - 5 * HOUR).toISOString().replace(/\.\d{3}Z$/, "-05:00");
    const bare = await key.post("/maintenance_windows", { maintenance_window: { start_time: local, end_time: iso(t + 2 * HOUR), services: [{ id: sid }] } });
    expect(bare.status).toBe(201);
    expect(bare.json.maintenance_window).toMatchObject({ start_time: iso(Math.floor((t + HOUR) / 1000) * 1000), created_by: null, description: null });
    const from = await fetch(`${e.apiUrl}/maintenance_windows`, {
      method: "POST",
      headers: { authorization: `Token token=${e.seed.apiKey}`, "content-type": "application/json", from: "admin@acme.example" },
      body: JSON.stringify(body([sid], t + HOUR, t + 2 * HOUR)),
    });
    const made = ((await from.json()) as { maintenance_window: { created_by: unknown } }).maintenance_window;
    expect(made.created_by).toMatchObject({ type: "user_reference", summary: "Ada Admin" });
    const stranger = await fetch(`${e.apiUrl}/maintenance_windows`, {
      method: "POST",
      headers: { authorization: `Token token=${e.seed.apiKey}`, "content-type": "application/json", from: "nobody@example.com" },
      body: JSON.stringify(body([sid], t + HOUR, t + 2 * HOUR)),
    });
    expect(stranger.status).toBe(400);
  });

  test("a start in the past becomes now", async () => {
    const sid = await createService(e, api);
    const t = await now();
    const w = (await api.post("/maintenance_windows", body([sid], t - 2 * HOUR, t + HOUR))).json.maintenance_window;
    expect(Date.parse(w.start_time)).toBeGreaterThanOrEqual(Math.floor(t / 1000) * 1000);
    expect(Date.parse(w.start_time)).toBeLessThan(t + 60_000);
  });

  test("bad input: each problem named", async () => {
    const sid = await createService(e, api);
    const t = await now();
    const errors = async (b: unknown) => {
      const res = await api.post("/maintenance_windows", b);
      return [res.status, res.json.error.errors];
    };
    expect(await errors({ maintenance_window: { start_time: iso(t + HOUR) } })).toEqual([400, ['"end_time" is required', '"services" is required']]);
    expect(await errors(body([], t + HOUR, t + 2 * HOUR))).toEqual([400, ['"services" must not be empty']]);
    expect(await errors(body([sid], t + HOUR, t + 2 * HOUR, { type: "service" }))).toEqual([400, ['"type" must be one of: maintenance_window']]);
    expect(await errors({ maintenance_window: { start_time: "tomorrow", end_time: iso(t + HOUR), services: [{ id: sid }] } })).toEqual([
      400,
      [expect.stringMatching(/^"start_time" must be an ISO 8601 date and time/)],
    ]);
    expect(await errors({ maintenance_window: { start_time: iso(t + HOUR), end_time: "2026-13-45T00:00:00Z", services: [{ id: sid }] } })).toEqual([
      400,
      [expect.stringMatching(/^"end_time" must be an ISO 8601 date and time/)],
    ]);
    expect(await errors(body([sid], t + 2 * HOUR, t + HOUR))).toEqual([400, [expect.stringMatching(/^"end_time" \(.*\) must be after "start_time"/)]]);
    expect(await errors(body([sid], t - 2 * HOUR, t - HOUR))).toEqual([400, [expect.stringMatching(/^"end_time" must be in the future/)]]);
    expect(await errors(body([sid, "PNOPE00"], t + HOUR, t + 2 * HOUR))).toEqual([404, ["Service PNOPE00 (maintenance_window.services) not found"]]);
    // Another account's service is not the caller's.
    const eu = client(e, `Token token=${e.seed.eu!.apiKey}`, e.euApiUrl);
    expect((await eu.post("/maintenance_windows", body([sid], t + HOUR, t + 2 * HOUR))).status).toBe(404);
    expect((await eu.get("/maintenance_windows")).json.maintenance_windows).toEqual([]);
  });

  test("PUT changes what it is sent and keeps the rest; an ongoing window sent back as read keeps its start; an ended one cannot be changed", async () => {
    const a = await createService(e, api);
    const b = await createService(e, api);
    const w = await window([a], HOUR, HOUR, { description: "first" });
    const put = await api.put(`/maintenance_windows/${w.id}`, { maintenance_window: { description: "second", services: [{ id: b }] } });
    expect(put.status).toBe(200);
    expect(put.json.maintenance_window).toMatchObject({ description: "second", start_time: w.start_time, end_time: w.end_time, services: [{ id: b }] });
    await advance(HOUR + 1000);
    const read = (await api.get(`/maintenance_windows/${w.id}`)).json.maintenance_window;
    const later = Date.parse(read.end_time) + HOUR;
    const extended = await api.put(`/maintenance_windows/${w.id}`, { maintenance_window: { start_time: read.start_time, end_time: iso(later) } });
    expect(extended.json.maintenance_window).toMatchObject({ start_time: w.start_time, end_time: iso(later) });
    await advance(2 * HOUR);
    const ended = await api.put(`/maintenance_windows/${w.id}`, { maintenance_window: { description: "too late" } });
    expect(ended.status).toBe(400);
    expect(ended.json.error.errors).toEqual([expect.stringMatching(/^Maintenance window \w+ ended at .*: an ended window cannot be changed$/)]);
  });
});

describe("delete", () => {
  test("a future window is deleted; an ongoing one ends now; an ended one answers 405 (what Terraform takes as deleted)", async () => {
    const sid = await createService(e, api);
    const future = await window([sid], HOUR, HOUR);
    expect((await api.delete(`/maintenance_windows/${future.id}`)).status).toBe(204);
    expect((await api.get(`/maintenance_windows/${future.id}`)).status).toBe(404);

    const ongoing = await window([sid], 0, HOUR);
    expect(await status(sid)).toBe("maintenance");
    expect((await api.delete(`/maintenance_windows/${ongoing.id}`)).status).toBe(204);
    const ended = (await api.get(`/maintenance_windows/${ongoing.id}`)).json.maintenance_window;
    expect(Date.parse(ended.end_time)).toBeLessThanOrEqual(await now());
    expect(await status(sid)).toBe("active");

    const again = await api.delete(`/maintenance_windows/${ongoing.id}`);
    expect(again.status).toBe(405);
    expect(again.json.error).toEqual({
      message: "Method Not Allowed",
      code: 2001,
      errors: [expect.stringMatching(/^Maintenance window \w+ ended at .*: an ended window cannot be deleted$/)],
    });
    expect((await api.delete("/maintenance_windows/PNOPE00")).status).toBe(404);
  });

  test("a deleted service leaves its windows; a window left with no service goes", async () => {
    const a = await createService(e, api);
    const b = await createService(e, api);
    const both = await window([a, b], HOUR, HOUR);
    const alone = await window([a], HOUR, HOUR);
    expect((await api.delete(`/services/${a}`)).status).toBe(204);
    expect((await api.get(`/maintenance_windows/${both.id}`)).json.maintenance_window.services.map((s: { id: string }) => s.id)).toEqual([b]);
    expect((await api.get(`/maintenance_windows/${alone.id}`)).status).toBe(404);
  });
});

describe("list", () => {
  test("filter (past, ongoing, future, open, all), service_ids[], team_ids[], query; offset pagination", async () => {
    const s1 = await createService(e, api);
    const s2 = await createService(e, api);
    const tag = `q${Date.now()}`;
    const past = await window([s1], 0, HOUR, { description: `${tag} past` });
    await advance(HOUR + 1000);
    const ongoing = await window([s1, s2], 0, HOUR, { description: `${tag} ongoing` });
    const future = await window([s2], 2 * HOUR, HOUR, { description: `${tag} future` });
    const ids = async (q: string) => (await api.get(`/maintenance_windows?query=${tag}&${q}`)).json.maintenance_windows.map((w: { id: string }) => w.id);
    expect(await ids("filter=past")).toEqual([past.id]);
    expect(await ids("filter=ongoing")).toEqual([ongoing.id]);
    expect(await ids("filter=future")).toEqual([future.id]);
    expect(await ids("filter=open")).toEqual([ongoing.id, future.id]);
    expect(await ids("filter=all")).toEqual([past.id, ongoing.id, future.id]);
    expect(await ids("")).toEqual([past.id, ongoing.id, future.id]);
    expect(await ids(`service_ids[]=${s2}`)).toEqual([ongoing.id, future.id]);
    expect(await ids(`service_ids[]=${s1}&filter=open`)).toEqual([ongoing.id]);
    expect(await ids("team_ids[]=PTEAM01")).toEqual([]);
    expect((await api.get(`/maintenance_windows?query=${tag.toUpperCase()}%20ONGOING`)).json.maintenance_windows.map((w: { id: string }) => w.id)).toEqual([
      ongoing.id,
    ]);
    const bad = await api.get("/maintenance_windows?filter=soon");
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors).toEqual([expect.stringMatching(/^"filter" must be one of: past, future, ongoing, open, all/)]);

    const page = await api.get(`/maintenance_windows?query=${tag}&limit=2&offset=1&total=true`);
    expect(page.json).toMatchObject({ limit: 2, offset: 1, more: false, total: 3 });
    expect(page.json.maintenance_windows.map((w: { id: string }) => w.id)).toEqual([ongoing.id, future.id]);
    expect((await api.get(`/maintenance_windows?query=${tag}&limit=1`)).json).toMatchObject({ more: true, total: null });
    await advance(4 * HOUR);
  });

  test('reads take services.read, writes services.write (PagerDuty\'s reference: "Scoped OAuth requires: services.read")', async () => {
    const read = await bearer(e, "services.read");
    expect((await read.get("/maintenance_windows")).status).toBe(200);
    const sid = await createService(e, api);
    const t = await now();
    const denied = await read.post("/maintenance_windows", body([sid], t + HOUR, t + 2 * HOUR));
    expect(denied.status).toBe(403);
    expect(denied.json.error.required_scopes).toEqual(["services.write"]);
  });
});

describe("an ongoing window puts its services in maintenance", () => {
  test("status maintenance while it lasts; events open and resolve nothing and the trace names the window; after it ends they do", async () => {
    const { id, key } = await serviceWithKey(e, api);
    const other = await createService(e, api);
    await sendEvent(e, trigger(key, { dedup_key: "open" }));
    expect(await status(id)).toBe("critical");
    const w = await window([id, other], 60_000, HOUR);
    // Not yet: the window is in the future.
    expect(await status(id)).toBe("critical");
    await advance(61_000);
    expect(await status(id)).toBe("maintenance");
    expect(await status(other)).toBe("maintenance");
    // The listing shows it too.
    expect((await api.get("/services?limit=100")).json.services.find((s: { id: string }) => s.id === other).status).toBe("maintenance");

    const sent = await sendEvent(e, trigger(key, { dedup_key: "during" }));
    expect(sent.status).toBe(202);
    await sendEvent(e, { routing_key: key, event_action: "resolve", dedup_key: "open" });
    const incidents = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents;
    expect(incidents.map((i: { incident_key: string; status: string }) => [i.incident_key, i.status])).toEqual([["open", "triggered"]]);
    const trace = (await admin(e, "GET", `/events?service_id=${id}&dedup_key=during`)).json.events[0];
    expect(trace.outcome).toMatchObject({ kind: "ignored", message: expect.stringContaining(`maintenance window ${w.id} until ${w.end_time}`) });

    // Disabled wins over maintenance.
    await api.put(`/services/${other}`, { service: { status: "disabled" } });
    expect(await status(other)).toBe("disabled");

    await advance(HOUR);
    expect(await status(id)).toBe("critical");
    await sendEvent(e, trigger(key, { dedup_key: "after" }));
    const after = (await api.get(`/incidents?service_ids[]=${id}`)).json.incidents.map((i: { incident_key: string }) => i.incident_key);
    expect(after).toEqual(["open", "after"]);
  });
});

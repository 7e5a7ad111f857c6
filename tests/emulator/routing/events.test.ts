// Events through a service's active orchestration, end to end over HTTP: `POST /v2/enqueue`, then
// what PagerDuty's REST API shows (incidents, their alerts and notes) and what the emulator's admin
// API tells (traces, suppressed alerts, dry runs). One test per action family.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, bearer, type Client, type Emu, sendEvent, serviceWithKey, start, startWithClient, trigger } from "../helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

type Json = Record<string, unknown>;

const orchestrate = async (sid: string, sets: Json[], catchAll: Json = {}) => {
  const res = await api.put(`/event_orchestrations/services/${sid}`, { orchestration_path: { sets, catch_all: { actions: catchAll } } });
  expect(res.status).toBe(200);
  expect((await api.put(`/event_orchestrations/services/${sid}/active`, { active: true })).status).toBe(200);
  return res.json;
};

const incidentsOf = async (sid: string) => (await api.get(`/incidents?service_ids[]=${sid}&sort_by=incident_number`)).json.incidents;
const traceOf = async (key: string) => (await admin(e, "GET", `/events/${encodeURIComponent(key)}/trace`)).json;

async function routed(sets: Json[], catchAll: Json = {}, serviceExtra: Json = {}) {
  const { id, key } = await serviceWithKey(e, api, serviceExtra);
  await orchestrate(id, sets, catchAll);
  return { id, key };
}

test("without an active orchestration an event opens an incident as before, with its alert readable through the REST API", async () => {
  const { id, key } = await serviceWithKey(e, api);
  // A new service's orchestration is active (event rules are gone): switched off, events bypass it.
  expect((await api.put(`/event_orchestrations/services/${id}/active`, { active: false })).status).toBe(200);
  const res = await sendEvent(
    e,
    trigger(key, { dedup_key: "plain-1" }, { custom_details: { disk: "/var" }, component: "postgres", group: "prod", class: "disk" }),
  );
  expect(res.status).toBe(202);
  const eventId = res.headers.get("x-emulator-event-id");
  const [incident] = await incidentsOf(id);
  expect(incident).toMatchObject({ title: "disk full on db-1", urgency: "high", priority: null });
  const alerts = (await api.get(`/incidents/${incident.id}/alerts`)).json;
  expect(alerts).toMatchObject({ limit: 25, offset: 0, more: false });
  expect(alerts.alerts).toEqual([
    expect.objectContaining({
      type: "alert",
      summary: "disk full on db-1",
      status: "triggered",
      alert_key: "plain-1",
      suppressed: false,
      severity: "critical",
      incident: expect.objectContaining({ id: incident.id, type: "incident_reference" }),
      integration: expect.objectContaining({ type: "events_api_v2_inbound_integration_reference" }),
      body: expect.objectContaining({
        type: "alert_body",
        details: { disk: "/var" },
        cef_details: expect.objectContaining({
          summary: "disk full on db-1",
          source_origin: "db-1",
          source_component: "postgres",
          service_group: "prod",
          event_class: "disk",
          dedup_key: "plain-1",
        }),
      }),
    }),
  ]);
  const one = await api.get(`/incidents/${incident.id}/alerts/${alerts.alerts[0].id}`);
  expect(one.json.alert.id).toBe(alerts.alerts[0].id);
  await sendEvent(e, trigger(key, { dedup_key: "long" }, { summary: "x".repeat(1500) }));
  expect((await incidentsOf(id))[1].title).toHaveLength(1024);
  const trace = await traceOf(eventId!);
  expect(trace).toMatchObject({ id: eventId, orchestration: null, sets: [], outcome: { kind: "incident_opened" } });
  expect(JSON.stringify(trace)).not.toContain(key);
});

test("severity with a severity_based urgency rule decides urgency; priority and escalation policy reach the incident; annotate is a note", async () => {
  const priorities = (await api.get("/priorities")).json.priorities;
  const p1 = priorities.find((p: Json) => p.name === "P1");
  const policy = (await admin(e, "POST", "/escalation-policies", { account: "acme", name: "DB team" })).json;
  const { id, key } = await routed(
    [
      {
        id: "start",
        rules: [
          {
            label: "critical database alerts page the DB team",
            conditions: [{ expression: "event.summary matches part 'database' and event.severity matches 'critical'" }],
            actions: { priority: p1.id, escalation_policy: policy.id, annotate: "DB runbook: {{event.source}}" },
          },
          { label: "warnings stay low", conditions: [{ expression: "event.severity matches 'warning'" }], actions: { severity: "info" } },
        ],
      },
    ],
    {},
    { incident_urgency_rule: { type: "constant", urgency: "severity_based" } },
  );
  await sendEvent(e, trigger(key, { dedup_key: "db" }, { summary: "Database down", source: "db-7", severity: "critical" }));
  await sendEvent(e, trigger(key, { dedup_key: "warn" }, { summary: "Disk at 80%", severity: "error" }));
  await sendEvent(e, trigger(key, { dedup_key: "low" }, { summary: "Disk at 70%", severity: "warning" }));
  const [db, err, low] = await incidentsOf(id);
  expect(db).toMatchObject({
    urgency: "high",
    priority: { id: p1.id, type: "priority_reference", summary: "P1" },
    escalation_policy: { id: policy.id, summary: "DB team" },
  });
  expect((await api.get(`/incidents/${db.id}/notes`)).json.notes).toEqual([expect.objectContaining({ content: "DB runbook: db-7" })]);
  expect(err).toMatchObject({ urgency: "high", priority: null });
  expect(low.urgency).toBe("low");
  expect((await api.get(`/incidents/${low.id}/alerts`)).json.alerts[0].severity).toBe("info");
  const t = await traceOf("low");
  expect(t.sets[0]).toMatchObject({ set: "start", matched: { label: "warnings stay low", index: 1 }, catch_all: false });
  expect(t.result).toMatchObject({ severity: "info", urgency: "low" });
});

test("suppress: an alert without an incident, listed by the admin API; a resolve resolves it", async () => {
  const { id, key } = await routed([
    { id: "start", rules: [{ conditions: [{ expression: "event.summary matches part 'health check'" }], actions: { suppress: true } }] },
  ]);
  await sendEvent(e, trigger(key, { dedup_key: "hc" }, { summary: "Health check failed" }));
  expect(await incidentsOf(id)).toEqual([]);
  let alerts = (await admin(e, "GET", `/services/${id}/alerts?suppressed=true`)).json.alerts;
  expect(alerts).toEqual([expect.objectContaining({ suppressed: true, incident: null, status: "triggered", alert_key: "hc" })]);
  expect((await traceOf("hc")).outcome).toMatchObject({ kind: "suppressed", incident: null, alert: { suppressed: true } });
  await sendEvent(e, { routing_key: key, event_action: "resolve", dedup_key: "hc" });
  alerts = (await admin(e, "GET", `/services/${id}/alerts`)).json.alerts;
  expect(alerts[0].status).toBe("resolved");
});

test("suspend: the alert is held, then triggers when the emulator's clock passes the hold; a resolve before then opens nothing", async () => {
  const { id, key } = await routed([{ id: "start", rules: [{ conditions: [], actions: { suspend: 300 } }] }]);
  await sendEvent(e, trigger(key, { dedup_key: "held" }));
  await sendEvent(e, trigger(key, { dedup_key: "cancelled" }));
  expect(await incidentsOf(id)).toEqual([]);
  expect((await traceOf("held")).outcome).toMatchObject({ kind: "suspended", suspended_until: expect.any(String) });
  await sendEvent(e, { routing_key: key, event_action: "resolve", dedup_key: "cancelled" });
  expect((await traceOf("cancelled")).outcome.message).toMatch(/resolved before it triggered/);
  await admin(e, "POST", "/clock", { advanceSeconds: 301 });
  const list = await incidentsOf(id);
  expect(list.map((i: Json) => i.incident_key)).toEqual(["held"]);
  const held = (await admin(e, "GET", `/events?service_id=${id}&dedup_key=held`)).json.events[0];
  expect(held.released).toMatchObject({ outcome: { kind: "incident_opened", incident: { id: list[0].id } } });
});

test("event_action: a trigger a rule turns into a resolve resolves the open alert and its incident", async () => {
  const { id, key } = await routed([
    { id: "start", rules: [{ conditions: [{ expression: "event.summary matches part 'recovered'" }], actions: { event_action: "resolve" } }] },
  ]);
  await sendEvent(e, trigger(key, { dedup_key: "cpu" }, { summary: "CPU high" }));
  await sendEvent(e, trigger(key, { dedup_key: "cpu" }, { summary: "CPU recovered" }));
  const [incident] = await incidentsOf(id);
  expect(incident).toMatchObject({ status: "resolved", alert_counts: { all: 1, triggered: 0, resolved: 1 } });
  expect((await traceOf("cpu")).outcome.kind).toBe("resolved");
});

test("variables and extractions: the dedup key and summary come from the event; custom field updates are the incident's", async () => {
  const { id, key } = await routed([
    {
      id: "start",
      rules: [
        {
          actions: {
            variables: [{ name: "host", path: "event.source", type: "regex", value: "host-(\\w+)" }],
            extractions: [
              { target: "event.dedup_key", template: "disk-{{variables.host}}" },
              { target: "event.summary", template: "{{variables.host}}: {{event.summary}}" },
            ],
            incident_custom_field_updates: [{ id: "PFIELD1", value: "{{variables.host}}" }],
          },
        },
      ],
    },
  ]);
  await sendEvent(e, trigger(key, {}, { source: "host-alpha" }));
  await sendEvent(e, trigger(key, {}, { source: "host-alpha", summary: "again" }));
  const list = await incidentsOf(id);
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ incident_key: "disk-alpha", title: "alpha: disk full on db-1" });
  expect((await api.get(`/incidents/${list[0].id}/custom_fields/values`)).json.custom_fields).toEqual([{ id: "PFIELD1", type: "field_value", value: "alpha" }]);
  expect((await traceOf("disk-alpha")).outcome.kind).toBe("deduplicated");
});

test("automation actions and webhooks are recorded on the alert, never sent", async () => {
  const { id, key } = await routed([
    {
      id: "start",
      rules: [
        {
          actions: {
            pagerduty_automation_actions: [{ action_id: "01FJV5A8OA5MKHOYFHV35SM2Z0" }],
            automation_actions: [{ name: "notify", url: "http://127.0.0.1:9/never", auto_send: true, headers: [{ key: "X-Token", value: "hidden" }] }],
          },
        },
      ],
    },
  ]);
  await sendEvent(e, trigger(key, { dedup_key: "auto" }));
  const [alert] = (await admin(e, "GET", `/services/${id}/alerts`)).json.alerts;
  expect(alert.recorded_actions).toEqual([
    { action_id: "01FJV5A8OA5MKHOYFHV35SM2Z0" },
    expect.objectContaining({ name: "notify", url: "http://127.0.0.1:9/never", headers: [{ key: "X-Token", value: "(redacted)" }] }),
  ]);
  expect(JSON.stringify(await traceOf("auto"))).not.toContain("hidden");
});

test("cache variables: trigger_event_count over its window and recent_value, read by rules as cache_var.<name>", async () => {
  const { id, key } = await serviceWithKey(e, api);
  const cv = (body: Json) => api.post(`/event_orchestrations/services/${id}/cache_variables`, { cache_variable: body });
  expect(
    (await cv({ name: "repeats", conditions: [{ expression: "event.source exists" }], configuration: { type: "trigger_event_count", ttl_seconds: 60 } }))
      .status,
  ).toBe(200);
  expect((await cv({ name: "last_host", configuration: { type: "recent_value", source: "event.source", regex: "(.*)" } })).status).toBe(200);
  await orchestrate(id, [
    {
      id: "start",
      rules: [
        { conditions: [{ expression: "cache_var.repeats >= 3" }], actions: { annotate: "{{cache_var.repeats}} repeats, last from {{cache_var.last_host}}" } },
      ],
    },
  ]);
  for (const n of [1, 2, 3]) await sendEvent(e, trigger(key, { dedup_key: `r${n}` }, { source: `web-${n}` }));
  const list = await incidentsOf(id);
  expect((await api.get(`/incidents/${list[0].id}/notes`)).json.notes).toEqual([]);
  expect((await api.get(`/incidents/${list[2].id}/notes`)).json.notes[0].content).toBe("3 repeats, last from web-3");
  const t = await traceOf("r3");
  expect(t.cache_variables).toEqual([
    { name: "repeats", type: "trigger_event_count", disabled: false, matched: true, value: 3, warnings: [] },
    { name: "last_host", type: "recent_value", disabled: false, matched: true, value: "web-3", warnings: [] },
  ]);
  // The window slides: a minute later the count starts again.
  await admin(e, "POST", "/clock", { advanceSeconds: 61 });
  await sendEvent(e, trigger(key, { dedup_key: "r4" }));
  expect((await traceOf("r4")).cache_variables[0].value).toBe(1);
});

test("dedup keys: acknowledge and resolve only through the routing key that opened the alert; time conditions read the emulator's clock", async () => {
  const { id, key } = await routed([
    {
      id: "start",
      rules: [{ conditions: [{ expression: "now in Mon,Tue,Wed,Thu,Fri 09:00:00 to 17:00:00 America/New_York" }], actions: { priority: "in-hours" } }],
    },
  ]);
  const other = (await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration
    .integration_key;
  await admin(e, "POST", "/clock", { at: "2031-01-06T15:00:00Z" }); // Monday 10:00 in New York
  api = await bearer(e); // the app token expired on the way
  await sendEvent(e, trigger(key, { dedup_key: "k" }));
  expect((await traceOf("k")).sets[0].matched).not.toBeNull();
  await sendEvent(e, { routing_key: other, event_action: "acknowledge", dedup_key: "k" });
  expect((await traceOf("k")).outcome.kind).toBe("no_open_alert");
  expect((await incidentsOf(id))[0].status).toBe("triggered");
  await sendEvent(e, { routing_key: key, event_action: "acknowledge", dedup_key: "k" });
  expect((await incidentsOf(id))[0].status).toBe("acknowledged");
  await admin(e, "POST", "/clock", { at: "2031-01-06T23:00:00Z" }); // 18:00 in New York
  await sendEvent(e, trigger(key, { dedup_key: "late" }));
  expect((await traceOf("late")).sets[0]).toMatchObject({ matched: null, catch_all: true });
});

describe("dry run", () => {
  test("evaluates an event by routing key or service and changes nothing", async () => {
    const { id, key } = await routed([
      { id: "start", rules: [{ conditions: [{ expression: "event.severity matches 'info'" }], actions: { suppress: true } }] },
    ]);
    const dry = await admin(e, "POST", "/events/dry-run", trigger(key, { dedup_key: "d" }, { severity: "info" }));
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dry_run: true, outcome: { kind: "suppressed", alert: null }, sets: [{ set: "start", matched: { index: 0 } }] });
    const byService = await admin(e, "POST", `/events/dry-run?service_id=${id}`, {
      event_action: "trigger",
      payload: { summary: "x", source: "y", severity: "critical" },
    });
    expect(byService.json).toMatchObject({ integration: null, outcome: { kind: "incident_opened", message: "would open an incident (urgency high)" } });
    expect(await incidentsOf(id)).toEqual([]);
    expect((await admin(e, "GET", `/services/${id}/alerts`)).json.alerts).toEqual([]);
    expect((await admin(e, "GET", "/events/d/trace")).status).toBe(404);
    expect((await admin(e, "POST", "/events/dry-run", { event_action: "trigger" })).json.errors).toContain("'routing_key' is missing or blank");
  });
});

describe("the emulator's choices where the documentation is silent", () => {
  test("a trigger deduplicated into an open alert applies no actions again: no second note, the alert keeps its severity", async () => {
    const { id, key } = await routed([{ id: "start", rules: [{ conditions: [], actions: { annotate: "seen {{event.severity}}" } }] }]);
    await sendEvent(e, trigger(key, { dedup_key: "same" }, { severity: "critical" }));
    await sendEvent(e, trigger(key, { dedup_key: "same" }, { severity: "info" }));
    const [incident] = await incidentsOf(id);
    expect((await api.get(`/incidents/${incident.id}/notes`)).json.notes.map((n: Json) => n.content)).toEqual(["seen critical"]);
    const [alert] = (await admin(e, "GET", `/services/${id}/alerts`)).json.alerts;
    expect(alert).toMatchObject({ severity: "critical", triggers: 2 });
    expect((await traceOf("same")).outcome).toMatchObject({ kind: "deduplicated", incident: { id: incident.id } });
  });

  test("acknowledge of a suppressed alert changes nothing: there is no incident", async () => {
    const { key } = await routed([{ id: "start", rules: [] }], { suppress: true });
    await sendEvent(e, trigger(key, { dedup_key: "quiet" }));
    await sendEvent(e, { routing_key: key, event_action: "acknowledge", dedup_key: "quiet" });
    expect((await traceOf("quiet")).outcome).toMatchObject({ kind: "no_open_alert", message: expect.stringMatching(/suppressed: there is no incident/) });
  });

  test("a suspended alert triggers when its hold ends even if its service was disabled since", async () => {
    const { id, key } = await routed([{ id: "start", rules: [{ conditions: [], actions: { suspend: 60 } }] }]);
    await sendEvent(e, trigger(key, { dedup_key: "later" }));
    expect((await api.put(`/services/${id}`, { service: { status: "disabled" } })).status).toBe(200);
    await admin(e, "POST", "/clock", { advanceSeconds: 61 });
    expect((await incidentsOf(id)).map((i: Json) => i.incident_key)).toEqual(["later"]);
  });

  test("trigger_count counts a rule's trigger events, the current one included; a disabled service's events are ignored and traced", async () => {
    const { id, key } = await routed([
      { id: "start", rules: [{ conditions: [{ expression: "trigger_count over 5 minutes > 2" }], actions: { priority: "flood" } }] },
    ]);
    for (const n of [1, 2, 3]) await sendEvent(e, trigger(key, { dedup_key: `t${n}` }));
    expect((await traceOf("t2")).sets[0].matched).toBeNull();
    expect((await traceOf("t3")).sets[0].matched).toMatchObject({ index: 0 });
    await api.put(`/services/${id}`, { service: { status: "disabled" } });
    await sendEvent(e, trigger(key, { dedup_key: "off" }));
    expect(await traceOf("off")).toMatchObject({ orchestration: null, sets: [], outcome: { kind: "ignored", message: expect.stringMatching(/disabled/) } });
  });
});

test("alerts and cache variable values survive a restart with --data; a reset clears them and the traces", async () => {
  const dir = mkdtempSync(join(tmpdir(), "routing-"));
  try {
    const file = join(dir, "state.json");
    const one = await start({ dataFile: file });
    const a1 = await bearer(one);
    const { id, key } = await serviceWithKey(one, a1);
    await a1.post(`/event_orchestrations/services/${id}/cache_variables`, {
      cache_variable: { name: "n", configuration: { type: "trigger_event_count", ttl_seconds: 3600 } },
    });
    await a1.put(`/event_orchestrations/services/${id}`, {
      orchestration_path: { sets: [{ id: "start", rules: [] }], catch_all: { actions: { suppress: true } } },
    });
    await a1.put(`/event_orchestrations/services/${id}/active`, { active: true });
    await sendEvent(one, trigger(key, { dedup_key: "p1" }));
    await one.close();
    const two = await start({ dataFile: file });
    try {
      expect((await admin(two, "GET", `/services/${id}/alerts`)).json.alerts).toEqual([expect.objectContaining({ alert_key: "p1", suppressed: true })]);
      await sendEvent(two, trigger(key, { dedup_key: "p2" }));
      const t = (await admin(two, "GET", "/events/p2/trace")).json;
      expect(t.cache_variables[0]).toMatchObject({ name: "n", value: 2 });
      expect((await admin(two, "GET", "/events/p1/trace")).status).toBe(404); // traces live in memory
      await admin(two, "POST", "/reset");
      expect((await admin(two, "GET", "/events")).json.events).toEqual([]);
      expect((await admin(two, "GET", `/services/${id}/alerts`)).status).toBe(404);
    } finally {
      await two.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a service's events reset: its alerts, incidents, cache variable values and trigger counts go, its orchestration and traces stay", async () => {
  const { id, key } = await serviceWithKey(e, api);
  const other = await serviceWithKey(e, api);
  expect(
    (
      await api.post(`/event_orchestrations/services/${id}/cache_variables`, {
        cache_variable: { name: "n", configuration: { type: "trigger_event_count", ttl_seconds: 3600 } },
      })
    ).status,
  ).toBe(200);
  await orchestrate(id, [
    {
      id: "start",
      rules: [
        { conditions: [{ expression: "event.summary matches part 'noise'" }], actions: { suppress: true } },
        { conditions: [{ expression: "trigger_count over 1 hour > 1" }], actions: { annotate: "again" } },
      ],
    },
  ]);
  await sendEvent(e, trigger(key, { dedup_key: "f1" }));
  await sendEvent(e, trigger(key, { dedup_key: "f2" }, { summary: "noise" }));
  await sendEvent(e, trigger(other.key, { dedup_key: "f3" }));
  expect(await incidentsOf(id)).toHaveLength(1);

  const res = await admin(e, "POST", `/services/${id}/events/reset`);
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ service_id: id, removed: { alerts: 2, incidents: 1 } });
  expect(await incidentsOf(id)).toEqual([]);
  expect((await admin(e, "GET", `/services/${id}/alerts`)).json.alerts).toEqual([]);
  expect((await api.get(`/services/${id}`)).json.service.status).toBe("active");
  // The same dedup key opens a new incident; the count and trigger_count start again.
  await sendEvent(e, trigger(key, { dedup_key: "f1" }));
  const t = await traceOf("f1");
  expect(t.outcome.kind).toBe("incident_opened");
  expect(t.cache_variables[0]).toMatchObject({ name: "n", value: 1 });
  expect(t.result.annotations).toEqual([]);
  // Another service and the traces are left alone; an unknown service is a 404.
  expect(await incidentsOf(other.id)).toHaveLength(1);
  expect((await traceOf("f2")).outcome.kind).toBe("suppressed");
  expect((await admin(e, "POST", "/services/PNOPE00/events/reset")).status).toBe(404);
});

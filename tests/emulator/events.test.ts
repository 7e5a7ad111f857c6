// Events API v2 (`POST /v2/enqueue`): validation naming the field, routing keys, dedup keys, and
// the incidents events open, acknowledge and resolve.
import { admin, type Client, type Emu, euClient, euAppToken, sendEvent, serviceWithKey, startWithClient, trigger } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

const incidentsOf = async (serviceId: string) => (await api.get(`/incidents?service_ids[]=${serviceId}&sort_by=incident_number`)).json.incidents;

describe("validation: 400 invalid event, each problem naming its field", () => {
  let key: string;
  beforeAll(async () => ({ key } = await serviceWithKey(e, api)));

  const errorsOf = async (body: unknown) => {
    const res = await sendEvent(e, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "invalid event", message: "Event object is invalid" });
    return res.json.errors as string[];
  };

  test("an empty event names routing_key and event_action", async () => {
    expect(await errorsOf({})).toEqual(["'routing_key' is missing or blank", "'event_action' is missing or blank"]);
  });

  test("a trigger without payload, or with its fields missing or wrong", async () => {
    expect(await errorsOf({ routing_key: key, event_action: "trigger" })).toEqual(["'payload' is missing or blank"]);
    expect(await errorsOf({ routing_key: key, event_action: "trigger", payload: {} })).toEqual([
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' is missing or blank",
    ]);
    expect(await errorsOf(trigger(key, {}, { severity: "Info", timestamp: "yesterday", component: 7 }))).toEqual([
      "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
      "'payload.timestamp' is invalid (must be an ISO 8601 date and time)",
      "'payload.component' must be a string",
    ]);
  });

  test("event_action outside trigger|acknowledge|resolve; acknowledge and resolve need a dedup_key", async () => {
    expect(await errorsOf({ routing_key: key, event_action: "snooze" })).toEqual([
      "'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')",
    ]);
    for (const action of ["acknowledge", "resolve"])
      expect(await errorsOf({ routing_key: key, event_action: action })).toEqual(["'dedup_key' is missing or blank"]);
    expect(await errorsOf(trigger(key, { dedup_key: "k".repeat(256) }))).toEqual(["'dedup_key' is too long (maximum is 255 characters)"]);
  });

  test("a routing key of the wrong shape, or one no integration has; the key itself is never echoed", async () => {
    const bad = "short-key!";
    const res = await sendEvent(e, trigger(bad));
    expect(res.json.errors).toEqual([
      "Length of 'routing_key' is incorrect (should be 32 characters)",
      "'routing_key' cannot contain non-alphanumeric characters.",
    ]);
    const unknown = "0123456789abcdef0123456789abcdef";
    const miss = await sendEvent(e, trigger(unknown));
    expect(miss.status).toBe(400);
    expect(miss.json.errors).toEqual(["Invalid routing key"]);
    expect(miss.text).not.toContain(unknown);
    expect(res.text).not.toContain(bad);
  });

  test("malformed JSON and a body that is not an object answer in the events format", async () => {
    const res = await sendEvent(e, "{not json");
    expect(res.status).toBe(400);
    expect(res.json.status).toBe("invalid event");
    expect(res.json.errors[0]).toMatch(/Malformed request body/);
    expect(await errorsOf([1, 2])).toEqual(["The event must be a JSON object"]);
  });

  test("no Authorization is needed, and a REST credential is not what the events API reads", async () => {
    const res = await sendEvent(e, trigger(key));
    expect(res.status).toBe(202);
  });
});

describe("trigger, acknowledge, resolve with a dedup_key", () => {
  test("a trigger without dedup_key opens an incident and returns a generated key", async () => {
    const { id, key } = await serviceWithKey(e, api);
    const res = await sendEvent(e, trigger(key));
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ status: "success", message: "Event processed", dedup_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const [incident] = await incidentsOf(id);
    expect(incident).toMatchObject({ type: "incident", title: "disk full on db-1", status: "triggered", incident_key: res.json.dedup_key, urgency: "high" });
    expect(incident.summary).toBe(`[#${incident.incident_number}] disk full on db-1`);
  });

  // The Events API's documentation: a trigger with an open alert's dedup key is "applied to" that
  // alert (a trigger log entry on it), so the incident still counts one alert.
  test("a second trigger with the open alert's key goes to that alert: no second alert, no second incident; ack and resolve act on it", async () => {
    const { id, key } = await serviceWithKey(e, api);
    const dedup_key = "db-1/disk";
    expect((await sendEvent(e, trigger(key, { dedup_key }))).json.dedup_key).toBe(dedup_key);
    await sendEvent(e, trigger(key, { dedup_key }, { summary: "still full" }));
    let list = await incidentsOf(id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: "disk full on db-1", alert_counts: { all: 1, triggered: 1, resolved: 0 } });

    expect((await sendEvent(e, { routing_key: key, event_action: "acknowledge", dedup_key })).status).toBe(202);
    list = await incidentsOf(id);
    expect(list[0]).toMatchObject({ status: "acknowledged", last_status_change_by: { id, type: "service_reference" } });
    expect(list[0].acknowledgements).toEqual([{ at: expect.any(String), acknowledger: expect.objectContaining({ id, type: "service_reference" }) }]);

    await sendEvent(e, { routing_key: key, event_action: "resolve", dedup_key });
    list = await incidentsOf(id);
    expect(list[0]).toMatchObject({
      status: "resolved",
      resolved_at: expect.any(String),
      acknowledgements: [],
      alert_counts: { all: 1, triggered: 0, resolved: 1 },
    });

    // The key of a resolved incident opens a new one.
    await sendEvent(e, trigger(key, { dedup_key }));
    list = await incidentsOf(id);
    expect(list.map((i: { status: string }) => i.status)).toEqual(["resolved", "triggered"]);
    expect(list[1].incident_number).toBeGreaterThan(list[0].incident_number);
  });

  test("acknowledge and resolve of a key with no open incident change nothing (202)", async () => {
    const { id, key } = await serviceWithKey(e, api);
    for (const event_action of ["acknowledge", "resolve"]) {
      const res = await sendEvent(e, { routing_key: key, event_action, dedup_key: "nothing-open" });
      expect(res.status).toBe(202);
      expect(res.json.dedup_key).toBe("nothing-open");
    }
    expect(await incidentsOf(id)).toEqual([]);
  });

  test("dedup keys are per service: the same key on two services opens two incidents", async () => {
    const one = await serviceWithKey(e, api);
    const two = await serviceWithKey(e, api);
    await sendEvent(e, trigger(one.key, { dedup_key: "shared" }));
    await sendEvent(e, trigger(two.key, { dedup_key: "shared" }));
    expect(await incidentsOf(one.id)).toHaveLength(1);
    expect(await incidentsOf(two.id)).toHaveLength(1);
  });

  test("an Events API V1 integration's key works too; an email integration has none", async () => {
    const { id } = await serviceWithKey(e, api);
    const v1 = (await api.post(`/services/${id}/integrations`, { integration: { type: "generic_events_api_inbound_integration" } })).json.integration;
    expect((await sendEvent(e, trigger(v1.integration_key))).status).toBe(202);
    expect(await incidentsOf(id)).toHaveLength(1);
  });

  test("the EU events host is /eu/v2/enqueue; statistics count both under one route", async () => {
    const eu = euClient(e, `Bearer ${await euAppToken(e)}`);
    const svc = (await eu.post("/services", { service: { name: `eu-events-${Date.now()}`, escalation_policy: { id: e.seed.eu!.escalationPolicyId } } })).json
      .service.id;
    const key = (await eu.post(`/services/${svc}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration
      .integration_key;
    const before = (await admin(e, "GET", "/stats")).json;
    expect((await sendEvent(e, trigger(key), "/eu")).status).toBe(202);
    const list = (await eu.get(`/incidents?service_ids[]=${svc}`)).json.incidents;
    expect(list).toHaveLength(1);
    expect(list[0].self).toBe(`${e.url}/eu/incidents/${list[0].id}`);
    const after = (await admin(e, "GET", "/stats")).json;
    expect(after.byRoute["POST /v2/enqueue"]["202"]).toBe((before.byRoute["POST /v2/enqueue"]?.["202"] ?? 0) + 1);
    expect(after.events.incidentsOpened).toBe(before.events.incidentsOpened + 1);
  });

  test("a fault on the events route answers in the events format for 429", async () => {
    const { key } = await serviceWithKey(e, api);
    await admin(e, "POST", "/faults", { route: "POST /v2/enqueue", status: 429, count: 1 });
    const res = await sendEvent(e, trigger(key));
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({ status: "throttle event" });
  });
});

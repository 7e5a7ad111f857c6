// Service event orchestrations (issue 36): every service has one; PUT replaces it whole and gives
// rules without an id one; /active (true from the start, as event rules are gone; false makes events
// bypass it, issue 54); the rules conversion writes into it; lag, persistence, reset.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { admin, appToken, bearer, type Client, client, createService, type Emu, sendEvent, serviceWithKey, start, startWithClient, trigger } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

const path = (sid: string) => `/event_orchestrations/services/${sid}`;
const rule = (extra: Record<string, unknown> = {}) => ({
  label: "crit",
  conditions: [{ expression: "event.severity matches 'critical'" }],
  actions: { priority: "P1" },
  ...extra,
});
const body = (sets: unknown[], catchAll: unknown = { actions: {} }) => ({ orchestration_path: { sets, catch_all: catchAll } });

test("a new service's orchestration: a start set with no rules, an empty catch_all, active (event rules are gone)", async () => {
  const sid = await createService(e, api);
  const o = (await api.get(path(sid))).json.orchestration_path;
  expect(o).toMatchObject({ type: "service", parent: { id: sid, type: "service_reference" }, sets: [{ id: "start", rules: [] }], catch_all: { actions: {} } });
  expect((await api.get(`${path(sid)}/active`)).json).toEqual({ active: true });
});

describe("which events an orchestration sees (emulator/README.md)", () => {
  const annotated = [{ id: "start", rules: [{ label: "all", conditions: [], actions: { annotate: "seen by the rules" } }] }];
  const traceOf = async (sid: string) => (await admin(e, "GET", `/events?service_id=${sid}&limit=1`)).json.events[0];
  const notesOf = async (sid: string) => {
    const [incident] = (await api.get(`/incidents?service_ids[]=${sid}`)).json.incidents;
    return (await api.get(`/incidents/${incident.id}/notes`)).json.notes.map((n: { content: string }) => n.content);
  };

  test("a new service's events go through the rules written to it, with no PUT of /active", async () => {
    const { id, key } = await serviceWithKey(e, api);
    expect((await api.put(path(id), body(annotated))).status).toBe(200);
    expect((await sendEvent(e, trigger(key))).status).toBe(202);
    expect(await traceOf(id)).toMatchObject({ orchestration: { version: 1 }, outcome: { kind: "incident_opened" } });
    expect(await notesOf(id)).toEqual(["seen by the rules"]);
  });

  test("active: false makes them bypass it: the trace has no orchestration, the incident no note; true again routes them", async () => {
    const { id, key } = await serviceWithKey(e, api);
    await api.put(path(id), body(annotated));
    expect((await api.put(`${path(id)}/active`, { active: false })).json).toEqual({ active: false });
    await sendEvent(e, trigger(key, { dedup_key: "first" }));
    expect(await traceOf(id)).toMatchObject({ orchestration: null, sets: [], actions: [], outcome: { kind: "incident_opened" } });
    expect(await notesOf(id)).toEqual([]);
    await api.put(`${path(id)}/active`, { active: true });
    await sendEvent(e, trigger(key, { dedup_key: "second" }));
    expect(await traceOf(id)).toMatchObject({ orchestration: { version: 1 } });
  });
});

test("PUT replaces it whole, keeps the ids sent and gives the others 8-hex ids", async () => {
  const sid = await createService(e, api);
  const res = await api.put(
    path(sid),
    body([
      { id: "start", rules: [rule({ id: "keepme01" }), rule({ actions: { route_to: "two" } })] },
      { id: "two", rules: [rule()] },
    ]),
  );
  expect(res.status).toBe(200);
  expect(res.json.warnings).toEqual([]);
  const [start, two] = res.json.orchestration_path.sets;
  expect(start.rules[0].id).toBe("keepme01");
  expect(start.rules[1].id).toMatch(/^[0-9a-f]{8}$/);
  expect(start.rules[1].actions).toEqual({ route_to: "two" });
  expect(two.rules[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}$/), ...rule(), disabled: false });
  // Whole replacement: the second PUT's sets are all there is.
  await api.put(path(sid), body([{ id: "start", rules: [] }]));
  expect((await api.get(path(sid))).json.orchestration_path.sets).toEqual([{ id: "start", rules: [] }]);
});

test('what the Terraform provider sends (every action key, unset ones as "" or null, no catch_all actions) is accepted', async () => {
  const sid = await createService(e, api);
  const actions = {
    drop_event: false,
    route_to: "",
    dynamic_route_to: null,
    suppress: false,
    suspend: null,
    priority: "",
    annotate: "",
    severity: "",
    event_action: "",
    escalation_policy: null,
    variables: [],
    extractions: [],
    pagerduty_automation_actions: [],
    automation_actions: [],
    incident_custom_field_updates: [],
  };
  const res = await api.put(path(sid), {
    orchestration_path: { parent: { id: sid }, sets: [{ id: "start", rules: [{ label: "x", conditions: [], actions, disabled: false }] }], catch_all: {} },
  });
  expect(res.status).toBe(200);
  expect(res.json.orchestration_path.sets[0].rules[0].actions).toEqual({
    suppress: false,
    drop_event: false,
    variables: [],
    extractions: [],
    incident_custom_field_updates: [],
    pagerduty_automation_actions: [],
    automation_actions: [],
  });
});

test("a wrong body is a 400 naming each field by its path; nothing changes", async () => {
  const sid = await createService(e, api);
  const res = await api.put(
    path(sid),
    body(
      [
        { id: "start", rules: [rule({ actions: { route_to: "nowhere", severity: "loud", suspend: -1 } }), { conditions: [{}] }] },
        { id: "start", rules: [] },
      ],
      { actions: { suppress: "yes" } },
    ),
  );
  expect(res.status).toBe(400);
  expect(res.json.error.errors).toEqual([
    '"orchestration_path.sets[1].id" "start" is used by another set',
    '"orchestration_path.sets[0].rules[0].actions.route_to" names set "nowhere", which the orchestration does not have (sets: start)',
    '"orchestration_path.sets[0].rules[0].actions.suspend" must be a non-negative integer',
    '"orchestration_path.sets[0].rules[0].actions.severity" must be one of: info, warning, error, critical',
    '"orchestration_path.sets[0].rules[1].conditions[0].expression" is required',
    '"orchestration_path.catch_all.actions.suppress" must be true or false',
  ]);
  expect((await api.put(path(sid), body([{ id: "other", rules: [] }]))).json.error.errors).toEqual([
    '"orchestration_path.sets" must contain a set with id "start"',
  ]);
  expect((await api.put(path(sid), {})).json.error.errors).toEqual(['"orchestration_path" is required']);
  expect((await api.get(path(sid))).json.orchestration_path.sets).toEqual([{ id: "start", rules: [] }]);
});

test("/active: GET and PUT {active}; a wrong body is a 400", async () => {
  const sid = await createService(e, api);
  expect((await api.put(`${path(sid)}/active`, { active: false })).json).toEqual({ active: false });
  expect((await api.get(`${path(sid)}/active`)).json).toEqual({ active: false });
  expect((await api.put(`${path(sid)}/active`, { active: true })).json).toEqual({ active: true });
  expect((await api.get(`${path(sid)}/active`)).json).toEqual({ active: true });
  const bad = await api.put(`${path(sid)}/active`, { active: "yes" });
  expect([bad.status, bad.json.error.errors]).toEqual([400, ['"active" must be true or false']]);
});

test("404 for an unknown service; scopes services.read / services.write", async () => {
  for (const p of [path("PNOPE00"), `${path("PNOPE00")}/active`]) expect((await api.get(p)).status).toBe(404);
  const sid = await createService(e, api);
  const reader = await bearer(e, "services.read");
  expect((await reader.get(path(sid))).status).toBe(200);
  const denied = await reader.put(path(sid), body([{ id: "start", rules: [] }]));
  expect([denied.status, denied.json.error.code]).toEqual([403, 2010]);
  expect((await reader.put(`${path(sid)}/active`, { active: true })).status).toBe(403);
});

test("converting event rules writes them, one to one and in order, into the start set, and makes the orchestration active", async () => {
  const sid = await createService(e, api);
  const first = {
    conditions: {
      operator: "and",
      subconditions: [
        { operator: "contains", parameters: { path: "payload.summary", value: "db's" } },
        { operator: "nexists", parameters: { path: "payload.custom_details.host", value: "" } },
      ],
    },
    actions: { severity: { value: "critical" }, annotate: { value: "see runbook" }, suppress: { value: false } },
  };
  const second = {
    conditions: {
      operator: "or",
      subconditions: [
        { operator: "equals", parameters: { path: "payload.source", value: "a" } },
        { operator: "nmatches", parameters: { path: "summary", value: "^x" } },
      ],
    },
    time_frame: { scheduled_weekly: { start_time: 9 * 3600_000, duration: 8 * 3600_000, timezone: "Europe/Paris", weekdays: [1, 2, 3, 4, 5] } },
    variables: [{ type: "regex", name: "host", parameters: { path: "payload.source", value: "h-(.*)" } }],
    actions: { extractions: [{ target: "dedup_key", source: "payload.source", regex: "(.*)" }], suspend: { value: 300 } },
    disabled: true,
  };
  for (const r of [first, second]) expect((await api.post(`/services/${sid}/rules`, { rule: r })).status).toBe(201);
  // Switched off by hand first, so the conversion is seen to switch it on.
  await api.put(`${path(sid)}/active`, { active: false });
  await api.post(`/services/${sid}/rules/convert`);
  const o = (await api.get(path(sid))).json.orchestration_path;
  const rules = o.sets[0].rules;
  expect(rules.map((r: { id: string }) => r.id)).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/), expect.stringMatching(/^[0-9a-f]{8}$/)]);
  expect(rules[0]).toMatchObject({
    label: "Converted event rule 1",
    conditions: [{ expression: "event.summary matches part 'db\\'s' and not event.custom_details.host exists" }],
    actions: { severity: "critical", annotate: "see runbook", suppress: false },
    disabled: false,
  });
  const when = "now in Mon,Tue,Wed,Thu,Fri 09:00:00 to 17:00:00 Europe/Paris";
  expect(rules[1]).toMatchObject({
    label: "Converted event rule 2",
    conditions: [{ expression: `(event.source matches 'a') and (${when})` }, { expression: `(not event.summary matches regex '^x') and (${when})` }],
    actions: {
      extractions: [{ target: "event.dedup_key", source: "event.source", regex: "(.*)" }],
      suspend: 300,
      variables: [{ name: "host", path: "event.source", type: "regex", value: "h-(.*)" }],
    },
    disabled: true,
  });
  expect((await api.get(`${path(sid)}/active`)).json).toEqual({ active: true });
  const meta = (await api.get(`${path(sid)}?include[]=migrated_metadata`)).json.orchestration_path;
  expect(meta).toMatchObject({ migrated_status: "completed", migrated_via: "API", migrated_from: { id: sid, type: "service_event_rules_reference" } });
  // Converting again changes nothing.
  await api.post(`/services/${sid}/rules/convert`);
  expect((await api.get(path(sid))).json.orchestration_path.sets[0].rules).toEqual(rules);
});

test("lag: the orchestration of a hidden service 404s like everything under it", async () => {
  await admin(e, "PUT", "/lag", { ms: 60_000 });
  try {
    const sid = await createService(e, api);
    for (const p of [path(sid), `${path(sid)}/active`]) expect((await api.get(p)).status).toBe(404);
    expect((await api.put(path(sid), body([{ id: "start", rules: [] }]))).json.error.errors).toEqual([`Service ${sid} not found`]);
  } finally {
    await admin(e, "PUT", "/lag", { ms: 0 });
  }
});

test("orchestrations survive a restart and go with a reset", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orch-"));
  try {
    const file = join(dir, "state.json");
    const one = await start({ dataFile: file });
    const token = await appToken(one);
    const sid = await createService(one, client(one, `Bearer ${token}`));
    await client(one, `Bearer ${token}`).put(path(sid), body([{ id: "start", rules: [rule({ id: "abcd0123" })] }]));
    await one.close();
    const two = await start({ dataFile: file });
    const api2 = client(two, `Bearer ${token}`);
    expect((await api2.get(path(sid))).json.orchestration_path.sets[0].rules[0].id).toBe("abcd0123");
    await admin(two, "POST", "/reset");
    expect((await client(two, `Token token=${two.seed.apiKey}`).get(path(sid))).status).toBe(404);
    await two.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

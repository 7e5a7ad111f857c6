// Audit records: every change to a service and its children, newest first, cursor-paginated,
// within a since/until window (API-NOTES §3).
import { admin, bearer, type Client, client, createService, type Emu, startWithClient } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

interface AuditRecord {
  id: string;
  execution_time: string;
  action: string;
  method: { type: string; truncated_token: string };
  actors: { type: string; id: string }[];
  root_resource: { id: string; type: string };
  details: { resource: { type: string }; fields: { name: string; value?: string; before_value?: string }[] };
}

const records = async (sid: string, q = ""): Promise<AuditRecord[]> => (await api.get(`/services/${sid}/audit/records${q}`)).json.records;

test("every change to a service and its children is recorded, newest first, with before/after field values", async () => {
  const sid = await createService(e, api, { description: "one" });
  await api.put(`/services/${sid}`, { service: { description: "two" } });
  await api.put(`/services/${sid}`, { service: { description: "two" } }); // no change, no record
  const i = (await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
  await api.post(`/services/${sid}/rules`, { rule: { actions: { annotate: { value: "x" } } } });
  await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "gold" }] });
  await api.put(`/services/${sid}/enablements/aiops`, { enablement: { enabled: false } });
  const list = await records(sid);
  expect(list.map((r) => [r.action, r.details.resource.type])).toEqual([
    ["update", "enablement_reference"],
    ["update", "custom_field_values_reference"],
    ["create", "service_event_rule_reference"],
    ["create", "integration_reference"],
    ["update", "service_reference"],
    ["create", "service_reference"],
  ]);
  const update = list[4];
  expect(update.details.fields).toEqual([{ name: "description", value: "two", before_value: "one" }]);
  expect(update.root_resource).toMatchObject({ id: sid, type: "service_reference" });
  expect(update.method.type).toBe("oauth");
  expect(update.method.truncated_token).toMatch(/^\*{4}.{4}$/);
  expect(update.actors).toEqual([expect.objectContaining({ type: "app_reference" })]);
  // The routing key is a secret: never in audit records.
  expect(JSON.stringify(list)).not.toContain(i.integration_key);
  const times = list.map((r) => Date.parse(r.execution_time));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
});

test("API-key changes are recorded with method api_token", async () => {
  const key = client(e, `Token token=${e.seed.apiKey}`);
  const sid = await createService(e, key);
  const [rec] = await records(sid);
  expect(rec.method.type).toBe("api_token");
  expect(rec.actors[0].type).toBe("api_key_reference");
});

test("cursor pagination: limit, next_cursor until null, each record exactly once; response_metadata present", async () => {
  const sid = await createService(e, api);
  for (let n = 0; n < 4; n++) await api.put(`/services/${sid}`, { service: { description: `d${n}` } });
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await api.get(`/services/${sid}/audit/records?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ limit: 2, response_metadata: expect.any(Object) });
    seen.push(...res.json.records.map((r: AuditRecord) => r.id));
    cursor = res.json.next_cursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(new Set(seen).size).toBe(5);
  expect((await api.get(`/services/${sid}/audit/records?cursor=garbage`)).status).toBe(400);
});

test("since defaults to 24 h ago; until may be at most 31 days after since", async () => {
  // An API key, because the app token would expire when the clock moves a day.
  const key = client(e, `Token token=${e.seed.apiKey}`);
  const sid = await createService(e, key);
  const createdAt = Date.now();
  await admin(e, "POST", "/clock", { advanceSeconds: 25 * 3600 });
  const list = (q = "") => key.get(`/services/${sid}/audit/records${q}`);
  expect((await list()).json.records).toEqual([]);
  const since = new Date(createdAt - 60_000).toISOString();
  expect((await list(`?since=${since}`)).json.records).toHaveLength(1);
  const tooLong = await list(`?since=${since}&until=${new Date(createdAt + 32 * 86_400_000).toISOString()}`);
  expect(tooLong.status).toBe(400);
  expect(tooLong.json.error.code).toBe(2004);
  expect((await list("?since=yesterday")).status).toBe(400);
  await admin(e, "POST", "/reset");
  api = await bearer(e);
});

test("needs audit_records.read; stays readable after the service is deleted; unknown service → 404", async () => {
  const sid = await createService(e, api);
  const noAudit = await bearer(e, "services.read services.write");
  const denied = await noAudit.get(`/services/${sid}/audit/records`);
  expect(denied.status).toBe(403);
  expect(denied.json.error.required_scopes).toEqual(["audit_records.read"]);
  await api.delete(`/services/${sid}`);
  expect((await records(sid)).map((r) => r.action)).toEqual(["delete", "create"]);
  expect((await api.get("/services/PNOSUCH/audit/records")).status).toBe(404);
});

// Services endpoints against the contract's endpoint conventions and generic resource rules.
import { ACCEPT, bearer, type Client, client, createService, type Emu, euClient, registry, send, serviceBody, startWithClient } from "./helpers";

let e: Emu;
let api: Client;

beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

describe("endpoint conventions: create, show, update single, delete", () => {
  test("create → 201 with key `service` and the full object, server defaults filled in", async () => {
    const res = await api.post("/services", serviceBody(e, { name: "checkout", description: "Payments" }));
    expect(res.status).toBe(201);
    const s = res.json.service;
    expect(Object.keys(res.json)).toEqual(["service"]);
    expect(s).toMatchObject({
      type: "service",
      name: "checkout",
      summary: "checkout",
      description: "Payments",
      auto_resolve_timeout: 14400,
      acknowledgement_timeout: 1800,
      status: "active",
      incident_urgency_rule: { type: "constant", urgency: "high" },
      alert_creation: "create_alerts_and_incidents",
      alert_grouping_parameters: { type: null },
      auto_pause_notifications_parameters: { enabled: false, timeout: null },
      support_hours: null,
      scheduled_actions: [],
      teams: [],
      integrations: [],
      addons: [],
      last_incident_timestamp: null,
      escalation_policy: { id: e.seed.escalationPolicyId, type: "escalation_policy_reference", summary: "Default" },
    });
    expect(s.id).toMatch(/^P[A-Z0-9]{6}$/);
    expect(s.self).toBe(`${e.url}/services/${s.id}`);
    expect(typeof s.html_url).toBe("string");
    expect(Number.isNaN(Date.parse(s.created_at))).toBe(false);
    expect(s.escalation_policy.self).toContain(e.seed.escalationPolicyId);
  });

  test("show → 200 with the same representation as the index item", async () => {
    const id = await createService(e, api, { name: "show-me" });
    const show = await api.get(`/services/${id}`);
    expect(show.status).toBe(200);
    const index = await api.get(`/services?name=show-me`);
    expect(index.json.services).toEqual([show.json.service]);
  });

  test("update single → 200; only the fields sent change; null disables a timeout", async () => {
    const id = await createService(e, api, { description: "before" });
    const res = await api.put(`/services/${id}`, { service: { id, type: "service", auto_resolve_timeout: null, acknowledgement_timeout: 600 } });
    expect(res.status).toBe(200);
    expect(res.json.service).toMatchObject({ id, description: "before", auto_resolve_timeout: null, acknowledgement_timeout: 600 });
    expect((await api.get(`/services/${id}`)).json.service.acknowledgement_timeout).toBe(600);
  });

  test("update single with an `id` in the body that names another object → 400", async () => {
    const id = await createService(e, api);
    const res = await api.put(`/services/${id}`, { service: { id: "PNOTME1", name: "x" } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(2001);
  });

  test("rule 2: after delete (204, no body) show returns 404 and the index omits it", async () => {
    const id = await createService(e, api, { name: "doomed" });
    const del = await api.delete(`/services/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const show = await api.get(`/services/${id}`);
    expect(show.status).toBe(404);
    expect(show.json.error).toMatchObject({ message: "Not Found", code: 2100 });
    expect((await api.get("/services?name=doomed")).json.services).toEqual([]);
    expect((await api.delete(`/services/${id}`)).status).toBe(404);
    expect((await api.put(`/services/${id}`, serviceBody(e))).status).toBe(404);
  });

  test("generic rule: read-only and unknown fields in create and update bodies are ignored", async () => {
    const res = await api.post(
      "/services",
      serviceBody(e, {
        // (`type` is not read-only: the description requires "service", see conformance.test.ts.)
        id: "PFAKEID",
        created_at: "1999-01-01T00:00:00Z",
        html_url: "http://x",
        teams: [{ id: "PT" }],
        integrations: [{ id: "PI" }],
        last_incident_timestamp: "x",
        status: "disabled",
        favourite_colour: "blue",
      }),
    );
    expect(res.status).toBe(201);
    const s = res.json.service;
    expect(s.id).not.toBe("PFAKEID");
    expect(s.type).toBe("service");
    expect(s.created_at).not.toBe("1999-01-01T00:00:00Z");
    expect(s.status).toBe("active");
    expect(s.teams).toEqual([]);
    expect(s.integrations).toEqual([]);
    expect(s).not.toHaveProperty("favourite_colour");
    const upd = await api.put(`/services/${s.id}`, { service: { summary: "ignored", self: "ignored", created_at: "x", whatever: 1 } });
    expect(upd.status).toBe(200);
    expect(upd.json.service.summary).toBe(s.name);
    expect(upd.json.service.created_at).toBe(s.created_at);
  });

  test("generic rule: an id of a deleted service is never reused", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const id = await createService(e, api);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      expect((await api.delete(`/services/${id}`)).status).toBe(204);
    }
    // The allocator remembers every id, including deleted ones.
    for (const id of seen) expect(e.core.ids.used.has(id)).toBe(true);
  });
});

describe("errors: invalid create/update → 4xx with specific errors", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["blank name", { name: "  " }, /Name can't be blank/],
    ["missing escalation policy", { escalation_policy: undefined }, /"escalation_policy" is required/],
    ["unknown escalation policy", { escalation_policy: { id: "PNOPE00" } }, /Escalation policy PNOPE00 not found/],
    ["negative timeout", { auto_resolve_timeout: -1 }, /"auto_resolve_timeout" must be a non-negative integer or null/],
    ["fractional timeout", { acknowledgement_timeout: 1.5 }, /"acknowledgement_timeout"/],
    ["timeout as string", { acknowledgement_timeout: "60" }, /"acknowledgement_timeout"/],
    ["bad urgency", { incident_urgency_rule: { type: "constant", urgency: "urgent" } }, /"incident_urgency_rule.urgency" must be one of/],
    ["bad alert_creation", { alert_creation: "nope" }, /"alert_creation" must be one of/],
    ["bad pause timeout", { auto_pause_notifications_parameters: { enabled: true, timeout: 7 } }, /"auto_pause_notifications_parameters.timeout"/],
    [
      "support hours needed",
      {
        incident_urgency_rule: {
          type: "use_support_hours",
          during_support_hours: { type: "constant", urgency: "high" },
          outside_support_hours: { type: "constant", urgency: "low" },
        },
      },
      /"support_hours" is required/,
    ],
    ["name wrong type", { name: 42 }, /"name" must be a string/],
  ];
  test.each(cases)("create with %s → 400 code 2001 naming the field", async (_what, extra, message) => {
    const body = serviceBody(e, extra);
    const res = await api.post("/services", body);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("Invalid Input Provided");
    expect(res.json.error.code).toBe(2001);
    expect(res.json.error.errors.join("\n")).toMatch(message);
  });

  test("several problems are reported together", async () => {
    const res = await api.post("/services", { service: { name: "", auto_resolve_timeout: -5, alert_creation: 3 } });
    expect(res.status).toBe(400);
    expect(res.json.error.errors.length).toBeGreaterThanOrEqual(3);
  });

  test("name is unique per account (create and rename)", async () => {
    await createService(e, api, { name: "unique-name" });
    const dup = await api.post("/services", serviceBody(e, { name: "unique-name" }));
    expect(dup.status).toBe(400);
    expect(dup.json.error.errors[0]).toMatch(/Name has already been taken/);
    const other = await createService(e, api, { name: "other-name" });
    expect((await api.put(`/services/${other}`, { service: { name: "unique-name" } })).status).toBe(400);
  });

  test("the body schema names every wrong field in one 400, before the handler runs", async () => {
    const res = await api.post("/services", { service: { type: "svc", name: "", escalation_policy: { id: 7 }, description: 3, status: "on" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ message: "Invalid Input Provided", code: 2001 });
    expect(res.json.error.errors).toEqual(
      expect.arrayContaining([
        '"type" must be one of: service',
        "Name can't be blank",
        '"escalation_policy.id" must be a string',
        '"description" must be a string or null',
        '"status" must be one of: active, warning, critical, maintenance, disabled',
      ]),
    );
    const missing = await api.put("/services/PNOTHERE", { service: { auto_resolve_timeout: "1" } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.errors).toEqual(['"auto_resolve_timeout" must be a non-negative integer or null']);
    expect((await api.post("/services", undefined)).json.error.errors).toEqual(["The request body must be a JSON object"]);
    // Timeouts are bounded as the provider's check bounds them (1e308 used to be stored).
    const huge = await api.post("/services", {
      service: { name: "Huge", escalation_policy: { id: "PEP0001", type: "escalation_policy_reference" }, auto_resolve_timeout: 1e308 },
    });
    expect(huge.status).toBe(400);
    expect(huge.json.error.errors.join(" ")).toMatch(/auto_resolve_timeout/);
  });

  test("a body that is not the `service` envelope → 400", async () => {
    expect((await api.post("/services", { name: "x" })).status).toBe(400);
    expect((await api.post("/services", [1, 2])).status).toBe(400);
  });
});

describe("update multiple (PUT /services)", () => {
  test("rule 1: when any item is invalid, nothing is updated", async () => {
    const a = await createService(e, api, { description: "a0" });
    const b = await createService(e, api, { description: "b0" });
    const res = await api.put("/services", {
      services: [
        { id: a, type: "service", description: "a1" },
        { id: b, type: "service", acknowledgement_timeout: -1 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.errors.join()).toMatch(/services\[1\]\.acknowledgement_timeout/);
    expect((await api.get(`/services/${a}`)).json.service.description).toBe("a0");
    expect((await api.get(`/services/${b}`)).json.service.description).toBe("b0");
  });

  test("rule 1: an unknown id in the array makes the whole request invalid", async () => {
    const a = await createService(e, api, { description: "keep" });
    const res = await api.put("/services", { services: [{ id: a, description: "changed" }, { id: "PMISSIN" }] });
    expect(res.status).toBe(400);
    expect((await api.get(`/services/${a}`)).json.service.description).toBe("keep");
  });

  test("valid batch → 200 mirroring the request format; names may be swapped within the batch", async () => {
    const a = await createService(e, api, { name: "swap-a" });
    const b = await createService(e, api, { name: "swap-b" });
    const res = await api.put("/services", {
      services: [
        { id: a, type: "service", name: "swap-b" },
        { id: b, type: "service", name: "swap-a" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.services.map((s: { id: string; name: string }) => [s.id, s.name])).toEqual([
      [a, "swap-b"],
      [b, "swap-a"],
    ]);
  });

  test("a batch that would leave two services with one name is refused", async () => {
    const a = await createService(e, api, { name: "dup-a" });
    const b = await createService(e, api, { name: "dup-b" });
    const res = await api.put("/services", {
      services: [
        { id: a, name: "dup-same" },
        { id: b, name: "dup-same" },
      ],
    });
    expect(res.status).toBe(400);
    expect((await api.get(`/services/${a}`)).json.service.name).toBe("dup-a");
  });
});

describe("index: envelope and offset pagination", () => {
  test("limit ≤ 100, offset, more, total only with total=true, query and name filters, sort_by", async () => {
    const prefix = `page-${Date.now()}`;
    for (let i = 0; i < 7; i++) await createService(e, api, { name: `${prefix}-${i}` });
    const first = await api.get(`/services?query=${prefix}&limit=3`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ limit: 3, offset: 0, more: true, total: null });
    expect(first.json.services.map((s: { name: string }) => s.name)).toEqual([0, 1, 2].map((i) => `${prefix}-${i}`));
    const last = await api.get(`/services?query=${prefix.toUpperCase()}&limit=3&offset=6&total=true`);
    expect(last.json).toMatchObject({ limit: 3, offset: 6, more: false, total: 7 });
    expect(last.json.services).toHaveLength(1);
    const desc = await api.get(`/services?query=${prefix}&sort_by=name:desc&limit=1`);
    expect(desc.json.services[0].name).toBe(`${prefix}-6`);
    expect((await api.get(`/services?limit=1000`)).json.limit).toBe(100);
    expect((await api.get(`/services?name=${prefix}-3`)).json.services).toHaveLength(1);
    expect((await api.get(`/services?limit=abc`)).status).toBe(400);
    expect((await api.get(`/services?sort_by=color`)).status).toBe(400);
  });

  test("include[]=integrations and include[]=escalation_policies expand references", async () => {
    const id = await createService(e, api);
    await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } });
    const res = await api.get(`/services/${id}?include[]=integrations&include[]=escalation_policies`);
    expect(res.json.service.integrations[0].integration_key).toMatch(/^[a-z0-9]{32}$/);
    expect(res.json.service.escalation_policy.type).toBe("escalation_policy");
  });
});

describe("authentication", () => {
  test("no Authorization header or an unknown token → 401 code 2006", async () => {
    const none = await send(`${e.url}/services`, { headers: { accept: ACCEPT } });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe(2006);
    const bad = await client(e, "Bearer nope").get("/services");
    expect(bad.status).toBe(401);
    expect(bad.json.error.code).toBe(2006);
    expect((await client(e, "Basic abc").get("/services")).status).toBe(401);
  });

  test("the admin token is not accepted by the REST API", async () => {
    expect((await client(e, `Bearer ${e.adminToken}`).get("/services")).status).toBe(401);
    expect((await client(e, `Token token=${e.adminToken}`).get("/services")).status).toBe(401);
  });

  test("API keys use `Authorization: Token token=<key>`", async () => {
    const key = client(e, `Token token=${e.seed.apiKey}`);
    expect((await key.post("/services", serviceBody(e))).status).toBe(201);
    expect((await client(e, `Bearer ${e.seed.apiKey}`).get("/services")).status).toBe(401);
  });

  test("403 code 2010 with required_scopes when the token lacks the scope", async () => {
    const reader = await bearer(e, "services.read");
    expect((await reader.get("/services")).status).toBe(200);
    const res = await reader.post("/services", serviceBody(e));
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 2010, message: "Token missing required scopes", required_scopes: ["services.write"] });
  });

  test("a read-only account key may read but gets 403 on writes", async () => {
    const reg = await registry(e);
    const ro = reg.apiKeys.find((k) => k.readOnly && k.account === "acme")!;
    const key = client(e, `Token token=${ro.token}`);
    expect((await key.get("/services")).status).toBe(200);
    expect((await key.post("/services", serviceBody(e))).status).toBe(403);
  });
});

describe("versioning: the Accept header names API version 2", () => {
  test("version=2 and a missing Accept are served; another version → 406 with the error body", async () => {
    const auth = { authorization: `Token token=${e.seed.apiKey}` };
    expect((await send(`${e.url}/services`, { headers: { ...auth, accept: ACCEPT } })).status).toBe(200);
    expect((await send(`${e.url}/services`, { headers: auth })).status).toBe(200);
    expect((await send(`${e.url}/services`, { headers: { ...auth, accept: "application/json" } })).status).toBe(200);
    const v3 = await send(`${e.url}/services`, { headers: { ...auth, accept: "application/vnd.pagerduty+json;version=3" } });
    expect(v3.status).toBe(406);
    expect(v3.json.error.message).toBe("Unsupported API version");
    expect(v3.json.error.errors[0]).toMatch(/version 3/);
  });
});

describe("accounts are isolated", () => {
  test("a credential of one account never sees or changes another account's services", async () => {
    const reg = await registry(e);
    const globexKey = reg.apiKeys.find((k) => k.account === "globex" && k.kind === "account")!;
    const globexPolicy = reg.escalationPolicies.find((p) => p.account === "globex")!;
    // Globex is an EU account: its credentials work through the EU base only.
    const globex = euClient(e, `Token token=${globexKey.token}`);
    const acmeId = await createService(e, api, { name: "acme-only" });
    expect((await globex.get(`/services/${acmeId}`)).status).toBe(404);
    expect((await globex.delete(`/services/${acmeId}`)).status).toBe(404);
    expect((await globex.get("/services?name=acme-only")).json.services).toEqual([]);
    // Names are unique per account, not globally; policies of another account are not usable.
    expect((await globex.post("/services", { service: { type: "service", name: "acme-only", escalation_policy: { id: globexPolicy.id } } })).status).toBe(201);
    expect((await globex.post("/services", serviceBody(e))).status).toBe(400);
  });
});

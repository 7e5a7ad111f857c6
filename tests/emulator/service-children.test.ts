// The services endpoints beyond CRUD: integrations, event rules (+ convert), custom field
// definitions and values, enablements, and what happens to children of a deleted service.
import { admin, bearer, type Client, client, createService, type Emu, euClient, registry, startWithClient } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

describe("integrations", () => {
  test("create → 201 with `integration`; events types get a secret 32-char integration_key; the service lists a reference", async () => {
    const sid = await createService(e, api);
    const res = await api.post(`/services/${sid}/integrations`, {
      integration: { type: "events_api_v2_inbound_integration", name: "Events", integration_key: "ignored" },
    });
    expect(res.status).toBe(201);
    const i = res.json.integration;
    expect(i).toMatchObject({
      type: "events_api_v2_inbound_integration",
      name: "Events",
      summary: "Events",
      service: { id: sid, type: "service_reference" },
      vendor: null,
    });
    expect(i.id).toMatch(/^P[A-Z0-9]{6}$/);
    expect(i.integration_key).toMatch(/^[a-z0-9]{32}$/);
    expect(i.self).toBe(`${e.url}/services/${sid}/integrations/${i.id}`);
    const svc = (await api.get(`/services/${sid}`)).json.service;
    // References are typed by the integration's type, as the description's IntegrationReference lists.
    expect(svc.integrations).toEqual([expect.objectContaining({ id: i.id, type: "events_api_v2_inbound_integration_reference" })]);
    expect((await api.get(`/services/${sid}/integrations/${i.id}`)).json.integration).toEqual(i);
  });

  test("email integrations carry the address and email settings; bad enums → 400", async () => {
    const sid = await createService(e, api);
    const res = await api.post(`/services/${sid}/integrations`, {
      integration: {
        type: "generic_email_inbound_integration",
        integration_email: `alerts-${sid.toLowerCase()}@acme.pagerduty.example`,
        email_incident_creation: "use_rules",
        email_filter_mode: "or-rules-email",
        email_filters: [{ subject_mode: "match", subject_regex: "CRIT", body_mode: "always", from_email_mode: "always" }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.integration).toMatchObject({
      integration_email: `alerts-${sid.toLowerCase()}@acme.pagerduty.example`,
      email_incident_creation: "use_rules",
      email_filter_mode: "or-rules-email",
      email_parsing_fallback: "open_new_incident",
      email_filters: [{ subject_mode: "match", subject_regex: "CRIT", body_mode: "always", body_regex: null }],
    });
    expect(res.json.integration).not.toHaveProperty("integration_key");
    const dup = await api.post(`/services/${sid}/integrations`, {
      integration: { type: "generic_email_inbound_integration", integration_email: res.json.integration.integration_email },
    });
    expect(dup.status).toBe(400);
    const bad = await api.post(`/services/${sid}/integrations`, { integration: { type: "generic_email_inbound_integration", email_filter_mode: "some" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.errors[0]).toMatch(/"email_filter_mode"/);
    expect((await api.post(`/services/${sid}/integrations`, { integration: { type: "made_up" } })).status).toBe(400);
  });

  test("update is partial and cannot change the type; delete → 204 then 404", async () => {
    const sid = await createService(e, api);
    const i = (await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
    const upd = await api.put(`/services/${sid}/integrations/${i.id}`, { integration: { name: "Renamed" } });
    expect(upd.status).toBe(200);
    expect(upd.json.integration).toMatchObject({ name: "Renamed", integration_key: i.integration_key });
    expect((await api.put(`/services/${sid}/integrations/${i.id}`, { integration: { type: "nagios_inbound_integration" } })).status).toBe(400);
    expect((await api.delete(`/services/${sid}/integrations/${i.id}`)).status).toBe(204);
    expect((await api.get(`/services/${sid}/integrations/${i.id}`)).status).toBe(404);
    expect((await api.get(`/services/${sid}`)).json.service.integrations).toEqual([]);
  });
});

const rule = (value: string, extra: Record<string, unknown> = {}) => ({
  rule: {
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value } }] },
    actions: { annotate: { value }, severity: { value: "warning" } },
    ...extra,
  },
});

describe("event rules", () => {
  test("UUID ids; positions are 0-based, insertion and deletion shift the others", async () => {
    const sid = await createService(e, api);
    const a = (await api.post(`/services/${sid}/rules`, rule("a"))).json.rule;
    const b = (await api.post(`/services/${sid}/rules`, rule("b"))).json.rule;
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect([a.position, b.position]).toEqual([0, 1]);
    const first = await api.post(`/services/${sid}/rules`, rule("first", { position: 0 }));
    expect(first.status).toBe(201);
    const order = async () =>
      (await api.get(`/services/${sid}/rules`)).json.rules.map((r: { actions: { annotate: { value: string } }; position: number }) => [
        r.actions.annotate.value,
        r.position,
      ]);
    expect(await order()).toEqual([
      ["first", 0],
      ["a", 1],
      ["b", 2],
    ]);
    expect((await api.delete(`/services/${sid}/rules/${a.id}`)).status).toBe(204);
    expect(await order()).toEqual([
      ["first", 0],
      ["b", 1],
    ]);
    expect((await api.get(`/services/${sid}/rules/${a.id}`)).status).toBe(404);
  });

  test("PUT is partial, may move the rule and may carry a body-level rule_id", async () => {
    const sid = await createService(e, api);
    const a = (await api.post(`/services/${sid}/rules`, rule("a"))).json.rule;
    await api.post(`/services/${sid}/rules`, rule("b"));
    const res = await api.put(`/services/${sid}/rules/${a.id}`, { rule_id: a.id, rule: { disabled: true, position: 1 } });
    expect(res.status).toBe(200);
    expect(res.json.rule).toMatchObject({ id: a.id, disabled: true, position: 1, conditions: a.conditions, actions: a.actions });
    expect((await api.put(`/services/${sid}/rules/${a.id}`, { rule_id: "another", rule: {} })).status).toBe(400);
  });

  test("invalid rules → 400 naming the field", async () => {
    const sid = await createService(e, api);
    const bad = await api.post(`/services/${sid}/rules`, {
      rule: {
        conditions: { operator: "xor", subconditions: [{ operator: "equals", parameters: { path: "x" } }] },
        actions: { severity: { value: "meh" } },
        time_frame: { active_between: { start_time: 10, end_time: 5 } },
      },
    });
    expect(bad.status).toBe(400);
    const text = bad.json.error.errors.join("\n");
    expect(text).toMatch(/"conditions.operator"/);
    expect(text).toMatch(/"actions.severity.value"/);
    expect(text).toMatch(/end_time/);
  });

  test("convert (verb) returns the new state and makes the rules read-only (later writes 409)", async () => {
    const sid = await createService(e, api);
    const a = (await api.post(`/services/${sid}/rules`, rule("a"))).json.rule;
    const res = await api.post(`/services/${sid}/rules/convert`);
    expect(res.status).toBe(200);
    // Exactly the description's keys (issue 29: converted_at and rules_converted were the emulator's own).
    expect(res.json).toEqual({ convert_status: "completed", converted_to: `${e.url}/event_orchestrations/service/${sid}` });
    expect((await api.get(`/services/${sid}/rules/${a.id}`)).status).toBe(200);
    for (const write of [
      api.post(`/services/${sid}/rules`, rule("b")),
      api.put(`/services/${sid}/rules/${a.id}`, { rule_id: a.id, rule: { disabled: true } }),
      api.delete(`/services/${sid}/rules/${a.id}`),
    ]) {
      const r = await write;
      expect(r.status).toBe(409);
      expect(r.json.error.errors[0]).toMatch(/converted/);
    }
    // Converting again is harmless and reports the same state.
    const meta = (await api.get(`/services/${sid}/rules?include[]=migrated_metadata`)).json;
    const again = await api.post(`/services/${sid}/rules/convert`);
    expect(again.json).toEqual(res.json);
    expect((await api.get(`/services/${sid}/rules?include[]=migrated_metadata`)).json.migrated_at).toBe(meta.migrated_at);
  });

  test("include[]=migrated_metadata: absent before a conversion; after it every key of the description's example", async () => {
    const sid = await createService(e, api);
    const before = (await api.get(`/services/${sid}/rules?include[]=migrated_metadata`)).json;
    expect(Object.keys(before).filter((k) => k.startsWith("migrated_"))).toEqual([]);
    await api.post(`/services/${sid}/rules/convert`);
    const after = (await api.get(`/services/${sid}/rules?include[]=migrated_metadata`)).json;
    expect(after).toMatchObject({
      migrated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      migrated_by: { id: expect.any(String), type: "app_reference", self: expect.stringContaining("/apps/") },
      migrated_status: "completed",
      migrated_to: { id: sid, type: "event_orchestration_reference", self: `${e.url}/event_orchestrations/services/${sid}` },
      migrated_via: "API",
    });
    // Without the include, none of it.
    const plain = (await api.get(`/services/${sid}/rules`)).json;
    expect(Object.keys(plain).filter((k) => k.startsWith("migrated_"))).toEqual([]);
  });
});

describe("custom fields", () => {
  test("values: GET lists every definition (unset = null); PUT by id or name, unlisted stay, null clears", async () => {
    const sid = await createService(e, api);
    const before = (await api.get(`/services/${sid}/custom_fields/values`)).json.custom_fields;
    expect(before.map((f: { name: string; value: unknown; type: string }) => [f.name, f.value, f.type])).toEqual([
      ["pci", null, "field_value"],
      ["runbook", null, "field_value"],
      ["tier", null, "field_value"],
    ]);
    const tier = before.find((f: { name: string }) => f.name === "tier");
    let res = await api.put(`/services/${sid}/custom_fields/values`, {
      custom_fields: [
        { id: tier.id, value: "gold" },
        { name: "pci", value: true },
      ],
    });
    expect(res.status).toBe(201);
    res = await api.put(`/services/${sid}/custom_fields/values`, {
      custom_fields: [
        { name: "runbook", value: "https://wiki.example/runbook" },
        { name: "pci", value: null },
      ],
    });
    const values = Object.fromEntries(res.json.custom_fields.map((f: { name: string; value: unknown }) => [f.name, f.value]));
    expect(values).toEqual({ tier: "gold", pci: null, runbook: "https://wiki.example/runbook" });
  });

  test("values PUT is atomic: one bad item and nothing changes", async () => {
    const sid = await createService(e, api);
    await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "silver" }] });
    const res = await api.put(`/services/${sid}/custom_fields/values`, {
      custom_fields: [
        { name: "tier", value: "gold" },
        { name: "tier2", value: 1 },
        { name: "pci", value: "yes" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.errors).toHaveLength(2);
    const tier = (await api.get(`/services/${sid}/custom_fields/values`)).json.custom_fields.find((f: { name: string }) => f.name === "tier");
    expect(tier.value).toBe("silver");
    const fixed = await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "bronze" }] });
    expect(fixed.json.error.errors[0]).toMatch(/one of the field's options/);
  });

  test("definitions live at /services/custom_fields with custom_fields.* scopes", async () => {
    const created = await api.post("/services/custom_fields", {
      field: { name: "owner_team", display_name: "Owner team", data_type: "string", field_type: "multi_value" },
    });
    expect(created.status).toBe(201);
    const f = created.json.field;
    expect(f).toMatchObject({ type: "field", name: "owner_team", data_type: "string", field_type: "multi_value" });
    expect((await api.get("/services/custom_fields")).json.fields.map((x: { name: string }) => x.name)).toContain("owner_team");
    expect((await api.post("/services/custom_fields", { field: { name: "owner_team", display_name: "Again", data_type: "string" } })).status).toBe(400);
    expect((await api.put(`/services/custom_fields/${f.id}`, { field: { data_type: "integer" } })).status).toBe(400);
    expect((await api.put(`/services/custom_fields/${f.id}`, { field: { display_name: "Owners" } })).json.field.display_name).toBe("Owners");
    const sid = await createService(e, api);
    expect((await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "owner_team", value: ["a", "b"] }] })).status).toBe(201);
    expect((await api.put(`/services/${sid}/custom_fields/values`, { custom_fields: [{ name: "owner_team", value: "a" }] })).status).toBe(400);
    const servicesOnly = await bearer(e, "services.read services.write");
    expect((await servicesOnly.get("/services/custom_fields")).status).toBe(403);
    expect((await api.delete(`/services/custom_fields/${f.id}`)).status).toBe(204);
    expect((await api.get(`/services/custom_fields/${f.id}`)).status).toBe(404);
  });
});

describe("enablements", () => {
  test("only aiops; unset = enabled true, updated_at null; PUT {enablement:{enabled}} → {enablement}", async () => {
    const sid = await createService(e, api);
    expect((await api.get(`/services/${sid}/enablements`)).json).toEqual({ enablements: [{ feature: "aiops", enabled: true, updated_at: null }] });
    const res = await api.put(`/services/${sid}/enablements/aiops`, { enablement: { enabled: false } });
    expect(res.status).toBe(200);
    expect(res.json.enablement).toMatchObject({ feature: "aiops", enabled: false, updated_at: expect.any(String) });
    expect((await api.get(`/services/${sid}/enablements`)).json.enablements[0].enabled).toBe(false);
    expect((await api.put(`/services/${sid}/enablements/aiops`, { enablement: { enabled: "no" } })).status).toBe(400);
    expect((await api.put(`/services/${sid}/enablements/other`, { enablement: { enabled: true } })).status).toBe(400);
  });

  test("an account without the entitlement gets warnings, not a failure", async () => {
    await admin(e, "PUT", "/accounts/acme", { aiopsEntitled: false });
    const sid = await createService(e, api);
    const res = await api.put(`/services/${sid}/enablements/aiops`, { enablement: { enabled: true } });
    expect(res.status).toBe(200);
    expect(res.json.enablement.warnings[0]).toMatch(/not entitled/);
    await admin(e, "PUT", "/accounts/acme", { aiopsEntitled: true });
  });
});

describe("children of a deleted service (rule 2)", () => {
  test("integrations, rules, values and enablements of a deleted service are 404", async () => {
    const sid = await createService(e, api);
    const i = (await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
    const r = (await api.post(`/services/${sid}/rules`, rule("x"))).json.rule;
    expect((await api.delete(`/services/${sid}`)).status).toBe(204);
    for (const path of [`/integrations/${i.id}`, "/rules", `/rules/${r.id}`, "/custom_fields/values", "/enablements"]) {
      expect([path, (await api.get(`/services/${sid}${path}`)).status]).toEqual([path, 404]);
    }
    expect((await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).status).toBe(404);
  });
});

test("generic rule: a deleted policy still referenced by a service is shown there as a reference", async () => {
  const policy = (await admin(e, "POST", "/escalation-policies", { account: "acme", name: "Short-lived" })).json;
  const sid = await createService(e, api, { escalation_policy: { id: policy.id, type: "escalation_policy_reference" } });
  expect((await admin(e, "DELETE", `/escalation-policies/${policy.id}`)).status).toBe(204);
  const show = await api.get(`/services/${sid}`);
  expect(show.json.service.escalation_policy).toMatchObject({ id: policy.id, type: "escalation_policy_reference", summary: "Short-lived" });
  // The service stays editable; pointing it at a missing policy is not allowed.
  expect((await api.put(`/services/${sid}`, { service: { description: "still fine" } })).status).toBe(200);
  expect((await api.put(`/services/${sid}`, { service: { escalation_policy: { id: "PGONE00" } } })).status).toBe(400);
});

test("escalation policies can be read for reference (account key)", async () => {
  const key = client(e, `Token token=${e.seed.apiKey}`);
  const list = await key.get("/escalation_policies");
  expect(list.json.escalation_policies.map((p: { id: string }) => p.id)).toEqual([e.seed.escalationPolicyId]);
  expect((await key.get(`/escalation_policies/${e.seed.escalationPolicyId}`)).json.escalation_policy.name).toBe("Default");
  const globex = (await registry(e)).escalationPolicies.find((p) => p.account === "globex")!;
  expect((await key.get(`/escalation_policies/${globex.id}`)).status).toBe(404);
  // And the other way round, through the EU base where Globex's key works.
  const globexKey = euClient(e, `Token token=${e.seed.eu!.apiKey}`);
  expect((await globexKey.get(`/escalation_policies/${globex.id}`)).json.escalation_policy.id).toBe(globex.id);
  expect((await globexKey.get(`/escalation_policies/${e.seed.escalationPolicyId}`)).status).toBe(404);
});

// Bodies as PagerDuty's own Terraform provider (v3.32.4, through its vendored go-pagerduty) builds
// them, where they differ from the API description's schemas: each is accepted, as the service in
// production accepts it (emulator/REJECTIONS.md has the evidence). What the service is known to
// reject stays rejected. The python `pagerduty` client and `@pagerduty/pdjs` are driven for real in
// tests/clients/.
import { createService, type Client, type Emu, startWithClient } from "./helpers";

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

/** go-pagerduty's Service as buildServiceStruct fills it for a minimal `pagerduty_service`: no `type`, nulls it never omits. */
const terraformService = (name: string, extra: Record<string, unknown> = {}) => ({
  service: {
    name,
    acknowledgement_timeout: 1800,
    auto_resolve_timeout: 14400,
    alert_creation: "create_alerts_and_incidents",
    escalation_policy: { id: e.seed.escalationPolicyId, type: "escalation_policy_reference" },
    response_play: null,
    auto_pause_notifications_parameters: { enabled: false, timeout: null },
    ...extra,
  },
});

test("a service without `type` (go-pagerduty leaves it out) is created", async () => {
  const res = await api.post("/services", terraformService("TF minimal"));
  expect(res.status).toBe(201);
  expect(res.json.service).toMatchObject({ type: "service", name: "TF minimal", acknowledgement_timeout: 1800 });
});

test('a "use_support_hours" urgency rule without actions comes with `scheduled_actions: [null]`: accepted as no action', async () => {
  const res = await api.post(
    "/services",
    terraformService("TF support hours", {
      incident_urgency_rule: {
        type: "use_support_hours",
        during_support_hours: { type: "constant", urgency: "high" },
        outside_support_hours: { type: "constant", urgency: "low" },
      },
      support_hours: { type: "fixed_time_per_day", time_zone: "America/Lima", start_time: "09:00:00", end_time: "17:00:00", days_of_week: [1, 2, 3, 4, 5] },
      scheduled_actions: [null],
    }),
  );
  expect(res.status).toBe(201);
  expect(res.json.service.scheduled_actions).toEqual([]);
});

test("an integration by vendor with the provider's placeholder type \"service_integration\" takes the vendor's type, and its updates keep it", async () => {
  const sid = await createService(e, api);
  const vendor = (await api.get("/vendors?limit=1")).json.vendors[0];
  const body = {
    integration: { name: "By vendor", type: "service_integration", service: { id: sid, type: "service" }, vendor: { id: vendor.id, type: "vendor" } },
  };
  const res = await api.post(`/services/${sid}/integrations`, body);
  expect(res.status).toBe(201);
  expect(res.json.integration.type).not.toBe("service_integration");
  expect(res.json.integration.vendor).toMatchObject({ id: vendor.id });
  const update = await api.put(`/services/${sid}/integrations/${res.json.integration.id}`, { integration: { ...body.integration, name: "Renamed" } });
  expect(update.status).toBe(200);
  expect(update.json.integration).toMatchObject({ name: "Renamed", type: res.json.integration.type });
  // A real type change is still refused.
  expect((await api.put(`/services/${sid}/integrations/${res.json.integration.id}`, { integration: { type: "nagios_inbound_integration" } })).status).toBe(400);
});

test('email filters whose modes the provider leaves out read as "always"', async () => {
  const sid = await createService(e, api);
  const res = await api.post(`/services/${sid}/integrations`, {
    integration: {
      type: "generic_email_inbound_integration",
      name: "Mail",
      email_filter_mode: "or-rules-email",
      email_filters: [{ subject_mode: "match", subject_regex: "^alert" }],
    },
  });
  expect(res.status).toBe(201);
  expect(res.json.integration.email_filters[0]).toMatchObject({
    subject_mode: "match",
    subject_regex: "^alert",
    body_mode: "always",
    from_email_mode: "always",
  });
  // A mode outside the enum is still refused.
  const bad = await api.post(`/services/${sid}/integrations`, {
    integration: { type: "generic_email_inbound_integration", email_filters: [{ body_mode: "sometimes" }] },
  });
  expect(bad.status).toBe(400);
  expect(bad.json.error.errors.join("\n")).toMatch(/"email_filters\[0\]\.body_mode" must be one of/);
});

test('a rule update of `{"rule": {...}}` only (UpdateEventRule) is accepted; a body `rule_id` naming another rule is not', async () => {
  const sid = await createService(e, api);
  const rule = {
    disabled: false,
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
    actions: { annotate: { value: "hi" }, suppress: null, severity: null, priority: null, route: null, event_action: null, suspend: null },
  };
  const created = await api.post(`/services/${sid}/rules`, { rule });
  expect(created.status).toBe(201);
  const id = created.json.rule.id;
  const updated = await api.put(`/services/${sid}/rules/${id}`, { rule: { ...rule, disabled: true } });
  expect(updated.status).toBe(200);
  expect(updated.json.rule).toMatchObject({ id, disabled: true });
  expect((await api.put(`/services/${sid}/rules/${id}`, { rule_id: "another", rule })).status).toBe(400);
});

test('zero times the provider leaves out (`omitempty`) read as 0; an empty condition value the provider leaves out reads as ""', async () => {
  const sid = await createService(e, api);
  const res = await api.post(`/services/${sid}/rules`, {
    rule: {
      conditions: { operator: "and", subconditions: [{ operator: "equals", parameters: { path: "payload.source" } }] },
      time_frame: { scheduled_weekly: { weekdays: [1, 2], timezone: "UTC", duration: 3_600_000 } },
      actions: { annotate: { value: "night" } },
    },
  });
  expect(res.status).toBe(201);
  expect(res.json.rule.time_frame).toEqual({ scheduled_weekly: { weekdays: [1, 2], timezone: "UTC", duration: 3_600_000, start_time: 0 } });
  expect(res.json.rule.conditions.subconditions[0].parameters).toEqual({ path: "payload.source", value: "" });
  const between = await api.post(`/services/${sid}/rules`, {
    rule: { time_frame: { active_between: { end_time: 1_700_000_000_000 } }, actions: { annotate: { value: "x" } } },
  });
  expect(between.status).toBe(201);
  expect(between.json.rule.time_frame.active_between).toEqual({ start_time: 0, end_time: 1_700_000_000_000 });
});

describe("time zones: IANA names and links are accepted, anything else is a 400 naming the field", () => {
  test.each(["America/Lima", "UTC", "Etc/UTC", "US/Eastern", "Asia/Kolkata"])("%s", async (zone) => {
    const res = await api.post(
      "/services",
      terraformService(`TZ ${zone}`, {
        support_hours: { type: "fixed_time_per_day", time_zone: zone, start_time: "09:00:00", end_time: "17:00:00", days_of_week: [1] },
      }),
    );
    expect(res.status).toBe(201);
  });

  test("support_hours.time_zone and a rule's scheduled_weekly.timezone", async () => {
    const svc = await api.post(
      "/services",
      terraformService("TZ Mars", {
        support_hours: { type: "fixed_time_per_day", time_zone: "Mars/Olympus", start_time: "09:00:00", end_time: "17:00:00", days_of_week: [1] },
      }),
    );
    expect(svc.status).toBe(400);
    expect(svc.json.error.errors).toEqual(['"support_hours.time_zone" "Mars/Olympus" is not a time zone (an IANA name such as "America/Lima")']);
    const sid = await createService(e, api);
    const rule = await api.post(`/services/${sid}/rules`, {
      rule: {
        time_frame: { scheduled_weekly: { weekdays: [1], timezone: "Mars/Olympus", start_time: 0, duration: 60_000 } },
        actions: { annotate: { value: "x" } },
      },
    });
    expect(rule.status).toBe(400);
    expect(rule.json.error.errors.join("\n")).toMatch(/"time_frame\.scheduled_weekly\.timezone" "Mars\/Olympus" is not a time zone/);
  });

  // Node.js 22's Intl takes an offset as a zone; PagerDuty's tz lookup does not.
  test("an offset such as +01:00 is no time zone", async () => {
    const svc = await api.post(
      "/services",
      terraformService("TZ offset", {
        support_hours: { type: "fixed_time_per_day", time_zone: "+01:00", start_time: "09:00:00", end_time: "17:00:00", days_of_week: [1] },
      }),
    );
    expect(svc.status).toBe(400);
    expect(svc.json.error.errors).toEqual(['"support_hours.time_zone" "+01:00" is not a time zone (an IANA name such as "America/Lima")']);
  });
});

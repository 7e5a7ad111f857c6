import { createClient } from "../../../../provider/account/client";
import { AccountContext } from "../../../../provider/account/context";
import { resolveSettings } from "../../../../provider/config";
import { makeProvider } from "../../../../provider/operations/factory";
import { declaredStatus, LIVE_STATUSES, resource, toBody, toOutputs } from "../../../../provider/resources/service";
import { reply, useApi } from "../../support/resource-api";
import { useMockAgent } from "../../support/http-mock";
import { offline } from "../../support/resource-api";
import { virtualConsistency } from "../../support/virtual-consistency";
import { apiService } from "../../support/api-objects";

const provider = offline(resource);

const live = apiService("PABC123", "Checkout");

test("outputs map every field and normalize an absent description to empty", () => {
  const out = toOutputs(live);
  expect(out).toMatchObject({
    name: "Checkout",
    description: "",
    escalationPolicy: "PEP1",
    autoResolveTimeout: 14400,
    incidentUrgencyRule: { type: "constant", urgency: "high" },
    htmlUrl: live.html_url,
  });
});

test("the body carries only managed fields, the policy as a reference, status only on update", () => {
  const inputs = { name: "Checkout", escalationPolicy: "PEP1", acknowledgementTimeout: null, status: "disabled" as const, adoptId: "PX" };
  expect(toBody(inputs, { includeStatus: false })).toEqual({
    type: "service",
    name: "Checkout",
    acknowledgement_timeout: null,
    escalation_policy: { id: "PEP1", type: "escalation_policy_reference" },
  });
  expect(toBody(inputs, { includeStatus: true }).status).toBe("disabled");
});

test("no diff against server defaults the program did not set", async () => {
  const olds = toOutputs(live);
  await expect(provider.diff!("PABC123", olds, { name: "Checkout", escalationPolicy: "PEP1", __provider: "p" })).resolves.toMatchObject({ changes: false });
  await expect(provider.diff!("PABC123", olds, { name: "Checkout", escalationPolicy: "PEP1", description: "" })).resolves.toMatchObject({ changes: false });
});

test("each kind of managed field change is an in-place update", async () => {
  const olds = toOutputs(live);
  const cases: Record<string, unknown> = {
    name: "Other",
    description: "new",
    escalationPolicy: "PEP2",
    autoResolveTimeout: null,
    acknowledgementTimeout: 60,
    status: "disabled",
    incidentUrgencyRule: { type: "constant", urgency: "low" },
    supportHours: { type: "fixed_time_per_day", timeZone: "UTC", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1] },
    scheduledActions: [{ type: "urgency_change", at: { type: "named_time", name: "support_hours_start" }, toUrgency: "high" }],
    alertGroupingParameters: { type: "time", config: { timeout: 5 } },
    autoPauseNotificationsParameters: { enabled: true, timeout: 300 },
  };
  for (const [field, value] of Object.entries(cases)) {
    const r = await provider.diff!("PABC123", olds, { name: "Checkout", escalationPolicy: "PEP1", [field]: value });
    expect({ field, ...r }).toMatchObject({ field, changes: true, replaces: [] });
  }
});

describe("status: what the service computes is not drift", () => {
  const declare = (status: unknown) => ({ name: "Checkout", escalationPolicy: "PEP1", status });
  const liveAs = (status: string) => toOutputs({ ...live, status });

  test("a live status reads as enabled unless it is disabled", () => {
    expect(LIVE_STATUSES.map(declaredStatus)).toEqual(["active", "active", "active", "active", "disabled"]);
  });

  test("a busy or maintained service satisfies active; disabled against enabled is a change either way", async () => {
    for (const busy of ["active", "warning", "critical", "maintenance"])
      await expect(provider.diff!("PABC123", liveAs(busy), declare("active"))).resolves.toMatchObject({ changes: false });
    await expect(provider.diff!("PABC123", liveAs("disabled"), declare("active"))).resolves.toMatchObject({ changes: true, replaces: [] });
    for (const enabled of ["active", "critical", "maintenance"])
      await expect(provider.diff!("PABC123", liveAs(enabled), declare("disabled"))).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("PABC123", liveAs("disabled"), declare("disabled"))).resolves.toMatchObject({ changes: false });
  });

  test("a program declares active or disabled; a computed status is refused naming the field and why", async () => {
    const check = (status: unknown) => provider.check!({}, declare(status));
    await expect(check("critical")).resolves.toMatchObject({
      failures: [
        { property: "", reason: 'status: "critical" is computed by PagerDuty from the service\'s open incidents; declare "active" (enabled) or "disabled"' },
      ],
    });
    await expect(check("maintenance")).resolves.toMatchObject({
      failures: [{ reason: expect.stringMatching(/^status: "maintenance" is set by PagerDuty while a maintenance window/) }],
    });
    await expect(check("on")).resolves.toMatchObject({ failures: [{ reason: 'status: must be "active" (enabled) or "disabled"; got "on"' }] });
    await expect(check("disabled")).resolves.not.toHaveProperty("failures");
  });

  test("parameters declared for a service in an alert grouping setting fail naming the setting; the reference itself is no diff", async () => {
    const inSetting = { ...toOutputs(live), alertGroupingParameters: { id: "PAGS1", type: "alert_grouping_setting_reference", summary: "Shared" } };
    await expect(provider.diff!("PABC123", inSetting, { ...declare("active"), alertGroupingParameters: { type: "time" } })).rejects.toThrow(
      /alertGroupingParameters: the service groups its alerts by alert grouping setting PAGS1, which owns its grouping now; remove alertGroupingParameters/,
    );
    await expect(provider.diff!("PABC123", inSetting, declare("active"))).resolves.toMatchObject({ changes: false });
    await expect(
      provider.diff!("PABC123", inSetting, { ...declare("active"), alertGroupingParameters: inSetting.alertGroupingParameters }),
    ).resolves.toMatchObject({
      changes: false,
    });
  });

  test("alertCreation changes nothing any more: never a diff, whatever the service reports", async () => {
    for (const declared of ["create_incidents", "create_alerts_and_incidents"])
      await expect(provider.diff!("PABC123", toOutputs(live), { ...declare("active"), alertCreation: declared })).resolves.toMatchObject({ changes: false });
  });

  describe("against the API", () => {
    const api = useApi();
    const service = (status: string) => ({ service: { ...live, status } });

    test("a refresh of a busy service rebuilds the declared status as active and reports the live one", async () => {
      const p = api.provider(resource);
      reply(api, "GET", "/services/PABC123", service("critical"));
      const state = { ...toOutputs(live), __declared: "name,escalationPolicy,status" };
      const read = await p.read!("PABC123", state);
      expect(read.props).toMatchObject({ status: "critical" });
      expect(read.inputs).toEqual({ name: "Checkout", escalationPolicy: "PEP1", status: "active" });
      await expect(p.diff!("PABC123", read.props!, read.inputs!)).resolves.toMatchObject({ changes: false });
    });

    test("outputs the service leaves unset are left out of state; a declared null stays in the rebuilt inputs", async () => {
      const p = api.provider(resource);
      expect(toOutputs(live)).toMatchObject({ supportHours: null, lastIncidentTimestamp: null });
      reply(api, "GET", "/services/PABC123", { service: live });
      const state = { ...toOutputs(live), __declared: "name,escalationPolicy,supportHours" };
      const read = await p.read!("PABC123", state);
      expect(Object.entries(read.props!).filter(([, v]) => v === null)).toEqual([]);
      expect(read.props).not.toHaveProperty("supportHours");
      expect(read.props).not.toHaveProperty("lastIncidentTimestamp");
      // Nested nulls are values, not unset outputs: they stay.
      expect(read.props!.alertGroupingParameters).toEqual(toOutputs(live).alertGroupingParameters);
      expect(read.inputs).toEqual({ name: "Checkout", escalationPolicy: "PEP1", supportHours: null });
      await expect(p.diff!("PABC123", read.props!, read.inputs!)).resolves.toMatchObject({ changes: false });
      reply(api, "PUT", "/services/PABC123", { service: { ...live, description: "new" } });
      const updated = await p.update!("PABC123", read.props!, { ...read.inputs!, description: "new" });
      expect(Object.entries(updated.outs!).filter(([, v]) => v === null)).toEqual([]);
    });

    test("adoption writes only what differs: nothing when the service holds what the program declares", async () => {
      const p = api.provider(resource);
      reply(api, "GET", "/services/PABC123", service("critical"));
      await expect(p.create!({ ...declare("active"), adoptId: "PABC123" })).resolves.toMatchObject({ id: "PABC123", outs: { status: "critical" } });
      expect(api.calls.map((c) => c.method)).toEqual(["GET"]);
      reply(api, "GET", "/services/PABC123", service("active"));
      reply(api, "PUT", "/services/PABC123", { service: { ...live, description: "new" } });
      await p.create!({ ...declare("active"), description: "new", adoptId: "PABC123" });
      expect(api.calls.at(-1)).toEqual({ method: "PUT", path: "/services/PABC123", body: { service: { type: "service", description: "new" } } });
    });

    test("create_incidents passes check with one warning naming the field", async () => {
      const p = api.provider(resource);
      reply(api, "GET", "/escalation_policies/PEP1", { escalation_policy: { id: "PEP1" } });
      const checked = await p.check!({}, { ...declare("active"), alertCreation: "create_incidents" });
      await p.check!({}, { ...declare("active"), alertCreation: "create_incidents" });
      expect(checked).not.toHaveProperty("failures");
      expect(api.warnings).toEqual([expect.stringMatching(/^service "Checkout": alertCreation: "create_incidents" is no longer offered by PagerDuty/)]);
    });
  });
});

describe("check", () => {
  const check = (news: Record<string, unknown>) => provider.check!({}, { escalationPolicy: "PEP1", name: "x", ...news });
  test("names the field and the problem", async () => {
    await expect(check({ name: "  " })).resolves.toMatchObject({ failures: [{ property: "", reason: "name: must not be empty" }] });
    await expect(check({ autoResolveTimeout: -1 })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^autoResolveTimeout: /) }],
    });
    await expect(check({ acknowledgementTimeout: -5 })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^acknowledgementTimeout: /) }],
    });
    await expect(
      check({ supportHours: { type: "fixed_time_per_day", timeZone: "UTC", startTime: "9am", endTime: "17:00:00", daysOfWeek: [8] } }),
    ).resolves.toMatchObject({
      failures: [
        { property: "", reason: 'supportHours.startTime: must be a time of day "HH:MM:SS" from 00:00:00 to 23:59:59' },
        { property: "", reason: expect.stringMatching(/^supportHours\.daysOfWeek\[0\]: /) },
      ],
    });
    await expect(check({ escalationPolicy: undefined })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^escalationPolicy: /) }],
    });
    await expect(check({ colour: "red" })).resolves.toMatchObject({ failures: [{ reason: expect.stringContaining("colour") }] });
  });
  test("use_support_hours requires supportHours", async () => {
    await expect(check({ incidentUrgencyRule: { type: "use_support_hours" } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^supportHours: /) }],
    });
  });
  test("valid inputs have no failures", async () => {
    await expect(check({ autoResolveTimeout: null, acknowledgementTimeout: 600 })).resolves.not.toHaveProperty("failures");
  });
});

describe("check: the escalation policy at preview", () => {
  const agent = useMockAgent();
  const API = "https://api.test";
  const AUTH = "https://identity.test";
  let ctx: AccountContext;
  const warnings: string[] = [];
  const account = makeProvider(resource, () => ctx);
  const check = (escalationPolicy: string) => account.check({}, { name: "x", escalationPolicy });
  /** The account's client: an API key (no scopes to compare) or an app token granted `scope`. */
  const useClient = (env: Record<string, string>) => {
    const settings = resolveSettings(() => undefined, { PAGERDUTY_API_URL: API, PAGERDUTY_AUTH_URL: AUTH, ...env });
    const client = createClient({ ...settings, retry: { ...settings.retry, timeScale: 0.001 } }, { dispatcher: agent() });
    ctx = new AccountContext({ client, warn: (m) => void warnings.push(m), consistency: virtualConsistency().consistency });
  };
  beforeEach(() => (warnings.length = 0));

  test("an id the account lacks fails naming escalationPolicy, with one request per id", async () => {
    useClient({ PAGERDUTY_TOKEN: "k" });
    agent()
      .get(API)
      .intercept({ method: "GET", path: "/escalation_policies/PNOSUCH" })
      .reply(404, { error: { message: "Not Found", code: 2100 } });
    const failure = { failures: [{ property: "", reason: "escalationPolicy: the account has no escalation policy PNOSUCH" }] };
    await expect(Promise.all([check("PNOSUCH"), check("PNOSUCH")])).resolves.toMatchObject([failure, failure]);
  });

  test("an id the account has passes", async () => {
    useClient({ PAGERDUTY_TOKEN: "k" });
    agent()
      .get(API)
      .intercept({ method: "GET", path: "/escalation_policies/PEP1" })
      .reply(200, { escalation_policy: { id: "PEP1" } });
    await expect(check("PEP1")).resolves.not.toHaveProperty("failures");
  });

  test("another failure passes the preview and says the create checks it", async () => {
    useClient({ PAGERDUTY_TOKEN: "k" });
    agent()
      .get(API)
      .intercept({ method: "GET", path: "/escalation_policies/PEP2" })
      .reply(403, { error: { message: "Access Denied", code: 2010 } });
    await expect(check("PEP2")).resolves.not.toHaveProperty("failures");
    expect(warnings).toEqual([expect.stringMatching(/^escalationPolicy: PEP2 could not be checked at preview \(.*403.*\); the create at `up` checks it$/)]);
  });

  test("credentials without escalation_policies.read make no request and no warning (the app token asked for it: an app without it is granted the rest)", async () => {
    useClient({ PAGERDUTY_CLIENT_ID: "cid", PAGERDUTY_CLIENT_SECRET: "s", PAGERDUTY_SUBDOMAIN: "acme" });
    agent()
      .get(AUTH)
      .intercept({ method: "POST", path: "/oauth/token", body: (b) => new URLSearchParams(b).get("scope")!.split(" ").includes("escalation_policies.read") })
      .reply(200, { access_token: "at", token_type: "bearer", expires_in: 86400, scope: "as_account-us.acme services.read services.write" });
    await expect(check("PEP3")).resolves.not.toHaveProperty("failures");
    expect(warnings).toEqual([]); // and no GET: the mock agent refuses unplanned requests
  });
});

// Lookups by name beside getService: escalation policy, vendor, priority, business service, alert
// grouping setting, and a service's integration.
import { lookupProvider, runLookup as runWith, type LookupInputs } from "../../../../provider/resources/lookup";
import { lookupName } from "../../../../sdk/lookups";
import { notFound, reply, useApi } from "../../support/resource-api";

const api = useApi();
const provider = lookupProvider(api.ctx);
const runLookup = (inputs: LookupInputs) => runWith(api.ctx(), inputs);
const check = (query: string, args: Record<string, unknown>) => provider.check!({}, { query, args, __provider: "p" });

test.each([
  ["escalationPolicy", { name: "" }, "args.name"],
  ["vendor", {}, "args.name"],
  ["priority", { name: "P1", extra: true }, "args"],
  ["businessService", { name: "" }, "args.name"],
  ["alertGroupingSetting", {}, "args.name"],
  ["serviceIntegration", { name: "Alerts" }, "args.service"],
  ["serviceIntegration", { service: "P1", name: "" }, "args.name"],
])("check names the wrong argument: %s %j", async (query, args, property) => {
  const f = (await check(query, args)).failures?.[0];
  expect(f).toMatchObject({ property: "", reason: expect.stringMatching(new RegExp(`^${property.replace(".", "\\.")}: `)) });
  expect(api.calls).toEqual([]);
});

describe("getEscalationPolicy", () => {
  test("narrows with query, matches the name exactly across pages", async () => {
    reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=0", {
      escalation_policies: [{ id: "E1", name: "Ops nights", summary: "Ops nights" }],
      more: true,
    });
    reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=1", {
      escalation_policies: [{ id: "E2", name: "Ops", summary: "Ops", description: null, num_loops: 2, html_url: "https://x/E2" }],
      more: false,
    });
    await expect(runLookup({ query: "escalationPolicy", args: { name: "Ops" } })).resolves.toEqual({
      id: "E2",
      name: "Ops",
      description: null,
      numLoops: 2,
      htmlUrl: "https://x/E2",
      summary: "Ops",
    });
  });

  test("no exact match is a failure on args.name listing the candidates", async () => {
    reply(api, "GET", "/escalation_policies?query=ops&limit=100&offset=0", { escalation_policies: [{ id: "E2", name: "Ops" }], more: false });
    await expect(check("escalationPolicy", { name: "ops" })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'args.name: no escalation policy is named "ops" (names match exactly, including case); there are: "Ops"' }],
    });
  });

  test("two policies of the same name are ambiguous, named by id", async () => {
    reply(api, "GET", "/escalation_policies?query=Ops&limit=100&offset=0", {
      escalation_policies: [
        { id: "E1", name: "Ops" },
        { id: "E2", name: "Ops" },
      ],
      more: false,
    });
    await expect(runLookup({ query: "escalationPolicy", args: { name: "Ops" } })).rejects.toThrow('2 escalation policies are named "Ops" (E1, E2)');
  });
});

describe("getVendor", () => {
  test("exact name first, else case-insensitive", async () => {
    const vendors = {
      vendors: [
        { id: "V1", name: "Datadog", summary: "Datadog", website_url: "https://dd", description: "d" },
        { id: "V2", name: "Datadog Logs" },
      ],
      more: false,
    };
    reply(api, "GET", "/vendors?query=datadog&limit=100&offset=0", vendors);
    await expect(runLookup({ query: "vendor", args: { name: "datadog" } })).resolves.toEqual({
      id: "V1",
      name: "Datadog",
      summary: "Datadog",
      description: "d",
      websiteUrl: "https://dd",
    });
    reply(api, "GET", "/vendors?query=Nope&limit=100&offset=0", { vendors: [], more: false });
    await expect(check("vendor", { name: "Nope" })).resolves.toMatchObject({ failures: [{ reason: 'args.name: no vendor is named "Nope"' }] });
  });
});

describe("getPriority", () => {
  test("reads every priority and matches the name", async () => {
    reply(api, "GET", "/priorities?limit=100&offset=0", {
      priorities: [
        { id: "Q1", name: "P1", summary: "P1", description: "crit" },
        { id: "Q2", name: "P2" },
      ],
      more: false,
    });
    await expect(runLookup({ query: "priority", args: { name: "P1" } })).resolves.toEqual({ id: "Q1", name: "P1", description: "crit", summary: "P1" });
  });
});

/** The scopes each request of a lookup asked for. */
function scopesAsked(): string[][] {
  const request = api.ctx().client.request.bind(api.ctx().client);
  const asked: string[][] = [];
  jest.spyOn(api.ctx().client, "request").mockImplementation((method, path, opts) => {
    asked.push(opts?.scopes ?? []);
    return request(method, path, opts);
  });
  return asked;
}

describe("getBusinessService", () => {
  test("reads every page (the listing takes no query) and matches the name exactly, with services.read", async () => {
    const asked = scopesAsked();
    reply(api, "GET", "/business_services?limit=100&offset=0", { business_services: [{ id: "B1", name: "checkout", summary: "checkout" }], more: true });
    reply(api, "GET", "/business_services?limit=100&offset=1", {
      business_services: [
        {
          id: "B2",
          type: "business_service",
          name: "Checkout",
          summary: "Checkout",
          description: "Pay",
          point_of_contact: "Ann",
          team: { id: "T1", type: "team_reference" },
        },
      ],
      more: false,
    });
    await expect(runLookup({ query: "businessService", args: { name: "Checkout" } })).resolves.toEqual({
      id: "B2",
      type: "business_service",
      name: "Checkout",
      summary: "Checkout",
      description: "Pay",
      pointOfContact: "Ann",
      team: "T1",
    });
    expect(asked).toEqual([["services.read"], ["services.read"]]);
  });

  test("no exact match is a failure on args.name listing the candidates; absent fields are null", async () => {
    const page = { business_services: [{ id: "B1", name: "checkout" }], more: false };
    reply(api, "GET", "/business_services?limit=100&offset=0", page);
    await expect(check("businessService", { name: "Checkout" })).resolves.toMatchObject({
      failures: [{ reason: 'args.name: no business service is named "Checkout" (names match exactly, including case); there are: "checkout"' }],
    });
    reply(api, "GET", "/business_services?limit=100&offset=0", page);
    await expect(runLookup({ query: "businessService", args: { name: "checkout" } })).resolves.toMatchObject({
      summary: "checkout",
      description: null,
      pointOfContact: null,
      team: null,
    });
  });
});

describe("getAlertGroupingSetting", () => {
  const setting = (id: string, name: string) => ({
    id,
    name,
    description: null,
    type: "time",
    config: { timeout: 300 },
    services: [{ id: "P1", type: "service_reference" }],
    created_at: "2026-01-01T00:00:00Z",
  });

  test("follows the after cursors of every setting and matches the name exactly, with services.read", async () => {
    const asked = scopesAsked();
    reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Checkout nights")], after: "c1" });
    reply(api, "GET", "/alert_grouping_settings?limit=100&after=c1", {
      alert_grouping_settings: [{ ...setting("G2", "Checkout"), type: "content_based", config: { aggregate: "all", fields: ["summary"], time_window: 300 } }],
    });
    await expect(runLookup({ query: "alertGroupingSetting", args: { name: "Checkout" } })).resolves.toEqual({
      id: "G2",
      name: "Checkout",
      description: null,
      type: "content_based",
      config: { aggregate: "all", fields: ["summary"], timeWindow: 300 },
      services: ["P1"],
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(asked).toEqual([["services.read"], ["services.read"]]);
  });

  test("no match fails on args.name with the dependsOn hint; a repeated name is ambiguous", async () => {
    reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Nights")] });
    await expect(check("alertGroupingSetting", { name: "Days" })).resolves.toMatchObject({
      failures: [{ reason: expect.stringMatching(/^args\.name: no alert grouping setting is named "Days" .*dependsOn.*there are: "Nights"$/) }],
    });
    reply(api, "GET", "/alert_grouping_settings?limit=100", { alert_grouping_settings: [setting("G1", "Nights"), setting("G2", "Nights")] });
    await expect(runLookup({ query: "alertGroupingSetting", args: { name: "Nights" } })).rejects.toThrow(
      '2 alert grouping settings are named "Nights" (G1, G2)',
    );
  });
});

describe("getServiceIntegration", () => {
  test("finds the integration by name among the service's, without its routing key", async () => {
    reply(api, "GET", "/services/P1?include%5B%5D=integrations", {
      service: {
        id: "P1",
        integrations: [
          {
            id: "I1",
            type: "events_api_v2_inbound_integration",
            name: "Alerts",
            summary: "Alerts",
            integration_key: "k".repeat(32),
            vendor: { id: "V1" },
            html_url: "https://x/I1",
            created_at: "t",
          },
          { id: "I2", type: "generic_email_inbound_integration", name: "Mail", integration_email: "a@b" },
        ],
      },
    });
    const r = await runLookup({ query: "serviceIntegration", args: { service: "P1", name: "Alerts" } });
    expect(r).toMatchObject({ id: "I1", service: "P1", type: "events_api_v2_inbound_integration", vendor: "V1", name: "Alerts", htmlUrl: "https://x/I1" });
    expect(JSON.stringify(r)).not.toContain("k".repeat(32));
    expect(r).not.toHaveProperty("integrationKey");
  });

  test("an unknown service fails on args.service; an unknown name on args.name", async () => {
    reply(api, "GET", "/services/PX?include%5B%5D=integrations", notFound, 404);
    await expect(check("serviceIntegration", { service: "PX", name: "Alerts" })).resolves.toMatchObject({
      failures: [{ reason: 'args.service: no service has id "PX"' }],
    });
    reply(api, "GET", "/services/P1?include%5B%5D=integrations", { service: { id: "P1", integrations: [{ id: "I2", name: "Mail" }] } });
    await expect(check("serviceIntegration", { service: "P1", name: "Alerts" })).resolves.toMatchObject({
      failures: [{ reason: expect.stringMatching(/^args\.name: no integration of the service is named "Alerts".*dependsOn.*there are: "Mail"$/) }],
    });
  });
});

test("lookup names follow the SDK function and the arguments", () => {
  expect(lookupName("getVendor", { name: "Datadog" })).toBe("getVendor-Datadog");
  expect(lookupName("getBusinessService", { name: "Checkout" })).toBe("getBusinessService-Checkout");
  expect(lookupName("getServiceIntegration", { service: "P1", name: "Alerts" })).toMatch(/^getServiceIntegration-P1-[0-9a-f]{8}$/);
});

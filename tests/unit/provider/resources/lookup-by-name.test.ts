// Lookups by name beside getService: escalation policy, vendor, priority, and a service's integration.
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
  expect(lookupName("getServiceIntegration", { service: "P1", name: "Alerts" })).toMatch(/^getServiceIntegration-P1-[0-9a-f]{8}$/);
});

// What a preview catches that used to fail only at `up` (after other objects were made): a service
// name or timeout the API refuses, and an integration address another integration already has.
import { resource as integration } from "../../../../provider/resources/service-integration";
import { MAX_TIMEOUT, resource as service } from "../../../../provider/resources/service";
import { offline, reply, useApi } from "../../support/resource-api";

const reasons = (r: { failures?: Array<{ reason: string }> }) => (r.failures ?? []).map((f) => f.reason);

describe("Service, checked without a request", () => {
  const provider = offline(service);
  const check = (extra: Record<string, unknown>) => provider.check({}, { name: "Checkout", escalationPolicy: "PEP1", ...extra });

  test("a name over 255 characters names the field and the length", async () => {
    expect(reasons(await check({ name: "x".repeat(256) }))).toEqual(["name: must be at most 255 characters; it has 256"]);
    expect(reasons(await check({ name: "x".repeat(255) }))).toEqual([]);
  });

  test.each(["autoResolveTimeout", "acknowledgementTimeout"])("%s beyond what the API stores names the field; the largest and null pass", async (field) => {
    for (const bad of [1e308, MAX_TIMEOUT + 1]) {
      expect(reasons(await check({ [field]: bad }))).toEqual([
        `${field}: must be at most 2147483647 seconds (about 68 years), the largest the API stores; null disables it`,
      ]);
    }
    expect(reasons(await check({ [field]: -1 }))).toEqual([expect.stringMatching(new RegExp(`^${field}: `))]);
    expect(reasons(await check({ [field]: MAX_TIMEOUT }))).toEqual([]);
    expect(reasons(await check({ [field]: null }))).toEqual([]);
  });
});

describe("ServiceIntegration: an address another integration of the account has", () => {
  const api = useApi();
  const LIST = "/services?include%5B%5D=integrations&limit=100&offset=0";
  const listed = {
    services: [
      {
        id: "PSVC1",
        name: "Checkout",
        integrations: [{ id: "PINT1", type: "generic_email_inbound_integration", integration_email: "Orders@acme.pagerduty.com" }],
      },
      { id: "PSVC2", name: "Search", integrations: [{ id: "PINT2", type: "events_api_v2_inbound_integration" }] },
    ],
    more: false,
  };
  const mail = (extra: Record<string, unknown> = {}) => ({
    service: "PSVC2",
    type: "generic_email_inbound_integration",
    integrationEmail: "orders@acme.pagerduty.com",
    ...extra,
  });

  test("fails at preview naming the field, the holder and its service; one listing per process", async () => {
    reply(api, "GET", LIST, listed);
    const provider = api.provider(integration);
    const r = await provider.check({}, mail());
    expect(reasons(r)).toEqual([
      'integrationEmail: "orders@acme.pagerduty.com" is already the address of integration PINT1 of service PSVC1 ("Checkout"): an address belongs to one integration of the account. Choose another address, or adopt that integration with `adoptId`',
    ]);
    // A second check asks nothing again; a free address passes.
    expect(reasons(await provider.check({}, mail({ integrationEmail: "new@acme.pagerduty.com" })))).toEqual([]);
    expect(api.calls).toHaveLength(1);
  });

  test("the integration that has it already, or the one being adopted, passes without a request", async () => {
    const provider = api.provider(integration);
    expect(reasons(await provider.check(mail(), mail()))).toEqual([]);
    expect(api.calls).toHaveLength(0);
    reply(api, "GET", LIST, listed);
    expect(reasons(await provider.check({}, mail({ adoptId: "PINT1" })))).toEqual([]);
  });

  test("an account that refuses the listing (403) is warned about and left to the create", async () => {
    reply(api, "GET", LIST, { error: { message: "Forbidden", code: 2010 } }, 403);
    const provider = api.provider(integration);
    expect(reasons(await provider.check({}, mail()))).toEqual([]);
    expect(api.warnings).toEqual([
      expect.stringMatching(/^integrationEmail: the account's addresses could not be checked at preview \(GET \/services failed: 403/),
    ]);
  });
});

// What a preview catches that used to fail only at `up` (after other objects were made): a service
// name or timeout the API refuses, and an integration address another integration already has.
import { resource as integration } from "../../../../provider/resources/service-integration";
import { MAX_TIMEOUT, resource as service } from "../../../../provider/resources/service";
import { StackState } from "../../../../provider/account/stack-state";
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

  describe("held by a resource of this stack", () => {
    const TYPE = "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration";
    const URN = `urn:pulumi:dev::p::${TYPE}::mail`;
    const useStack = () =>
      api.reset({
        stack: new StackState("org/p/dev", async () => ({
          version: 3,
          deployment: { resources: [{ urn: URN, type: TYPE, id: "PINT1", inputs: { __origin: "0f1e" } }] },
        })),
      });

    test("its own replacement (a move to another service: the engine checks it with no old inputs) passes", async () => {
      useStack();
      reply(api, "GET", LIST, listed);
      expect(reasons(await api.provider(integration).check({}, mail({ __origin: "0f1e@org/p/dev" })))).toEqual([]);
    });

    test("another resource of the stack: the message names it and the way out in two deployments", async () => {
      useStack();
      reply(api, "GET", LIST, listed);
      expect(reasons(await api.provider(integration).check({}, mail({ __origin: "aaaa@org/p/dev" })))).toEqual([
        `integrationEmail: "orders@acme.pagerduty.com" is already the address of integration PINT1 of service PSVC1 ("Checkout"), which resource ${URN} of ` +
          "this stack manages: an address belongs to one integration, and a deployment creates before it deletes. Move the address in two deployments: " +
          "take it off that resource (or remove the resource) and run `pulumi up`, then declare it here",
      ]);
    });
  });

  test("a move to another service that keeps the address deletes the old integration first; a new address or none does not", async () => {
    const provider = offline(integration);
    const olds = { service: "PSVC1", type: "generic_email_inbound_integration", integrationEmail: "orders@acme.pagerduty.com", name: "Inbox" };
    await expect(provider.diff("PINT1", olds, mail({ integrationEmail: "Orders@acme.pagerduty.com" }))).resolves.toMatchObject({
      changes: true,
      replaces: ["service"],
      deleteBeforeReplace: true,
    });
    await expect(provider.diff("PINT1", olds, mail({ integrationEmail: "new@acme.pagerduty.com" }))).resolves.toMatchObject({ deleteBeforeReplace: false });
    await expect(provider.diff("PINT1", { ...olds, integrationEmail: null }, mail({ integrationEmail: undefined }))).resolves.toMatchObject({
      replaces: ["service"],
      deleteBeforeReplace: false,
    });
    await expect(provider.diff("PINT1", olds, mail({ service: "PSVC1", name: "Renamed" }))).resolves.toMatchObject({
      replaces: [],
      deleteBeforeReplace: false,
    });
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

import { lookupProvider, runLookup as runWith, type LookupInputs } from "../../../../provider/resources/lookup";
import { lookupName } from "../../../../sdk/lookups";
import { notFound, reply, useApi } from "../../support/resource-api";

const api = useApi();
const provider = lookupProvider(api.ctx);
const runLookup = (inputs: LookupInputs) => runWith(api.ctx(), inputs);
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const svc = (id: string, name: string) => ({
  id,
  type: "service",
  name,
  description: null,
  escalation_policy: { id: "PEP" },
  status: "active",
  html_url: `https://x/${id}`,
});
const check = (query: string, args: Record<string, unknown>) => provider.check!({}, { query, args, __provider: "p" });

describe("check validates the arguments, naming the property", () => {
  test.each([
    ["service", { name: "" }, "args.name"],
    ["service", { name: "a", extra: 1 }, "args"],
    ["serviceEventRules", {}, "args.service"],
    ["serviceAuditRecords", { service: "P1", since: "yesterday" }, "args.since"],
    ["serviceAuditRecords", { service: "P1", since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" }, "args.until"],
    ["serviceAuditRecords", { service: "P1", since: "2026-01-01T00:00:00Z", until: "2026-03-01T00:00:00Z" }, "args.until"],
    ["serviceAuditRecords", { service: "P1", limit: 500 }, "args.limit"],
    ["servicez", { service: "P1" }, "query"],
  ])("%s %j", async (query, args, property) => {
    const r = await check(query, args);
    const f = r.failures?.[0];
    // No property is named (the engine would print its value); the path leads the reason.
    expect(f).toMatchObject({ property: "", reason: expect.stringMatching(new RegExp(`^${property.replace(".", "\\.")}: `)) });
    expect(api.calls).toEqual([]);
  });
});

describe("getService", () => {
  test("matches the name exactly across pages and maps the service", async () => {
    reply(api, "GET", "/services?query=Checkout&limit=100&offset=0", { services: [svc("P1", "Checkout API")], more: true, limit: 1, offset: 0 });
    reply(api, "GET", "/services?query=Checkout&limit=100&offset=1", { services: [svc("P2", "Checkout")], more: false });
    const r = await check("service", { name: "Checkout" });
    expect(r.failures).toBeUndefined();
    expect(r.inputs.result).toMatchObject({ id: "P2", name: "Checkout", description: "", escalationPolicy: "PEP", htmlUrl: "https://x/P2" });
    expect(r.inputs.__provider).toBe("p");
  });

  test("a missing service is a failure naming the name", async () => {
    reply(api, "GET", "/services?query=checkout&limit=100&offset=0", { services: [svc("P2", "Checkout")], more: false });
    await expect(check("service", { name: "checkout" })).resolves.toMatchObject({
      failures: [
        {
          property: "",
          reason: 'args.name: no service is named "checkout" (names match exactly, including case; if this program creates it, pass the service in dependsOn)',
        },
      ],
    });
  });
});

describe("service-scoped lookups", () => {
  test("event rules follow offset pagination and are camelCased", async () => {
    reply(api, "GET", "/services/P1/rules?limit=100&offset=0", {
      rules: [{ id: "R1", position: 0, time_frame: { active_between: { start_time: 1 } } }],
      more: true,
    });
    reply(api, "GET", "/services/P1/rules?limit=100&offset=1", { rules: [{ id: "R2", position: 1, disabled: true }], more: false });
    await expect(runLookup({ query: "serviceEventRules", args: { service: "P1" } })).resolves.toEqual({
      rules: [
        { id: "R1", position: 0, timeFrame: { activeBetween: { startTime: 1 } } },
        { id: "R2", position: 1, disabled: true },
      ],
    });
  });

  test("enablements with their warnings", async () => {
    reply(api, "GET", "/services/P1/enablements", { enablements: [{ feature: "aiops", enabled: false, updated_at: null, warnings: ["not entitled"] }] });
    await expect(runLookup({ query: "serviceEnablements", args: { service: "P1" } })).resolves.toEqual({
      enablements: [{ feature: "aiops", enabled: false, updatedAt: null, warnings: ["not entitled"] }],
    });
  });

  test("custom field values by name, with the fields", async () => {
    reply(api, "GET", "/services/P1/custom_fields/values", {
      custom_fields: [
        { id: "F1", name: "tier", display_name: "Tier", data_type: "string", field_type: "single_value", value: "gold" },
        { id: "F2", name: "pci" },
      ],
    });
    await expect(runLookup({ query: "serviceCustomFieldValues", args: { service: "P1" } })).resolves.toEqual({
      values: { tier: "gold", pci: null },
      fields: [
        { id: "F1", name: "tier", displayName: "Tier", dataType: "string", fieldType: "single_value", value: "gold" },
        { id: "F2", name: "pci", value: null },
      ],
    });
  });

  test("audit records follow next_cursor with limit, since and until", async () => {
    const q = "since=2026-01-01T00%3A00%3A00Z&until=2026-01-02T00%3A00%3A00Z&limit=2";
    reply(api, "GET", `/services/P1/audit/records?${q}`, { records: [{ id: "A3", execution_time: "t3" }, { id: "A2" }], next_cursor: "c1", limit: 2 });
    reply(api, "GET", `/services/P1/audit/records?${q}&cursor=c1`, {
      records: [{ id: "A1", details: { fields: [{ name: "x", before_value: "1" }] } }],
      next_cursor: null,
    });
    const r = await runLookup({
      query: "serviceAuditRecords",
      args: { service: "P1", since: "2026-01-01T00:00:00Z", until: "2026-01-02T00:00:00Z", limit: 2 },
    });
    expect(r).toEqual({ records: [{ id: "A3", executionTime: "t3" }, { id: "A2" }, { id: "A1", details: { fields: [{ name: "x", beforeValue: "1" }] } }] });
  });

  test("a cursor that repeats is an error, not an endless loop", async () => {
    reply(api, "GET", "/services/P1/audit/records?limit=100", { records: [], next_cursor: "c1" });
    reply(api, "GET", "/services/P1/audit/records?limit=100&cursor=c1", { records: [], next_cursor: "c1" });
    await expect(runLookup({ query: "serviceAuditRecords", args: { service: "P1" } })).rejects.toThrow(/cursor of an earlier page/);
  });

  test("a missing service is a failure on args.service", async () => {
    reply(api, "GET", "/services/PX/enablements", notFound, 404);
    await expect(check("serviceEnablements", { service: "PX" })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'args.service: no service has id "PX"' }],
    });
  });

  test("other errors propagate", async () => {
    reply(api, "GET", "/services/P1/enablements", { error: { message: "Forbidden", code: 2010 } }, 403);
    await expect(check("serviceEnablements", { service: "P1" })).rejects.toThrow(/403/);
  });
});

describe("freshness", () => {
  test("check does not query while an argument is unknown", async () => {
    const news = { query: "serviceEnablements", args: { service: UNKNOWN } };
    await expect(provider.check!({}, news)).resolves.toEqual({ inputs: news });
  });

  test("diff shows a change only when the result (or the query) changed, never a replacement", async () => {
    const olds = { query: "service", args: { name: "A" }, result: { id: "P1", description: "x" }, __provider: "p" };
    await expect(provider.diff!("id", olds, { ...olds })).resolves.toMatchObject({ changes: false });
    await expect(provider.diff!("id", olds, { ...olds, result: { id: "P1", description: "y" } })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("id", olds, { ...olds, args: { name: "B" } })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("id", olds, { ...olds, result: undefined })).resolves.toMatchObject({ changes: true });
  });

  test("create and update record what check found without calling the API; read and delete touch nothing", async () => {
    const news = { query: "serviceEnablements", args: { service: "P1" }, result: { enablements: [] }, __provider: "p" };
    const created = await provider.create!(news);
    expect(created.outs).toEqual({ query: "serviceEnablements", args: { service: "P1" }, result: { enablements: [] } });
    expect(created.id).toMatch(/^serviceEnablements:[0-9a-f]{16}$/);
    await expect(provider.update!(created.id, created.outs, news)).resolves.toEqual({ outs: created.outs });
    await expect(provider.read!(created.id, created.outs)).resolves.toEqual({ id: created.id, props: created.outs });
    await provider.delete!(created.id, created.outs);
    expect(api.calls).toEqual([]);
  });
});

describe("lookup names", () => {
  test("derived from plain arguments", () => {
    expect(lookupName("getService", { name: "Checkout" })).toBe("getService-Checkout");
    expect(lookupName("getServiceAuditRecords", { service: "P1", since: undefined })).toBe("getServiceAuditRecords-P1");
    const a = lookupName("getServiceAuditRecords", { service: "P1", since: "2026-01-01T00:00:00Z" });
    expect(a).toMatch(/^getServiceAuditRecords-P1-[0-9a-f]{8}$/);
    expect(lookupName("getServiceAuditRecords", { service: "P1", since: "2026-01-02T00:00:00Z" })).not.toBe(a);
    expect(lookupName("getService", { name: "a::b" })).toBe("getService-a:_b");
  });
  test("an explicit name wins; an Output argument needs one", () => {
    expect(lookupName("getService", { name: Promise.resolve("x") }, "mine")).toBe("mine");
    expect(() => lookupName("getServiceEventRules", { service: Promise.resolve("P1") })).toThrow(
      'getServiceEventRules: "service" is not a plain value (an Output or Promise), so the lookup cannot be named after its arguments; pass a name: getServiceEventRules({...}, { name: "my-lookup" })',
    );
  });
});

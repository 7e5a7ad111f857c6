// operations/lookup-resource.ts: the Lookup resource behind the SDK's get* functions, over every
// registered lookup: check runs the query, diff shows only a changed result, nothing is written.
import { lookupProvider } from "../../../../provider/operations/lookup-resource";
import { UNKNOWN } from "../../../../provider/kernel/check";
import { lookups } from "../../../../provider/registry";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const provider = lookupProvider(lookups(), api.ctx);
const check = (query: string, args: unknown, more: Record<string, unknown> = {}) => provider.check!({}, { query, args, __provider: "p", ...more });

describe("check validates the query and the arguments before any request, naming the property", () => {
  test.each([
    ["service", { name: "" }, "args.name"],
    ["service", { name: "a", extra: 1 }, "args"],
    ["service", undefined, "args"],
    ["escalationPolicy", { name: "" }, "args.name"],
    ["vendor", {}, "args.name"],
    ["priority", { name: "P1", extra: true }, "args"],
    ["businessService", { name: "" }, "args.name"],
    ["alertGroupingSetting", {}, "args.name"],
    ["serviceIntegration", { name: "Alerts" }, "args.service"],
    ["serviceIntegration", { service: "P1", name: "" }, "args.name"],
    ["serviceEventRules", {}, "args.service"],
    ["serviceAuditRecords", { service: "P1", since: "yesterday" }, "args.since"],
    ["servicez", { service: "P1" }, "query"],
  ])("%s %j", async (query, args, property) => {
    const r = await check(query, args);
    // No property is named (the engine would print its value); the path leads the reason.
    expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(new RegExp(`^${property.replace(".", "\\.")}: `)) }]);
    expect(r.inputs).toEqual({ query, args, __provider: "p" });
    expect(api.calls).toEqual([]);
  });

  test("an unknown query names the lookups this version has", async () => {
    const r = await check("servicez", {});
    expect(r.failures?.[0].reason).toBe(
      `query: no lookup "servicez" (this version has ${lookups()
        .map((l) => l.definition.query)
        .join(", ")})`,
    );
  });

  test("the account's name is checked as every resource's is", async () => {
    const r = await check("service", { name: "Checkout" }, { account: "1eu" });
    expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(/^account: must be a letter/) }]);
  });
});

describe("freshness", () => {
  test("check puts the result and the account into the inputs, keeping the engine's keys", async () => {
    reply(api, "GET", "/services/P1/enablements", { enablements: [] });
    await expect(check("serviceEnablements", { service: "P1" }, { account: "default", result: { stale: true } })).resolves.toEqual({
      inputs: { query: "serviceEnablements", args: { service: "P1" }, __provider: "p", account: "default", result: { enablements: [] } },
    });
  });

  test("check does not query while an argument or the account is unknown", async () => {
    const news = { query: "serviceEnablements", args: { service: UNKNOWN } };
    await expect(provider.check!({}, news)).resolves.toEqual({ inputs: news });
    const inAccount = { query: "serviceEnablements", args: { service: "P1" }, account: UNKNOWN };
    await expect(provider.check!({}, inAccount)).resolves.toEqual({ inputs: inAccount });
  });

  test("diff shows a change only when the result, the query or the account changed, never a replacement", async () => {
    const olds = { query: "service", args: { name: "A" }, result: { id: "P1", description: "x" }, __provider: "p" };
    await expect(provider.diff!("id", olds, { ...olds })).resolves.toMatchObject({ changes: false });
    await expect(provider.diff!("id", olds, { ...olds, result: { id: "P1", description: "y" } })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("id", olds, { ...olds, args: { name: "B" } })).resolves.toMatchObject({ changes: true, replaces: [] });
    await expect(provider.diff!("id", olds, { ...olds, result: undefined })).resolves.toMatchObject({ changes: true });
    await expect(provider.diff!("id", olds, { ...olds, account: "eu" })).resolves.toMatchObject({ changes: true, replaces: [] });
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

  test("the id is a digest of the query, the arguments and the account: the same lookup in another account is another", async () => {
    const news = { query: "serviceEnablements", args: { service: "P1" }, result: { enablements: [] } };
    const a = await provider.create!(news);
    expect((await provider.create!({ ...news, result: { enablements: [{ feature: "x" }] } })).id).toBe(a.id);
    const eu = await provider.create!({ ...news, account: "eu" });
    expect(eu.id).not.toBe(a.id);
    expect(eu.outs.account).toBe("eu");
  });

  test("a state recorded without a result (an older version's) is queried at the update", async () => {
    reply(api, "GET", "/services/P1/enablements", { enablements: [{ feature: "aiops", enabled: true, updated_at: "t", warnings: [] }] });
    const news = { query: "serviceEnablements", args: { service: "P1" }, __provider: "p" };
    await expect(provider.update!("serviceEnablements:x", news, news)).resolves.toEqual({
      outs: {
        query: "serviceEnablements",
        args: { service: "P1" },
        result: { enablements: [{ feature: "aiops", enabled: true, updatedAt: "t", warnings: [] }] },
      },
    });
  });
});

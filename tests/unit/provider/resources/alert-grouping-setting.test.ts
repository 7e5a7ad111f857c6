import { UNKNOWN } from "../../../../provider/kernel/check";
import { resource, toBody } from "../../../../provider/resources/alert-grouping-setting";
import { offline, reply, replyGone, useApi, type Api } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const ONE = "/alert_grouping_settings/PAGS1";
const declared = { name: "Checkout", type: "content_based", config: { aggregate: "all", fields: ["summary"] }, services: ["PSVC"] };
const live = (overrides: Record<string, unknown> = {}) => ({
  id: "PAGS1",
  name: "Checkout",
  description: null,
  type: "content_based",
  config: { aggregate: "all", fields: ["summary"], time_window: 0 },
  services: [{ id: "PSVC", name: "svc" }],
  created_at: new Date().toISOString(),
  ...overrides,
});

/** Answers a listing of settings (its query varies) with `items`. */
function replyList(a: Api, items: unknown[]): void {
  a.pool()
    .intercept({ method: "GET", path: (p) => p.startsWith("/alert_grouping_settings?") })
    .reply(() => {
      a.calls.push({ method: "GET", path: "/alert_grouping_settings", body: undefined });
      return {
        statusCode: 200,
        data: JSON.stringify({ alert_grouping_settings: items, limit: 100, total: null }),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    });
}

describe("check names the field of a config that does not fit the type", () => {
  const check = (news: Record<string, unknown>) => offline(resource).check!({}, { ...declared, ...news });
  const reasons = async (news: Record<string, unknown>) => ((await check(news)).failures ?? []).map((f) => f.reason);

  test("valid inputs pass", async () => {
    await expect(check({})).resolves.not.toHaveProperty("failures");
    await expect(check({ type: "time", config: { timeout: 120 } })).resolves.not.toHaveProperty("failures");
    await expect(check({ type: "intelligent", config: { timeWindow: 0, iagFields: ["summary"] } })).resolves.not.toHaveProperty("failures");
  });
  test("per type", async () => {
    expect(await reasons({ type: "time", config: { timeWindow: 300 } })).toEqual(['config.timeWindow: does not apply to type "time"']);
    expect(await reasons({ type: "time", config: { timeout: 30 } })).toEqual(["config.timeout: must be 0 (until resolved) or 60 to 86400 seconds"]);
    expect(await reasons({ config: { fields: ["summary"] } })).toEqual(['config.aggregate: is required for type "content_based"']);
    expect(await reasons({ config: { aggregate: "all", fields: ["summary"], timeout: 60 } })).toEqual([
      'config.timeout: does not apply to type "content_based"',
    ]);
    expect(await reasons({ type: "content_based_intelligent", config: { aggregate: "any", fields: ["a"], timeWindow: 86400 } })).toEqual([
      'config.timeWindow: must be 0 (recommended) or 300 to 3600 seconds for type "content_based_intelligent"',
    ]);
    expect(await reasons({ config: { aggregate: "all", fields: ["a"], timeWindow: 86400 } })).toEqual([]);
    expect(await reasons({ type: "time", config: undefined, services: ["A", "B"] })).toEqual(['services: type "time" applies to one service; 2 are named']);
    expect(await reasons({ services: [] })).toEqual(["services: must name at least one service"]);
    expect(await reasons({ services: ["A", "A"] })).toEqual(["services: must not name a service twice"]);
  });
  test("services the same program creates are not known at the first preview: two are not one named twice", async () => {
    await expect(check({ services: [UNKNOWN, UNKNOWN] })).resolves.not.toHaveProperty("failures");
    await expect(check({ services: ["A", UNKNOWN] })).resolves.not.toHaveProperty("failures");
    expect(await reasons({ services: ["A", "A", UNKNOWN] })).toEqual([]); // judged once known: up checks again
  });
});

test("the body sends services as references and config in the API's case", () => {
  expect(toBody({ ...declared, config: { aggregate: "all", fields: ["a"], timeWindow: 300 } } as never)).toEqual({
    name: "Checkout",
    type: "content_based",
    config: { aggregate: "all", fields: ["a"], time_window: 300 },
    services: [{ id: "PSVC", type: "service_reference" }],
  });
});

test("create posts the setting and reports its outputs", async () => {
  reply(api, "POST", "/alert_grouping_settings", { alert_grouping_setting: live() }, 201);
  const r = await provider.create!({ ...declared, __provider: "p" });
  expect(api.calls[0].body.alert_grouping_setting).toMatchObject({ name: "Checkout", services: [{ id: "PSVC" }] });
  expect(r.id).toBe("PAGS1");
  expect(r.outs).toMatchObject({ name: "Checkout", type: "content_based", services: ["PSVC"], config: { aggregate: "all", timeWindow: 0 } });
});

test("a create whose reply was lost finds the setting that holds the declared service under the declared name", async () => {
  reply(api, "POST", "/alert_grouping_settings", { error: { message: "Bad Gateway", code: 2000 } }, 502);
  replyList(api, [live(), live({ id: "POTHER", name: "Other" })]);
  reply(api, "PUT", ONE, { alert_grouping_setting: live() });
  const r = await provider.create!({ ...declared, __provider: "p" });
  expect(r.id).toBe("PAGS1");
  expect(api.warnings.join("\n")).toMatch(/PAGS1/);
});

test("drift: a hand change of a declared field is a change; server-added config keys are not", async () => {
  reply(api, "GET", ONE, { alert_grouping_setting: live({ config: { aggregate: "any", fields: ["summary"], time_window: 0 } }) });
  const read = await provider.read!("PAGS1", { ...declared });
  await expect(provider.diff!("PAGS1", read.props!, declared)).resolves.toMatchObject({ changes: true, replaces: [] });
  reply(api, "GET", ONE, { alert_grouping_setting: live() });
  const again = await provider.read!("PAGS1", { ...declared });
  await expect(provider.diff!("PAGS1", again.props!, declared)).resolves.toMatchObject({ changes: false });
});

test("update puts the declared fields; adoption reads then puts", async () => {
  reply(api, "PUT", ONE, { alert_grouping_setting: live({ description: "why" }) });
  const u = await provider.update!("PAGS1", { ...declared }, { ...declared, description: "why" });
  expect(api.calls[0].body.alert_grouping_setting).toMatchObject({ description: "why", services: [{ id: "PSVC" }] });
  expect(u.outs).toMatchObject({ description: "why" });
  reply(api, "GET", ONE, { alert_grouping_setting: live() });
  reply(api, "PUT", ONE, { alert_grouping_setting: live() });
  await expect(provider.create!({ ...declared, adoptId: "PAGS1" })).resolves.toMatchObject({ id: "PAGS1" });
});

test("404 means gone: read drops it, delete is done", async () => {
  replyGone(api, "GET", ONE);
  await expect(provider.read!("PAGS1", { ...declared })).resolves.toMatchObject({ id: "" });
  replyGone(api, "DELETE", ONE);
  await expect(provider.delete!("PAGS1", { ...declared })).resolves.toBeUndefined();
});

test("findExisting lists settings by the declared services and keeps those with the declared name and type", async () => {
  replyList(api, [live(), live({ id: "P2", type: "time" })]);
  await expect(resource.findExisting!(api.ctx().client, declared)).resolves.toEqual(["PAGS1"]);
  expect(resource.describe!(declared)).toBe('alert grouping setting "Checkout"');
});

import { resource, toBody } from "../../../../provider/resources/service-orchestration-cache-variable";
import { offline, reply, replyGone, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const LIST = "/event_orchestrations/services/PSVC/cache_variables";
const ONE = `${LIST}/cv-1`;
const declared = {
  service: "PSVC",
  name: "db_triggers",
  conditions: [{ expression: "event.summary matches part 'db'" }],
  configuration: { type: "trigger_event_count", ttlSeconds: 60 },
};
const live = (overrides: Record<string, unknown> = {}) => ({
  id: "cv-1",
  name: "db_triggers",
  disabled: false,
  conditions: [{ expression: "event.summary matches part 'db'" }],
  configuration: { type: "trigger_event_count", ttl_seconds: 60 },
  created_at: new Date().toISOString(),
  created_by: { id: "PUSER", type: "user_reference", self: "https://api.test/users/PUSER" },
  ...overrides,
});

describe("check names the configuration field that does not fit the type", () => {
  const check = (news: Record<string, unknown>) => offline(resource).check!({}, { ...declared, ...news });
  const reasons = async (news: Record<string, unknown>) => ((await check(news)).failures ?? []).map((f) => f.reason);

  test("valid inputs pass", async () => {
    await expect(check({})).resolves.not.toHaveProperty("failures");
    await expect(check({ configuration: { type: "recent_value", source: "event.summary", regex: "(.*)" } })).resolves.not.toHaveProperty("failures");
    await expect(check({ conditions: undefined, configuration: { type: "external_data", dataType: "boolean", ttlSeconds: 7200 } })).resolves.not.toHaveProperty(
      "failures",
    );
  });

  test("per type: keys that do not apply, keys required", async () => {
    expect(await reasons({ configuration: { type: "recent_value", regex: ".*", ttlSeconds: 300 } })).toEqual([
      'configuration.source: is required for type "recent_value"',
      'configuration.ttlSeconds: does not apply to type "recent_value" (it takes source, regex)',
    ]);
    expect(await reasons({ configuration: { type: "trigger_event_count", dataType: "string", ttlSeconds: 60 } })).toEqual([
      'configuration.dataType: does not apply to type "trigger_event_count" (it takes ttlSeconds)',
    ]);
    expect(await reasons({ conditions: undefined, configuration: { type: "external_data", dataType: "boolean" } })).toEqual([
      'configuration.ttlSeconds: is required for type "external_data"',
    ]);
    expect(await reasons({ configuration: { type: "external_data", dataType: "boolean", ttlSeconds: 60 } })).toEqual([
      'conditions: do not apply to type "external_data" (its value is set through the API)',
    ]);
    expect(await reasons({ configuration: { type: "trigger_event_count", ttlSeconds: 0 } })).toEqual([
      "configuration.ttlSeconds: Number must be greater than or equal to 1",
    ]);
  });

  test("names must not be empty; trigger_count operators are refused outside quotes", async () => {
    expect(await reasons({ name: " " })).toEqual(["name: must not be empty"]);
    expect(await reasons({ conditions: [{ expression: "trigger_count > 5" }] })).toEqual([
      "conditions[0].expression: uses `trigger_count`, which cache variable conditions do not support",
    ]);
    expect(await reasons({ conditions: [{ expression: "event.summary matches 'trigger_count'" }] })).toEqual([]);
  });
});

test("the body is the API's cache_variable: the declared fields in snake case, no service", () => {
  expect(toBody({ ...declared, disabled: true, adoptId: "x" } as never)).toEqual({
    name: "db_triggers",
    disabled: true,
    conditions: [{ expression: "event.summary matches part 'db'" }],
    configuration: { type: "trigger_event_count", ttl_seconds: 60 },
  });
});

test("create posts under the service's orchestration and reports the outputs", async () => {
  reply(api, "POST", LIST, { cache_variable: live() });
  const r = await provider.create!({ ...declared, __provider: "p" });
  expect(api.calls[0].body).toEqual({ cache_variable: toBody(declared as never) });
  expect(r.id).toBe("cv-1");
  expect(r.outs).toMatchObject({
    service: "PSVC",
    name: "db_triggers",
    disabled: false,
    configuration: { type: "trigger_event_count", ttlSeconds: 60 },
  });
  // No data endpoint for this type: the output is left out, not null.
  expect(r.outs).not.toHaveProperty("dataEndpoint");
});

test("a create under a service made moments ago asks again while the service may still answer 404", async () => {
  api.ctx().consistency.created("Service", "PSVC");
  reply(api, "POST", LIST, { error: { message: "Not Found", code: 2100, errors: ["Service PSVC not found"] } }, 404);
  reply(api, "POST", LIST, { cache_variable: live() });
  await expect(provider.create!({ ...declared, __provider: "p" })).resolves.toMatchObject({ id: "cv-1" });
  expect(api.calls.map((c) => c.method)).toEqual(["POST", "POST"]);
});

test("a create whose reply was lost finds the variable by service and name", async () => {
  reply(api, "POST", LIST, { error: { message: "Bad Gateway", code: 2000 } }, 502);
  reply(api, "GET", LIST, { cache_variables: [live(), live({ id: "cv-2", name: "other" })], total: 2 });
  reply(api, "PUT", ONE, { cache_variable: live() });
  const r = await provider.create!({ ...declared, __provider: "p" });
  expect(r.id).toBe("cv-1");
  expect(api.warnings.join("\n")).toMatch(/cv-1/);
});

test("a taken name fails naming the way out", async () => {
  reply(api, "POST", LIST, { error: { message: "Invalid Input Provided", code: 2001, errors: ['"cache_variable.name" db_triggers is already taken'] } }, 400);
  await expect(provider.create!({ ...declared, __provider: "p" })).rejects.toThrow(/adoptId/);
});

test("drift: a hand change is a change; a new service replaces, a new name does not", async () => {
  reply(api, "GET", ONE, { cache_variable: live({ configuration: { type: "trigger_event_count", ttl_seconds: 30 } }) });
  const read = await provider.read!("cv-1", { ...declared });
  await expect(provider.diff!("cv-1", read.props!, declared)).resolves.toMatchObject({ changes: true, replaces: [] });
  reply(api, "GET", ONE, { cache_variable: live() });
  const again = await provider.read!("cv-1", { ...declared });
  await expect(provider.diff!("cv-1", again.props!, declared)).resolves.toMatchObject({ changes: false });
  await expect(provider.diff!("cv-1", again.props!, { ...declared, name: "renamed" })).resolves.toMatchObject({ changes: true, replaces: [] });
  await expect(provider.diff!("cv-1", again.props!, { ...declared, service: "POTHER" })).resolves.toMatchObject({ replaces: ["service"] });
});

test("update puts the declared fields; adoption reads then puts", async () => {
  reply(api, "PUT", ONE, { cache_variable: live({ name: "renamed" }) });
  const u = await provider.update!("cv-1", { ...declared }, { ...declared, name: "renamed" });
  expect(api.calls[0].body.cache_variable).toMatchObject({ name: "renamed", configuration: { type: "trigger_event_count" } });
  expect(u.outs).toMatchObject({ name: "renamed" });
  reply(api, "GET", ONE, { cache_variable: live() });
  reply(api, "PUT", ONE, { cache_variable: live() });
  await expect(provider.create!({ ...declared, adoptId: "cv-1" })).resolves.toMatchObject({ id: "cv-1" });
});

test("404 means gone: read drops it, delete is done", async () => {
  replyGone(api, "GET", ONE);
  await expect(provider.read!("cv-1", { ...declared })).resolves.toMatchObject({ id: "" });
  replyGone(api, "DELETE", ONE);
  await expect(provider.delete!("cv-1", { ...declared })).resolves.toBeUndefined();
});

test("findExisting lists the service's variables and keeps the one with the declared name", async () => {
  reply(api, "GET", LIST, { cache_variables: [live(), live({ id: "cv-2", name: "other" })] });
  await expect(resource.findExisting!(api.ctx().client, declared)).resolves.toEqual(["cv-1"]);
  expect(resource.describe!(declared)).toBe('cache variable "db_triggers" of service PSVC');
});

import { PagerDutyError } from "../../../../provider/errors";
import { enablementOf, resource, warningsOf } from "../../../../provider/resources/service-enablement";
import { reply, replyGone, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const LIST = "/services/PSVC/enablements";
const ONE = "/services/PSVC/enablements/aiops";
const aiops = (enabled: boolean, extra: Record<string, unknown> = {}) => ({ feature: "aiops", enabled, updated_at: "2026-11-22T10:00:00Z", ...extra });

describe("check", () => {
  const check = (news: Record<string, unknown>) => provider.check!({}, { service: "PSVC", feature: "aiops", enabled: true, ...news });
  test("names the property and the problem", async () => {
    await expect(check({ feature: "incident_ai" })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'feature: must be one of "aiops" (the features the API has)' }],
    });
    await expect(check({ enabled: undefined })).resolves.toMatchObject({ failures: [{ property: "", reason: "enabled: is required (true or false)" }] });
    await expect(check({ enabled: "yes" })).resolves.toMatchObject({ failures: [{ property: "", reason: "enabled: must be true or false" }] });
    await expect(check({ service: "" })).resolves.toMatchObject({ failures: [{ property: "", reason: expect.stringMatching(/^service: /) }] });
  });
  test("valid inputs pass", async () => {
    await expect(check({})).resolves.not.toHaveProperty("failures");
  });
});

describe("diff", () => {
  const olds = { service: "PSVC", feature: "aiops", enabled: false, updatedAt: "t", previousEnabled: true };
  test("service and feature replace, enabled updates in place, equal is no change", async () => {
    await expect(provider.diff!("PSVC/aiops", olds, { service: "PSVC", feature: "aiops", enabled: false })).resolves.toMatchObject({ changes: false });
    await expect(provider.diff!("PSVC/aiops", olds, { service: "PSVC", feature: "aiops", enabled: true })).resolves.toMatchObject({
      changes: true,
      replaces: [],
    });
    await expect(provider.diff!("PSVC/aiops", olds, { service: "P2", feature: "aiops", enabled: false })).resolves.toMatchObject({
      changes: true,
      replaces: ["service"],
    });
    await expect(provider.diff!("PSVC/aiops", olds, { service: "PSVC", feature: "other", enabled: false })).resolves.toMatchObject({ replaces: ["feature"] });
  });
});

describe("reply shapes", () => {
  test.each([
    ["object", { enablement: aiops(false) }],
    ["array", { enablement: [aiops(false)] }],
    ["plural array", { enablements: [{ feature: "other", enabled: true }, aiops(false)] }],
    ["object without feature", { enablement: { enabled: false } }],
  ])("%s", (_, body) => {
    expect(enablementOf(body, "aiops")).toMatchObject({ enabled: false });
  });
  test("nothing usable is undefined", () => {
    expect(enablementOf({}, "aiops")).toBeUndefined();
    expect(enablementOf({ enablements: [{ feature: "other", enabled: true }] }, "aiops")).toBeUndefined();
    expect(enablementOf({ enablement: { feature: "aiops", enabled: "yes" } }, "aiops")).toBeUndefined();
    expect(enablementOf(undefined, "aiops")).toBeUndefined();
  });
  test("warnings as strings or objects", () => {
    expect(warningsOf({ warnings: ["a", { message: "b" }, { code: 1 }] })).toEqual(["a", "b", '{"code":1}']);
    expect(warningsOf({ warnings: "single" })).toEqual(["single"]);
    expect(warningsOf({})).toEqual([]);
  });
});

describe("create", () => {
  test.each([
    ["{enablement: {...}}", { enablement: aiops(false) }],
    ["{enablement: [...]}", { enablement: [aiops(false)] }],
    ["{enablements: [...]}", { enablements: [aiops(false)] }],
  ])("records the value found before and accepts the reply as %s", async (_, body) => {
    reply(api, "GET", LIST, { enablements: [{ feature: "aiops", enabled: true, updated_at: null }] });
    reply(api, "PUT", ONE, body);
    const r = await provider.create!({ service: "PSVC", feature: "aiops", enabled: false, __provider: "p" });
    expect(api.calls[1].body).toEqual({ enablement: { enabled: false } });
    expect(r).toEqual({
      id: "PSVC/aiops",
      outs: {
        service: "PSVC",
        feature: "aiops",
        enabled: false,
        updatedAt: "2026-11-22T10:00:00Z",
        previousEnabled: true,
        __declared: "service,feature,enabled",
      },
    });
  });

  test("a feature missing from the list reads as enabled (never written)", async () => {
    reply(api, "GET", LIST, { enablements: [] });
    reply(api, "PUT", ONE, { enablement: aiops(false) });
    await expect(provider.create!({ service: "PSVC", feature: "aiops", enabled: false })).resolves.toMatchObject({ outs: { previousEnabled: true } });
  });

  test("warnings become Pulumi warnings and the create succeeds", async () => {
    reply(api, "GET", LIST, { enablements: [aiops(false)] });
    reply(api, "PUT", ONE, { enablement: aiops(true, { warnings: ['The account is not entitled to "aiops"'] }) });
    await expect(provider.create!({ service: "PSVC", feature: "aiops", enabled: true })).resolves.toMatchObject({
      outs: { enabled: true, previousEnabled: false },
    });
    expect(api.warnings).toEqual(['pagerduty:ServiceEnablement PSVC/aiops: The account is not entitled to "aiops"']);
  });

  test("a reply without the enablement is an error naming the call", async () => {
    reply(api, "GET", LIST, { enablements: [] });
    reply(api, "PUT", ONE, { ok: true });
    await expect(provider.create!({ service: "PSVC", feature: "aiops", enabled: false })).rejects.toThrow(
      /PUT \/services\/PSVC\/enablements\/aiops replied without an enablement/,
    );
  });
});

describe("read and update", () => {
  const props = { service: "PSVC", feature: "aiops", enabled: false, updatedAt: "t", previousEnabled: true };
  test("read reports the live value and keeps the previous one", async () => {
    reply(api, "GET", LIST, { enablements: [aiops(true)] });
    await expect(provider.read!("PSVC/aiops", props)).resolves.toEqual({
      id: "PSVC/aiops",
      props: { ...props, enabled: true, updatedAt: "2026-11-22T10:00:00Z" },
    });
  });
  test("read with nothing recorded (an import) takes the value found as the one delete restores", async () => {
    reply(api, "GET", LIST, { enablements: [aiops(false)] });
    await expect(provider.read!("PSVC/aiops", { service: "PSVC", feature: "aiops" })).resolves.toMatchObject({
      props: { enabled: false, previousEnabled: false },
    });
  });
  test("read of a deleted service drops the resource", async () => {
    replyGone(api, "GET", LIST);
    await expect(provider.read!("PSVC/aiops", props)).resolves.toEqual({ id: "", props: {} });
  });
  test("update writes and keeps previousEnabled", async () => {
    reply(api, "PUT", ONE, { enablements: [aiops(true)] });
    await expect(provider.update!("PSVC/aiops", props, { service: "PSVC", feature: "aiops", enabled: true })).resolves.toEqual({
      outs: { ...props, enabled: true, updatedAt: "2026-11-22T10:00:00Z", __declared: "service,feature,enabled" },
    });
  });
  test("update of a service deleted out of band says it is gone and that pulumi refresh reconciles", async () => {
    replyGone(api, "PUT", ONE);
    const update = provider.update!("PSVC/aiops", props, { service: "PSVC", feature: "aiops", enabled: true });
    await expect(update).rejects.toThrow(/^service PSVC \(enablement aiops\) is gone: it was deleted outside Pulumi \(PUT .* 404.*\)\. Run "pulumi refresh"/);
  });
});

describe("delete", () => {
  const props = { service: "PSVC", feature: "aiops", enabled: false, previousEnabled: true };
  test("writes the previous value back", async () => {
    reply(api, "PUT", ONE, { enablement: aiops(true) });
    await provider.delete!("PSVC/aiops", props);
    expect(api.calls[0].body).toEqual({ enablement: { enabled: true } });
  });
  test("writes even when the value already matches (never a silent no-op)", async () => {
    reply(api, "PUT", ONE, { enablement: aiops(false) });
    await provider.delete!("PSVC/aiops", { ...props, enabled: false, previousEnabled: false });
    expect(api.calls).toHaveLength(1);
  });
  test("fails when the API reports another value", async () => {
    reply(api, "PUT", ONE, { enablement: aiops(false) });
    const err = await provider.delete!("PSVC/aiops", props).catch((e) => e);
    expect(err).toBeInstanceOf(PagerDutyError);
    expect(err.message).toBe("restoring aiops of service PSVC to enabled=true did not take effect: the API reports enabled=false");
  });
  test("a deleted service has nothing to restore", async () => {
    replyGone(api, "PUT", ONE);
    await expect(provider.delete!("PSVC/aiops", props)).resolves.toBeUndefined();
  });
});

import { z } from "zod";
import { fromApi, toApi } from "../../provider/kernel/case";
import { checkInputs, propertyPath, UNKNOWN } from "../../provider/kernel/check";
import { diffManaged, satisfies } from "../../provider/kernel/diff";

describe("key mapping", () => {
  test("camelCase <-> snake_case, deep, arrays included", () => {
    const pulumi = { supportHours: { timeZone: "UTC", daysOfWeek: [1, 2] }, scheduledActions: [{ toUrgency: "high", at: { type: "named_time" } }] };
    const api = { support_hours: { time_zone: "UTC", days_of_week: [1, 2] }, scheduled_actions: [{ to_urgency: "high", at: { type: "named_time" } }] };
    expect(toApi(pulumi)).toEqual(api);
    expect(fromApi(api)).toEqual(pulumi);
  });
  test("undefined means not managed and is not sent", () => {
    expect(toApi({ description: undefined, name: "x" })).toEqual({ name: "x" });
  });
});

describe("satisfies (only declared values are compared)", () => {
  test("server-added keys inside objects are not drift", () => {
    expect(satisfies({ type: "constant", urgency: "high" }, { type: "constant", urgency: "high", during_support_hours: null })).toBe(true);
  });
  test("a declared nested value that differs is drift", () => {
    expect(satisfies({ type: "time", config: { timeout: 5 } }, { type: "time", config: { timeout: 10 } })).toBe(false);
  });
  test("null declared matches null or absent, not a value", () => {
    expect(satisfies(null, null)).toBe(true);
    expect(satisfies(null, undefined)).toBe(true);
    expect(satisfies(null, 14400)).toBe(false);
  });
  test("arrays must have equal length", () => {
    expect(satisfies([1, 2], [1, 2, 3])).toBe(false);
    expect(satisfies([1, 2], [1, 2])).toBe(true);
  });
});

describe("diffManaged", () => {
  const olds = { name: "a", description: "d", autoResolveTimeout: 14400, __provider: "x" };
  test("fields the user did not set never diff", () => {
    expect(diffManaged(olds, { name: "a", __provider: "y" })).toMatchObject({ changes: false, replaces: [] });
  });
  test("a changed managed field is an in-place update", () => {
    expect(diffManaged(olds, { name: "b" })).toMatchObject({ changes: true, replaces: [], changed: ["name"] });
  });
  test("replaceOn fields ask for replacement", () => {
    expect(diffManaged({ service: "P1" }, { service: "P2" }, { replaceOn: ["service"] })).toMatchObject({ changes: true, replaces: ["service"] });
  });
  test("ignored inputs never diff", () => {
    expect(diffManaged({}, { adoptId: "P1" }, { ignore: ["adoptId"] }).changes).toBe(false);
  });
});

describe("checkInputs", () => {
  const schema = z.object({ a: z.object({ b: z.array(z.object({ c: z.number() })) }) }).strict();
  test("failures name the property path the way users write it", () => {
    const r = checkInputs(schema, { a: { b: [{ c: 1 }, { c: "x" }] }, __provider: "p" });
    expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(/^a\.b\[1\]\.c: /) }]);
  });
  test("valid inputs pass through with engine keys kept", () => {
    expect(checkInputs(schema, { a: { b: [] }, __provider: "p" })).toEqual({ inputs: { a: { b: [] }, __provider: "p" } });
  });
  test("a top-level failure names the field in the reason, never as the property (the engine would print its value)", () => {
    expect(checkInputs(z.object({ n: z.number() }), { n: "x" }).failures).toEqual([{ property: "", reason: expect.stringMatching(/^n: /) }]);
  });
  test("values computed from other resources (unknown in preview) are not judged until known", () => {
    const s2 = z.object({ n: z.number().int(), o: z.object({ e: z.enum(["a"]) }), m: z.string().min(3) }).strict();
    expect(checkInputs(s2, { n: UNKNOWN, o: { e: UNKNOWN }, m: "abc" })).toEqual({ inputs: { n: UNKNOWN, o: { e: UNKNOWN }, m: "abc" } });
    expect(checkInputs(s2, { n: UNKNOWN, o: UNKNOWN, m: "ab" }).failures).toEqual([{ property: "", reason: expect.stringMatching(/^m: /) }]);
  });
  test("propertyPath", () => expect(propertyPath(["x", 0, "y", 2])).toBe("x[0].y[2]"));
});

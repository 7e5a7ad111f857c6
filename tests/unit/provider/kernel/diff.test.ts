// kernel/diff.ts: only declared values are compared, with the definition's replace rules.
import { diffManaged, satisfies } from "../../../../provider/kernel/diff";

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

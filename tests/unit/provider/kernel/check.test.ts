// kernel/check.ts: inputs checked against the definition's schema, failures named as users write paths.
import { z } from "zod";
import { checkInputs, holdsUnknown, propertyPath, reads, UNKNOWN } from "../../../../provider/kernel/check";

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
  test("a rule over a list of values not known yet does not compare, count or match the placeholders", () => {
    // Every unknown is the same placeholder: as values, two outputs of two resources would be equal.
    const ids = z.array(z.string()).refine((v) => new Set(v).size === v.length, "must not name one twice");
    const s3 = z.object({ ids, tags: z.array(z.string()).refine((v) => v.every((t) => /^[a-z]+$/.test(t)), "lowercase only") });
    expect(checkInputs(s3, { ids: [UNKNOWN, UNKNOWN], tags: ["ok", UNKNOWN] })).toEqual({ inputs: { ids: [UNKNOWN, UNKNOWN], tags: ["ok", UNKNOWN] } });
    // Known values are still judged, beside unknown ones.
    expect(checkInputs(s3, { ids: ["a", "a"], tags: [UNKNOWN] }).failures).toEqual([{ property: "", reason: "ids: must not name one twice" }]);
  });
  test("a cross-field rule that read a value not known yet is not judged: it says what it read", () => {
    const s4 = z.object({ sets: z.array(z.string()), to: z.string() }).superRefine((v, ctx) => {
      if (!v.sets.includes(v.to)) ctx.addIssue({ code: "custom", path: ["to"], message: "names no set", params: reads(...v.sets.map((_, i) => ["sets", i])) });
    });
    expect(checkInputs(s4, { sets: ["start", UNKNOWN], to: "triage" }).failures).toBeUndefined();
    expect(checkInputs(s4, { sets: ["start", "other"], to: "triage" }).failures).toEqual([{ property: "", reason: "to: names no set" }]);
  });
  test("holdsUnknown looks inside lists and objects", () => {
    expect([UNKNOWN, [1, UNKNOWN], { a: { b: UNKNOWN } }, "x", null, { a: [1] }].map(holdsUnknown)).toEqual([true, true, true, false, false, false]);
  });
  test("propertyPath", () => expect(propertyPath(["x", 0, "y", 2])).toBe("x[0].y[2]"));
});

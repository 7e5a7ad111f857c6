// The declared shape as the state keeps it (kernel/shape-text.ts): one string, read back exactly.
import { shapeOf } from "../../../../provider/kernel/declared";
import { parseShapeText, ShapeTextError, shapeText } from "../../../../provider/kernel/shape-text";

test("the text of the shapes this package's resources declare", () => {
  expect(shapeText({ description: true, escalationPolicy: true, name: true })).toBe("description,escalationPolicy,name");
  const rule = shapeOf({
    actions: { severity: { value: "critical" } },
    conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "payload.source" } }] },
    position: 0,
    service: "P1",
  }) as Record<string, never>;
  expect(shapeText(rule)).toBe("actions{severity{value}},conditions{operator,subconditions[{operator,parameters{path}}]},position,service");
  expect(shapeText({})).toBe("");
});

test.each([
  ["leaves and objects", { a: true, b: { c: true, d: { e: true } } }],
  ["arrays of leaves, objects, arrays, and empty ones", { tags: [true, true], steps: [{ at: true }, true, [true, { x: true }]], none: [], empty: {} }],
  ["keys that need quoting", { "my field": true, "a,b": { "{": true, "": true }, 'q"uote\\': [true], é: true, "1x": true, $ok_2: true }],
  ["a key named like Object's own properties", { __proto__x: true, constructor: true, ["__proto__"]: { toString: true } }],
])("%s read back as written", (_what, shape) => {
  const text = shapeText(shape as never);
  expect(parseShapeText(text)).toEqual(shape);
  expect(Object.keys(parseShapeText(text))).toEqual(Object.keys(shape));
});

test("a key named __proto__ is a key, not the prototype", () => {
  const shape = JSON.parse('{"__proto__":{"polluted":true}}');
  const back = parseShapeText(shapeText(shape));
  expect(Object.keys(back)).toEqual(["__proto__"]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
});

test.each(["a{b", "a[.", "a[x]", "a,", ",a", "a}b", '"unterminated', '"\\x"', "a b", "a[.,]", "a{}}"])("%j is not a shape: a typed error", (text) => {
  expect(() => parseShapeText(text)).toThrow(ShapeTextError);
  try {
    parseShapeText(text);
  } catch (e) {
    expect((e as ShapeTextError).code).toBe("ERR_STATE");
    expect((e as ShapeTextError).message).toMatch(/^__declared is not a declared shape at offset \d+/);
  }
});

// The unit tests mirror the sources: tests/unit/<path>/<module>.test.ts covers <path>/<module>.ts
// (several files of one module add an aspect: <module>-<aspect>.test.ts), so a module's tests are
// where a reader looks for them. Only whole-tree checks sit at the top; helpers sit in support/.
import * as fs from "node:fs";
import * as path from "node:path";

const UNIT = __dirname;
const ROOT = path.join(UNIT, "../..");
const WHOLE_TREE = ["architecture-tower.test.ts", "docs-facts.test.ts", "docs-links.test.ts", "layout.test.ts", "support-matrix.test.ts"];

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));

/** The source a test file covers, if there is one: the module itself or, for `<module>-<aspect>`, the module. */
function sourceOf(test: string): string | undefined {
  const rel = path.relative(UNIT, test).replace(/\.test\.ts$/, "");
  const dir = path.join(ROOT, path.dirname(rel));
  const parts = path.basename(rel).split("-");
  for (let n = parts.length; n > 0; n--) {
    const name = parts.slice(0, n).join("-");
    for (const ext of [".ts", ".js"]) if (fs.existsSync(path.join(dir, name + ext))) return path.relative(ROOT, path.join(dir, name + ext));
  }
  return undefined;
}

test("every unit test file names the source module it covers", () => {
  const tests = files(UNIT).filter((f) => f.endsWith(".test.ts") && path.dirname(f) !== UNIT);
  expect(tests.length).toBeGreaterThan(50);
  expect(tests.filter((t) => !sourceOf(t)).map((t) => path.relative(UNIT, t))).toEqual([]);
});

test("at the top only whole-tree checks; helpers in support/", () => {
  const top = fs.readdirSync(UNIT).filter((f) => fs.statSync(path.join(UNIT, f)).isFile());
  expect(top.sort()).toEqual([...WHOLE_TREE].sort());
  expect(files(path.join(UNIT, "support")).filter((f) => f.endsWith(".test.ts"))).toEqual([]);
});

test("a test file without a source is caught", () => {
  expect(sourceOf(path.join(UNIT, "provider/kernel/check.test.ts"))).toBe("provider/kernel/check.ts");
  expect(sourceOf(path.join(UNIT, "provider/account/stack-state-outage.test.ts"))).toBe("provider/account/stack-state.ts");
  expect(sourceOf(path.join(UNIT, "provider/kernel/fields.test.ts"))).toBeUndefined();
});

// The kinds' modules: none imported but by the list of kinds (what other modules use of a kind lives
// in the other files of its folder). `import type` counts too: it vanishes at run time, but still
// ties two modules together. No circle between files, and no import that climbs a floor, is
// tests/emulator/tower.test.ts's to hold.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../emulator/src");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** Relative imports of a file (type-only ones included), resolved to files. */
function imports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+[^;]*?from\s+"(\.{1,2}\/[^"]+)";/gms)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const target = [`${base}.ts`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
    if (target) out.push(target);
  }
  return out;
}

const graph = new Map(files(ROOT).map((f) => [f, imports(f)]));
const name = (f: string) => path.relative(ROOT, f);

test("a kind's module is imported by the list of kinds alone", () => {
  const kinds = path.join(ROOT, "kinds");
  const list = path.join(kinds, "index.ts");
  /** kinds/<kind>.ts or kinds/<kind>/index.ts: the module that declares a kind. */
  const isKind = (f: string) =>
    path.dirname(f) === kinds ? f !== list && f !== path.join(kinds, "kind.ts") : path.dirname(path.dirname(f)) === kinds && path.basename(f) === "index.ts";
  expect([...graph.keys()].filter(isKind).length).toBeGreaterThan(10);
  const crossing = [...graph].flatMap(([f, deps]) => (f === list ? [] : deps.filter(isKind).map((d) => `${name(f)} -> ${name(d)}`)));
  expect(crossing).toEqual([]);
});

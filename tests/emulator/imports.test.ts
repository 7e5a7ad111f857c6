// The kinds' modules: none imported but by the list of kinds (what other modules use of a kind lives
// in the other files of its folder). `import type` counts too: it vanishes at run time, but still
// ties two modules together. No circle between files, and no import that climbs a floor, is
// tests/emulator/tower.test.ts's to hold.
import * as path from "node:path";
import { importGraph } from "../support/tower";

const ROOT = path.resolve(__dirname, "../../emulator/src");
const graph = importGraph(ROOT);
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

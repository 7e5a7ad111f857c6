// A source tree read as a tower of floors (tests/unit/architecture-tower.test.ts holds provider/ to
// one, tests/emulator/tower.test.ts emulator/src): its TypeScript files, the files each imports
// (type imports, re-exports and the modules loaded on first use, `require("./x")`, included), the
// floor each sits on, and what breaks the tower: an import that climbs, a cycle between files.
import * as fs from "node:fs";
import * as path from "node:path";

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/** The files of the tree that `file` imports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g), ...text.matchAll(/\b(?:require|import)\("(\.[^"]+)"\)/g)];
  return specifiers.flatMap((m) => {
    const target = path.resolve(path.dirname(file), m[1]);
    const found = [`${target}.ts`, path.join(target, "index.ts")].find((p) => fs.existsSync(p));
    return found ? [found] : [];
  });
}

export interface Tower {
  files: string[];
  graph: Map<string, string[]>;
  /** A file's path from the tree's root. */
  rel(file: string): string;
  /** The folder of the root a file is in, or the file's name without `.ts` at the top. */
  unitOf(file: string): string;
  /** The index of a file's floor (throws naming the unit when it is on none). */
  floorOf(file: string): number;
  /** Every import to a higher floor, as "from -> to". */
  climbs(): string[];
  /** Every cycle between files, as "a -> b -> a". */
  cycles(): string[];
}

/** Each TypeScript file of the tree at `root`, with the files of the tree it imports. */
export function importGraph(root: string): Map<string, string[]> {
  return new Map(sources(root).map((f) => [f, importsOf(f)]));
}

/** The tower of the tree at `root` with `floors` (lowest first: each a list of units). */
export function readTower(root: string, floors: readonly (readonly string[])[]): Tower {
  const graph = importGraph(root);
  const files = [...graph.keys()];
  const rel = (f: string) => path.relative(root, f);
  const unitOf = (f: string) => {
    const parts = rel(f).split(path.sep);
    return parts.length > 1 ? parts[0] : path.basename(parts[0], ".ts");
  };
  const floorOf = (f: string) => {
    const floor = floors.findIndex((units) => units.includes(unitOf(f)));
    if (floor < 0) throw new Error(`${rel(f)} is on no floor: add "${unitOf(f)}" to FLOORS`);
    return floor;
  };
  const climbs = () => [...graph].flatMap(([file, targets]) => targets.filter((t) => floorOf(t) > floorOf(file)).map((t) => `${rel(file)} -> ${rel(t)}`));
  const cycles = () => {
    const state = new Map<string, "open" | "done">();
    const found: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") {
        found.push([...trail.slice(trail.indexOf(f)), f].map(rel).join(" -> "));
        return;
      }
      state.set(f, "open");
      for (const t of graph.get(f) ?? []) visit(t, [...trail, f]);
      state.set(f, "done");
    };
    for (const f of files) visit(f, []);
    return found;
  };
  return { files, graph, rel, unitOf, floorOf, climbs, cycles };
}

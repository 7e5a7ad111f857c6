// provider/ as a tower: each floor imports only floors below it (type imports included), and no two
// files import each other, however indirectly. A new import that climbs or closes a loop fails here.
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../../provider");

/** The floors, lowest first: a folder of provider/ (or a file at its top) and what it is for. */
const FLOORS: string[][] = [
  ["errors", "fs", "settings", "scopes"], // typed errors; durable files and cache directories; the table of settings; the OAuth scopes
  ["host"], // the few places that lean on other projects' internals
  ["http"], // the undici client: retries, rate budget, credentials it is handed
  ["config"], // settings from stack config and the environment
  ["auth"], // token sources and grants
  ["kernel"], // pure helpers: definitions, checks, diffs, pages, consistency, rule order, the API's paths
  ["account"], // one context per account: client, journal, listings, lanes, the stack's state
  ["operations"], // the provider factory, create-once recovery, the lookups' one path and their resource
  ["resources"], // one module per resource, the audit-record search
  ["lookups"], // one module per lookup (they map what the resources read)
  ["registry"], // every kind, by name, and every lookup
  ["door"], // what both doors share: the deployment in the door's namespace, each kind's provider, the lookups
  ["cli", "dynamic-door"], // the commands and the dynamic providers' door
  ["bundled", "index"], // the loader of both doors' bundle, the entry point the serialized providers require
];

const floorOf = (file: string): number => {
  const rel = path.relative(ROOT, file).split(path.sep);
  const unit = rel.length > 1 ? rel[0] : path.basename(rel[0], ".ts");
  const floor = FLOORS.findIndex((f) => f.includes(unit));
  if (floor < 0) throw new Error(`${path.relative(ROOT, file)} is on no floor: add "${unit}" to FLOORS`);
  return floor;
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The provider files `file` imports (type imports, re-exports and the modules it loads on first use, `require("./x")`, included). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/g), ...text.matchAll(/\b(?:require|import)\("(\.[^"]+)"\)/g)];
  for (const m of specifiers) {
    const target = path.resolve(path.dirname(file), m[1]);
    const found = [`${target}.ts`, path.join(target, "index.ts")].find((p) => fs.existsSync(p));
    if (found) out.push(found);
  }
  return out;
}

const FILES = sources(ROOT);
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));

test("every provider file sits on a floor", () => {
  for (const f of FILES) expect(() => floorOf(f)).not.toThrow();
});

test("no import climbs: each file imports only its own floor or floors below", () => {
  const climbs: string[] = [];
  for (const [file, targets] of GRAPH) {
    for (const t of targets) if (floorOf(t) > floorOf(file)) climbs.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, t)}`);
  }
  expect(climbs).toEqual([]);
});

test("no cycle between files", () => {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (f: string, trail: string[]) => {
    if (state.get(f) === "done") return;
    if (state.get(f) === "open") {
      cycles.push([...trail.slice(trail.indexOf(f)), f].map((x) => path.relative(ROOT, x)).join(" -> "));
      return;
    }
    state.set(f, "open");
    for (const t of GRAPH.get(f) ?? []) visit(t, [...trail, f]);
    state.set(f, "done");
  };
  for (const f of FILES) visit(f, []);
  expect(cycles).toEqual([]);
});

test("no provider line is wider than the formatter's 160 columns (it wraps code; long messages are split by hand)", () => {
  const wide = sources(ROOT).flatMap((f) =>
    fs
      .readFileSync(f, "utf8")
      .split("\n")
      .flatMap((line, i) => (line.length > 160 ? [`${path.relative(ROOT, f)}:${i + 1}`] : [])),
  );
  expect(wide).toEqual([]);
});

// emulator/src as a tower, as tests/unit/architecture-tower.test.ts holds provider/ to one: each floor
// imports only floors below it (type imports included), no two files import each other however
// indirectly, no two folders import each other both ways, and nothing below the kinds imports a
// kind: a kind's effects on others (a service's maintenance, its seed section, its admin routes)
// reach the core through the hooks it offers (kinds/kind.ts, core.ts `KindState`).
import * as path from "node:path";
import { readTower } from "../support/tower";

const ROOT = path.join(__dirname, "../../emulator/src");

/** The floors, lowest first: a folder of emulator/src (or a file at its top) and what it is for. */
const FLOORS: string[][] = [
  ["store", "errors", "ids", "clock", "stats", "issued", "ratelimit", "time-zones", "tls", "vendors", "auth-codes", "scopes"], // records, the error registry, ids, the clock and counters, the OAuth scopes
  ["validate", "schemas", "depth", "persistence"], // field checks, body schemas, nesting bounds, the data file
  ["pcl"], // the condition language: parsing, conditions, regexes, time, templates, compiled programs, traces
  ["faults", "lag", "seed", "auth"], // fault injection, the consistency lag, seeding, REST credentials
  ["core", "client"], // the runtime every route shares, and the in-process client
  ["region"], // the REST bases and which accounts each serves
  ["http", "oauth"], // route helpers, and the OAuth area
  ["catalog", "escalation-policies"], // read-only areas every kind shares
  ["kinds"], // every kind: its tables, routes, lag, seed section, admin routes and effects on others
  ["admin", "lag-gate"], // the test controls, and the gate that hides lagging objects
  ["app"], // the fastify application
  ["index"], // the entry point
  ["cli"], // the command line
];

const TOWER = readTower(ROOT, FLOORS);
const { files: FILES, graph: GRAPH, rel, unitOf, floorOf } = TOWER;
const KINDS = path.join(ROOT, "kinds");

test("every emulator file sits on a floor", () => {
  for (const f of FILES) expect(() => floorOf(f)).not.toThrow();
});

test("no import climbs: each file imports only its own floor or floors below", () => {
  expect(TOWER.climbs()).toEqual([]);
});

test("no cycle between files", () => {
  expect(TOWER.cycles()).toEqual([]);
});

test("no folder whose files import each other both ways (a folder and one inside it excepted: kinds/index.ts lists the kinds, which use kinds/kind.ts)", () => {
  const folderOf = (f: string) => path.dirname(f);
  const edges = new Set<string>();
  for (const [file, targets] of GRAPH) for (const t of targets) if (folderOf(file) !== folderOf(t)) edges.add(`${folderOf(file)}|${folderOf(t)}`);
  const nested = (a: string, b: string) => a.startsWith(`${b}${path.sep}`) || b.startsWith(`${a}${path.sep}`);
  const both = [...edges]
    .map((e) => e.split("|"))
    .filter(([a, b]) => a < b && edges.has(`${b}|${a}`) && !nested(a, b))
    .map(([a, b]) => `${rel(a) || "."} <-> ${rel(b) || "."}`);
  expect(both).toEqual([]);
});

test("nothing below kinds/ imports a kind, and the condition language (pcl/) imports nothing of the state or the core", () => {
  const kindFloor = FLOORS.findIndex((f) => f.includes("kinds"));
  const below = FILES.filter((f) => floorOf(f) < kindFloor);
  expect(below.flatMap((f) => (GRAPH.get(f) ?? []).filter((t) => t.startsWith(`${KINDS}${path.sep}`)).map((t) => `${rel(f)} -> ${rel(t)}`))).toEqual([]);
  const pcl = FILES.filter((f) => unitOf(f) === "pcl");
  expect(pcl.length).toBeGreaterThan(5);
  const outside = pcl.flatMap((f) => (GRAPH.get(f) ?? []).filter((t) => unitOf(t) !== "pcl").map((t) => `${rel(f)} -> ${rel(t)}`));
  expect(outside.filter((e) => /-> (store|core|seed)\.ts$/.test(e))).toEqual([]);
});

// provider/ as a tower: each floor imports only floors below it (type imports included), and no two
// files import each other, however indirectly. A new import that climbs or closes a loop fails here.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readTower } from "../support/tower";

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

const TOWER = readTower(ROOT, FLOORS);

test("every provider file sits on a floor", () => {
  for (const f of TOWER.files) expect(() => TOWER.floorOf(f)).not.toThrow();
});

test("no import climbs: each file imports only its own floor or floors below", () => {
  expect(TOWER.climbs()).toEqual([]);
});

test("no cycle between files", () => {
  expect(TOWER.cycles()).toEqual([]);
});

test("no provider line is wider than the formatter's 160 columns (it wraps code; long messages are split by hand)", () => {
  const wide = TOWER.files.flatMap((f) =>
    fs
      .readFileSync(f, "utf8")
      .split("\n")
      .flatMap((line, i) => (line.length > 160 ? [`${path.relative(ROOT, f)}:${i + 1}`] : [])),
  );
  expect(wide).toEqual([]);
});

test("the tower's reader finds a climbing import and a cycle in a made-up tree (tests/support/tower.ts, which the emulator's test uses too)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-tower-"));
  try {
    fs.mkdirSync(path.join(root, "low"));
    fs.writeFileSync(path.join(root, "low", "a.ts"), 'import { b } from "../high";\nexport const a = 1;\n');
    fs.writeFileSync(path.join(root, "high.ts"), 'import type { c } from "./low/c";\nexport const b = require("./low/a");\n');
    fs.writeFileSync(path.join(root, "low", "c.ts"), "export type c = number;\n");
    const tower = readTower(root, [["low"], ["high"]]);
    expect(tower.climbs()).toEqual([`low${path.sep}a.ts -> high.ts`]);
    expect(tower.cycles()).toEqual([`high.ts -> low${path.sep}a.ts -> high.ts`]);
    expect(() => readTower(root, [["low"]]).floorOf(path.join(root, "high.ts"))).toThrow('high.ts is on no floor: add "high" to FLOORS');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

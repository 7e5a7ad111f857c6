// The floors of `npm run bench:compare` (bench/compare-program.ts): their resources hold what this
// package's hold, the user's fields and the computed outputs, and the floor's provider objects
// serialize to one `require` line like ours, while the heavy floor's are inlined.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { floorModule } from "../../../bench/compare-program";
import { outputShape } from "../../../provider/kernel/define";
import { RESOURCES } from "../../../provider/registry";
import { ROOT } from "../../../scripts/repo-root";

/** The program's inputs per kind (bench/compare-program.ts `program`). */
const INPUTS = {
  Service: { file: "service", inputs: { name: "Bench 0", description: "benchmark", escalationPolicy: "PEP0000" } },
  ServiceIntegration: { file: "service-integration", inputs: { service: "P1", type: "events_api_v2_inbound_integration", name: "Events API v2" } },
  ServiceEventRule: { file: "service-event-rule", inputs: { service: "P1", position: 0, conditions: { operator: "and", subconditions: [] }, actions: {} } },
} as const;

/** A project directory with the floor's package in its node_modules. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-floor-"));
  const pkg = path.join(dir, "node_modules", "ppd-bench-floor");
  fs.mkdirSync(pkg, { recursive: true });
  for (const [file, text] of Object.entries(floorModule())) fs.writeFileSync(path.join(pkg, file), text);
  fs.symlinkSync(path.join(ROOT, "node_modules", "@pulumi"), path.join(dir, "node_modules", "@pulumi"));
  return dir;
}

test("the floor's create returns the outputs this package's resource of the same kind has, no more, no fewer", async () => {
  const dir = project();
  for (const [kind, { file, inputs }] of Object.entries(INPUTS)) {
    const provider = require(path.join(dir, "node_modules", "ppd-bench-floor", `${file}.js`));
    const made = await provider.create({ ...inputs });
    expect(Object.keys(made.outs).sort()).toEqual(Object.keys(outputShape(RESOURCES[kind as keyof typeof INPUTS].definition)).sort());
    // No request, nothing of ours: an update returns the same shape.
    expect(Object.keys((await provider.update(made.id, made.outs, { ...inputs })).outs).sort()).toEqual(Object.keys(made.outs).sort());
  }
});

test("the floor's provider objects serialize to one require line; the heavy floor's, made in the program, are inlined", () => {
  const script = `
    const req = require("node:module").createRequire(process.cwd() + "/");
    const pulumi = req("@pulumi/pulumi");
    (async () => {
      const floor = req("ppd-bench-floor/service");
      const heavy = req("ppd-bench-floor/provider")("Service", { summary: "Bench" });
      const text = async (p) => (await pulumi.runtime.serializeFunction(() => p, { allowSecrets: true })).text;
      console.log(JSON.stringify({ floor: await text(floor), heavy: await text(heavy) }));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: project(), encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  const { floor, heavy } = JSON.parse(r.stdout);
  expect(floor.match(/require\("[^"]*"\)/g)).toEqual(['require("ppd-bench-floor/service.js")']);
  expect(floor.length).toBeLessThan(400);
  expect(heavy).not.toContain("require(");
  expect(heavy).toContain('kind: "Service"');
  expect(heavy.length).toBeGreaterThan(1500);
});

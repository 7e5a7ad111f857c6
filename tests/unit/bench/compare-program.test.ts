// The floors of `npm run bench:compare` (bench/compare-program.ts). The floor (issue 38's) and the
// bare floor hold the user's fields and nothing else: the floor's provider is its package's object,
// which the serializer writes as a `require`; the bare floor's `__provider` line loads that object
// the way the dynamic-provider host does. The heavy floor returns the outputs this package's
// resources have, and its provider objects, made in the program, are inlined by the serializer. The
// shaped floor's resources carry what this package's carry, outputs and bookkeeping.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { floorModule, program } from "../../../bench/compare-program";
import { shapeOf } from "../../../provider/kernel/declared";
import { outputShape } from "../../../provider/kernel/define";
import { shapeText } from "../../../provider/kernel/shape-text";
import { RESOURCES } from "../../../provider/registry";
import { ROOT } from "../../../scripts/repo-root";

/** The program's inputs per kind (bench/compare-program.ts `program`). */
const INPUTS = {
  Service: { name: "Bench 0", description: "benchmark", escalationPolicy: "PEP0000" },
  ServiceIntegration: { service: "P1", type: "events_api_v2_inbound_integration", name: "Events API v2" },
  ServiceEventRule: { service: "P1", position: 0, conditions: { operator: "and", subconditions: [] }, actions: {} },
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

/** Runs `script` with node in `dir`, returning its JSON output. */
function inDir(dir: string, script: string): any {
  const r = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

test("the bare floor: its __provider line, loaded as the host loads it, is the package's object; create and update return the inputs, nothing else", () => {
  const dir = project();
  const source = /const floorProvider = ("[^\n]*");/.exec(program({ services: 1, prefix: "B", impl: "bare floor" }))![1];
  const out = inDir(
    dir,
    `
    const { createRequire } = require("node:module");
    const req = createRequire(process.cwd() + "/");
    const requireFromString = createRequire(req.resolve("@pulumi/pulumi/package.json"))("require-from-string");
    const p = requireFromString(${source}).handler();
    (async () => {
      const made = await p.create(${JSON.stringify(INPUTS.ServiceIntegration)});
      const updated = await p.update(made.id, made.outs, { ...made.outs, name: "x" });
      console.log(JSON.stringify({ same: p === req("ppd-bench-floor"), outs: made.outs, updated: updated.outs }));
    })();`,
  );
  expect(out).toEqual({ same: true, outs: INPUTS.ServiceIntegration, updated: { ...INPUTS.ServiceIntegration, name: "x" } });
  expect(JSON.stringify(JSON.parse(source)).length).toBeLessThan(60);
});

test("the heavy floor returns the outputs this package's resource of the same kind has, and its objects are inlined", () => {
  const dir = project();
  const out = inDir(
    dir,
    `
    const req = require("node:module").createRequire(process.cwd() + "/");
    const pulumi = req("@pulumi/pulumi");
    const source = ${JSON.stringify(program({ services: 1, prefix: "B", impl: "heavy floor" }))};
    const computed = (kind) => new Function("return " + new RegExp("floorProvider\\\\(\\"" + kind + "\\", (\\\\{[\\\\s\\\\S]*?\\\\})\\\\), Object").exec(source)[1])();
    (async () => {
      const outs = {};
      for (const [kind, inputs] of Object.entries(${JSON.stringify(INPUTS)})) {
        const p = req("ppd-bench-floor/provider")(kind, computed(kind));
        outs[kind] = Object.keys((await p.create(inputs)).outs).sort();
      }
      const heavy = req("ppd-bench-floor/provider")("Service", {});
      const text = (await pulumi.runtime.serializeFunction(() => heavy, { allowSecrets: true })).text;
      console.log(JSON.stringify({ outs, text }));
    })();`,
  );
  for (const kind of Object.keys(INPUTS) as (keyof typeof INPUTS)[])
    expect(out.outs[kind]).toEqual(Object.keys(outputShape(RESOURCES[kind].definition)).sort());
  expect(out.text).not.toContain("require(");
  expect(out.text).toContain('kind: "Service"');
  expect(out.text.length).toBeGreaterThan(1500);
});

test("the floor: Pulumi's dynamic resource over the package's object, which the serializer writes as a require; create and update return the inputs", () => {
  const dir = project();
  const source = program({ services: 1, prefix: "B", impl: "floor" });
  expect(source).toContain('import floorProvider = require("ppd-bench-floor");');
  expect(source).toContain("extends pulumi.dynamic.Resource");
  const out = inDir(
    dir,
    `
    const req = require("node:module").createRequire(process.cwd() + "/");
    const pulumi = req("@pulumi/pulumi");
    const p = req("ppd-bench-floor");
    (async () => {
      const made = await p.create(${JSON.stringify(INPUTS.ServiceIntegration)});
      const updated = await p.update(made.id, made.outs, { ...made.outs, name: "x" });
      const text = (await pulumi.runtime.serializeFunction(() => p, { allowSecrets: true })).text;
      console.log(JSON.stringify({ outs: made.outs, updated: updated.outs, text }));
    })();`,
  );
  expect(out.outs).toEqual(INPUTS.ServiceIntegration);
  expect(out.updated).toEqual({ ...INPUTS.ServiceIntegration, name: "x" });
  expect(out.text).toMatch(/require\("ppd-bench-floor(\/index\.js)?"\)/);
  expect(out.text.length).toBeLessThan(400);
});

test("the shaped floor: its resources carry this package's outputs and bookkeeping, with the same record of the declared inputs", () => {
  const dir = project();
  const source = program({ services: 1, prefix: "B", impl: "shaped floor" });
  expect(source).toContain('"pulumi-nodejs:dynamic/floor:" + kind');
  expect(source).toContain('additionalSecretOutputs: ["integrationKey"]');
  const out = inDir(
    dir,
    `
    const req = require("node:module").createRequire(process.cwd() + "/");
    const shaped = req("ppd-bench-floor/shaped");
    (async () => {
      const outs = {};
      for (const [kind, inputs] of Object.entries(${JSON.stringify(INPUTS)})) outs[kind] = (await shaped[kind].create({ ...inputs, __origin: "o" })).outs;
      const updated = (await shaped.Service.update("S", outs.Service, { ...${JSON.stringify(INPUTS.Service)}, description: "x" })).outs;
      console.log(JSON.stringify({ outs, updated }));
    })();`,
  );
  for (const kind of Object.keys(INPUTS) as (keyof typeof INPUTS)[]) {
    const bookkeeping = kind === "ServiceEventRule" ? ["__createdAt", "__declared", "__origin"] : ["__declared", "__origin"];
    // Every output this package reports, except the unset ones it leaves out (null, as it never stores).
    const outputs = outputShape(RESOURCES[kind].definition);
    const keys = Object.keys(out.outs[kind]);
    expect(Object.values(out.outs[kind])).not.toContain(null);
    expect([...Object.keys(outputs), ...bookkeeping]).toEqual(expect.arrayContaining(keys));
    expect(keys).toEqual(expect.arrayContaining([...Object.keys(outputs).filter((k) => !outputs[k].isNullable()), ...bookkeeping]));
    expect(out.outs[kind].__declared).toBe(shapeText(shapeOf(INPUTS[kind]) as never));
  }
  expect(out.updated).toMatchObject({ description: "x", __declared: "name,description,escalationPolicy" });
});

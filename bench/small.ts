// The small-stack benchmark (issue 47): what a `pulumi` run of a small stack costs through each door
// beside a provider that does nothing, phase by phase, and where the time goes. 1, 5 and 15
// services, each with an Events API v2 integration and an event rule, through
// - the TypeScript door: this package's dynamic providers against the comparison's minimal floor (a
//   do-nothing dynamic provider, bench/compare-program.ts);
// - the package door: a YAML program through this package's plugin against a do-nothing plugin on
//   @pulumi/pulumi/provider's server (bench/small/noop-plugin.ts) serving the same schema, and a
//   do-nothing plugin in Go on Pulumi's Go SDK (bench/small/native-plugin/main.go, built at bench
//   time), the start a native plugin has.
// Phases: up; `preview --refresh --expect-no-changes`; a preview of the update (what a pull request
// shows); the update of every service and rule; a preview after it; destroy. Each contender has its
// own stack; within a door they run phase by phase, the order reversed every round (ABBA); each
// figure is a median over the rounds. bench/start-probe.js, preloaded into every Node process of a
// run, records each plugin and dynamic-provider process: its start, its port, each gRPC call and
// each HTTP request (small/timeline.ts), so each phase's time splits into the processes' starts,
// Configure and the credential check, GetSchema, the first resource call, the calls, and the rest
// (the engine, the language host and the program; the do-nothing runs' rest is the engine's own share).
// With --profile DIR, one more untimed lifecycle of each contender at 5 services with a V8 CPU
// profile of each plugin and dynamic-provider process (the probe starts the profiler), under
// DIR/<door>-<contender>/<phase>/<role>-<pid>.cpuprofile.
//
// Usage: npm run bench:small [-- --sizes 1,5,15] [--rounds 3] [--doors ts,package] [--profile DIR] [--calls]
// (--calls keeps each process's calls and requests in the results file, to read its timeline.)
// Prints markdown tables on stdout (progress on stderr) and writes bench/results/small.json.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { PulumiProject, ROOT, type EmulatorProcess, startEmulatorProcess } from "../tests/e2e/harness";
import { installPlugin, PackageProject } from "../tests/e2e/plugin-support";
import { type Counts, counts, delta, median } from "./compare-math";
import { installFloor, program } from "./compare-program";
import { admin, freshWindows, PER_MINUTE, stats } from "./compare/emulator";
import { progress } from "./compare/phase";
import { summarize } from "./compare/profile";
import { buildNativePlugin, nativePluginDir } from "./small/native-plugin";
import { writeNoopPlugin } from "./small/noop-plugin";
import { yamlProgram } from "./small/programs";
import { type SmallRun, report, type SmallResults } from "./small/report";
import { breakdown, readTimelines } from "./small/timeline";

export const DOORS = ["ts", "package"] as const;
export type DoorName = (typeof DOORS)[number];
export type Who = "ours" | "floor" | "native";

/** `version`: the program the phase runs (2: every service's description and rule's action changed). */
export const PHASES = [
  { name: "up", args: ["up", "--yes", "--skip-preview"], version: 1 },
  { name: "preview --refresh", args: ["preview", "--refresh", "--expect-no-changes"], version: 1 },
  { name: "preview", args: ["preview"], version: 2 },
  { name: "update", args: ["up", "--yes", "--skip-preview"], version: 2 },
  { name: "preview after", args: ["preview", "--expect-no-changes"], version: 2 },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"], version: 2 },
] as const;
export type PhaseName = (typeof PHASES)[number]["name"];

interface Options {
  sizes: number[];
  rounds: number;
  doors: DoorName[];
  profile?: string;
  calls: boolean;
}

function options(argv = process.argv.slice(2)): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string", default: "1,5,15" },
      rounds: { type: "string", default: "3" },
      doors: { type: "string", default: "ts,package" },
      profile: { type: "string" },
      calls: { type: "boolean", default: false },
    },
  });
  const ints = (flag: string, v: string) =>
    v.split(",").map((x) => {
      const n = Number(x);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag} takes positive integers; got ${JSON.stringify(v)}`);
      return n;
    });
  const doors = values.doors!.split(",") as DoorName[];
  const bad = doors.filter((d) => !DOORS.includes(d));
  if (bad.length) throw new Error(`--doors takes ${DOORS.join(", ")}; got ${bad.join(", ")}`);
  return {
    sizes: ints("sizes", values.sizes!),
    rounds: ints("rounds", values.rounds!)[0],
    doors,
    calls: values.calls!,
    ...(values.profile ? { profile: path.resolve(values.profile) } : {}),
  };
}

/** A contender's project and how it sets its program for a size and version. */
interface Contender {
  project: { dir: string; env: NodeJS.ProcessEnv; must(args: string[]): unknown; remove(): void };
  setProgram(services: number, version: 1 | 2): void;
}

/** Programs are type-checked, as Pulumi runs a TypeScript program unless told otherwise (as the comparison does). */
const TYPECHECK = { typecheck: true } as const;

type Contenders = Partial<Record<Who, Contender>>;

function tsContenders(emu: EmulatorProcess): Contenders {
  const make = (who: Who): Contender => {
    const project = PulumiProject.create(`bench-small-${who}`, "", emu, {}, TYPECHECK);
    installFloor(project);
    const impl = who === "ours" ? "provider" : "floor";
    return { project, setProgram: (services, version) => project.setProgram(program({ services, prefix: "Small TS", impl, version })) };
  };
  return { ours: make("ours"), floor: make("floor") };
}

function packageContenders(emu: EmulatorProcess): Contenders {
  const oursDir = PackageProject.make("bench-small-yaml");
  const oursBin = installPlugin(path.join(oursDir, ".plugin"));
  const floorDir = PackageProject.make("bench-small-noop");
  // The do-nothing plugin beside the same SDK and schema as ours (the install's node_modules).
  const floorBin = writeNoopPlugin(path.join(floorDir, ".noop"), path.join(oursDir, ".plugin", "node_modules"));
  // Without a Go toolchain (or the module proxy) the package door runs without its native column.
  let native: string | undefined;
  try {
    native = buildNativePlugin(progress);
  } catch (e) {
    progress(`no native comparison: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
  const make = (dir: string, bin: string): Contender => {
    const project = new PackageProject(dir, bin);
    const setProgram = (services: number, version: 1 | 2) =>
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram({ services, prefix: "Small YAML", version }));
    setProgram(1, 1);
    project.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
    return { project, setProgram };
  };
  const contenders: Contenders = { ours: make(oursDir, oursBin), floor: make(floorDir, floorBin) };
  if (native) {
    const nativeDir = PackageProject.make("bench-small-native");
    contenders.native = make(nativeDir, nativePluginDir(path.join(nativeDir, ".native"), native));
  }
  return contenders;
}

/** One timed run: wall time, where it went, the requests the emulator answered. */
async function run(emu: EmulatorProcess, c: Contender, args: readonly string[], profileDir?: string): Promise<SmallRun> {
  await freshWindows(emu, PER_MINUTE);
  const before = counts(await stats(emu));
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-start-"));
  const { env } = c.project;
  const saved = { NODE_OPTIONS: env.NODE_OPTIONS, PPD_START_DIR: env.PPD_START_DIR, PPD_PROFILE_DIR: env.PPD_PROFILE_DIR };
  env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ""} --require ${path.join(ROOT, "bench/start-probe.js")}`.trim();
  env.PPD_START_DIR = probeDir;
  if (profileDir) env.PPD_PROFILE_DIR = profileDir;
  const startedAt = Date.now();
  const start = process.hrtime.bigint();
  try {
    c.project.must([...args]);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const processes = readTimelines(probeDir, startedAt);
  fs.rmSync(probeDir, { recursive: true, force: true });
  const requests: Counts = delta(before, counts(await stats(emu)));
  return { seconds, breakdown: breakdown(processes), processes, requests };
}

async function main() {
  const o = options();
  progress(`small stacks: ${JSON.stringify(o)}`);
  const emu = await startEmulatorProcess(["--rate-limit", String(PER_MINUTE)]);
  emu.proc.stderr!.on("data", (d) => process.stderr.write(`[emulator] ${d}`));
  const all: Contenders[] = [];
  try {
    await admin(emu, "POST", "/_emulator/reset");
    progress("setting up the projects");
    const doors = {} as Record<DoorName, Contenders>;
    for (const d of o.doors) all.push((doors[d] = d === "ts" ? tsContenders(emu) : packageContenders(emu)));
    // A fresh project's first run pays one-time costs (compiler caches, the plugin's first start).
    progress("warm-up previews");
    for (const d of o.doors)
      for (const c of Object.values(doors[d])) {
        c!.setProgram(1, 1);
        c!.project.must(["preview"]);
      }
    const runs: SmallResults["runs"] = [];
    const load = () =>
      os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ");
    const loadBefore = load();
    for (let r = 1; r <= o.rounds; r++) {
      const forward: Who[] = ["floor", "native", "ours"];
      const order = r % 2 ? forward : forward.reverse();
      for (const size of o.sizes)
        for (const d of o.doors)
          for (const ph of PHASES)
            for (const who of order.filter((w) => doors[d][w])) {
              const c = doors[d][who]!;
              c.setProgram(size, ph.version);
              const x = await run(emu, c, ph.args);
              runs.push({ round: r, size, door: d, phase: ph.name, who, ...x });
              progress(
                `round ${r} ${size} × 3 ${d} ${ph.name} ${who}: ${x.seconds.toFixed(2)} s, ${x.breakdown.processes} processes, ${x.requests.rest} requests`,
              );
            }
    }
    const env = {
      date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      pulumi: `Pulumi CLI ${String((Object.values(doors)[0].ours!.project.must(["version"]) as { stdout: string }).stdout).trim()}`,
      node: process.version,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
      loadBefore,
      load: load(),
    };
    const results: SmallResults = { env, options: o, runs, profiles: [] };
    const out = path.join(ROOT, "bench/results/small.json");
    // Each process's calls and requests are what the breakdown was read from: left out of the file,
    // which keeps the breakdowns and each process's start, port and purpose.
    const kept = o.calls
      ? results
      : { ...results, runs: results.runs.map((r) => ({ ...r, processes: r.processes.map(({ calls: _c, requests: _r, ...p }) => p) })) };
    const write = () => fs.writeFileSync(out, `${JSON.stringify(kept, null, 2)}\n`);
    // The timed figures are kept before the profiles are taken (a failed profile run loses nothing).
    write();
    if (o.profile) {
      // The native plugin is no Node process: nothing to profile.
      for (const d of o.doors)
        for (const who of ["ours", "floor"] as const)
          for (const ph of PHASES) {
            const dir = path.join(o.profile, `${d}-${who}`, ph.name.replace(/[^a-z]+/g, "-"));
            fs.rmSync(dir, { recursive: true, force: true });
            fs.mkdirSync(dir, { recursive: true });
            doors[d][who]!.setProgram(5, ph.version);
            await run(emu, doors[d][who]!, ph.args, dir);
            results.profiles.push({ door: d, who, phase: ph.name, ...summarize(dir) });
          }
      progress(`profiles in ${o.profile}`);
      write();
    }
    console.log(report(results, median));
    progress(`wrote ${path.relative(ROOT, out)}`);
  } finally {
    for (const pair of all) for (const c of Object.values(pair)) c!.project.remove();
    await emu.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

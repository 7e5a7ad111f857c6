// Side-by-side benchmark (issues 8 and 30): this provider against the floor (the same program graph
// with the minimal dynamic provider: one that does nothing and whose state holds the same user
// fields and nothing else, bench/compare-program.ts), at 0 ms and added latency, for up, `preview
// --refresh --expect-no-changes`, an update of every service and rule, and destroy, with the
// provider process's CPU, requests per resource operation and state bytes per resource; a scale
// case (create, refresh check, destroy of a big stack) without a rate limit and under the
// emulator's, beside the floor and a floor as heavy in state as this package's resources were
// before issue 30, with the checkpoint's size; and several stacks running `up` at once against one
// account. The real Pulumi CLI drives everything; the emulator runs as its own process. Figures,
// not assertions: the targets of the issues are printed beside them with PASS/MISS.
//
// The engine runs at most `--parallel` operations at once (4 × CPUs by default: 8 on 2 cores), and
// at added latency every request holds one of those slots, so the comparison is run at the engine's
// default and again at a wider parallelism (both programs alike): the difference shows what the
// engine's bound costs and what the provider itself adds.
//
// Usage: npm run bench:compare [-- --quick] [--services N] [--latency MS] [--scale N] [--stacks K]
//        [--stack-services N] [--rounds R] [--cases comparison,scale,concurrent] [--wide-parallel P]
//        [--binding-limit PER_MINUTE] [--scale-runs floor,heavy-floor,no-limit,limit]
// Prints a markdown table on stdout (progress on stderr) and writes bench/results/compare[-quick].json.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { request } from "undici";
import { PulumiProject, ROOT, startEmulatorProcess, type RunResult, type RunningEmulator } from "../tests/e2e/harness";
import {
  activeThroughput,
  atLeast,
  atMost,
  below,
  counts,
  delta,
  idealSeconds,
  limitBoundSeconds,
  median,
  routeDelta,
  smoothBoundSeconds,
  type Counts,
  type EmulatorStats,
  type Limit,
  type Sample,
} from "./compare-math";
import { floorModule, program, RESOURCES_PER_SERVICE, type Impl } from "./compare-program";

const PER_MINUTE = 960;
/** Every timed phase starts in a fresh window (the rate-limit windows are reset right before it). */
const FRESH: Limit = { perMinute: PER_MINUTE, startBudget: PER_MINUTE, resetSeconds: 60 };
/** "No rate limit" for the scale case: the emulator's limit set far above anything a run sends. */
const UNLIMITED = 1_000_000_000;
/**
 * floorRatio: issue 8, at added latency. floorRatioNoLatency: issue 30, every phase at 0 ms.
 * scaleFloorRatio: issue 30, the big stack without a limit against the floor.
 */
const TARGET = {
  floorRatio: 1.3,
  floorRatioNoLatency: 1.15,
  requestsPerOp: 1.05,
  scaleRatio: 1.2,
  scaleFloorRatio: 1.2,
  concurrent429Pct: 1,
  throughputPct: 85,
};

interface Options {
  services: number;
  latencyMs: number;
  scale: number;
  stacks: number;
  stackServices: number;
  rounds: number;
  quick: boolean;
  cases: ReadonlySet<Case>;
  /** Engine parallelism of the second comparison run; 0: only the engine's default. */
  wideParallel: number;
  /** Rate limit of the second concurrent run, low enough to bind; 0: not run. */
  bindingLimit: number;
  /** Which runs the scale case makes (a big stack's runs take long: leave some out). */
  scaleRuns: ReadonlySet<ScaleRun>;
}

const CASES = ["comparison", "scale", "concurrent"] as const;
type Case = (typeof CASES)[number];

function options(): Options {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      services: { type: "string" },
      latency: { type: "string" },
      scale: { type: "string" },
      stacks: { type: "string" },
      "stack-services": { type: "string" },
      rounds: { type: "string" },
      cases: { type: "string" },
      "wide-parallel": { type: "string" },
      "binding-limit": { type: "string" },
      "scale-runs": { type: "string" },
    },
  });
  const q = values.quick!;
  const int = (name: string, v: string | undefined, dflt: number, min: number): number => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return n;
  };
  return {
    quick: q,
    services: int("services", values.services, q ? 5 : 50, 1),
    latencyMs: int("latency", values.latency, 100, 1),
    scale: int("scale", values.scale, q ? 20 : 200, 1),
    stacks: int("stacks", values.stacks, q ? 2 : 4, 1),
    stackServices: int("stack-services", values["stack-services"], q ? 5 : 50, 1),
    rounds: int("rounds", values.rounds, 1, 1),
    cases: caseList(values.cases),
    wideParallel: int("wide-parallel", values["wide-parallel"], 32, 0),
    bindingLimit: int("binding-limit", values["binding-limit"], q ? 60 : 240, 0),
    scaleRuns: listOf(
      "scale-runs",
      values["scale-runs"],
      SCALE_RUNS.map((r) => r.run),
    ),
  };
}

const caseList = (v: string | undefined): ReadonlySet<Case> => listOf("cases", v, CASES);

/** A comma-separated subset of `all` (all of it when the flag is absent). */
function listOf<T extends string>(flag: string, v: string | undefined, all: readonly T[]): ReadonlySet<T> {
  if (v === undefined) return new Set(all);
  const names = v.split(",").map((c) => c.trim());
  const bad = names.filter((c) => !(all as readonly string[]).includes(c));
  if (bad.length) throw new Error(`--${flag} takes ${all.join(", ")}; got ${bad.join(", ")}`);
  return new Set(names as T[]);
}

const progress = (msg: string) => process.stderr.write(`[bench:compare ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function admin(emu: RunningEmulator, method: string, p: string, body?: unknown): Promise<any> {
  const r = await emu.admin(method, p, body);
  if (r.status >= 300) throw new Error(`emulator admin ${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const stats = (emu: RunningEmulator): Promise<EmulatorStats> => admin(emu, "GET", "/_emulator/stats");
const snapshot = async (emu: RunningEmulator): Promise<Counts> => counts(await stats(emu));

/** New windows for every client: the next phase starts with the whole budget. */
const freshWindows = (emu: RunningEmulator, perMinute = PER_MINUTE) => admin(emu, "PUT", "/_emulator/rate-limit", { perMinute });

/** The engine's parallelism for the project's next runs (undefined: the engine's own default). */
function setParallel(project: PulumiProject, parallel: number | undefined): void {
  if (parallel === undefined) delete project.env.PULUMI_PARALLEL;
  else project.env.PULUMI_PARALLEL = String(parallel);
}

/** What `--parallel` defaults to in the CLI (4 × the Go runtime's CPUs), for the report. */
const ENGINE_DEFAULT_PARALLEL = 4 * os.cpus().length;

async function setLatency(emu: RunningEmulator, ms: number): Promise<void> {
  await admin(emu, "DELETE", "/_emulator/faults");
  if (ms > 0) await admin(emu, "POST", "/_emulator/faults", { route: "*", latencyMs: ms });
}

/** The limit must be on and at 960/min, as the targets assume; an authenticated reply says so. */
async function checkRateLimit(emu: RunningEmulator): Promise<void> {
  const res = await request(`${emu.apiUrl}/services?limit=1`, {
    reset: true,
    headers: { accept: "application/vnd.pagerduty+json;version=2", authorization: `Token token=${emu.apiKey}` },
  });
  await res.body.text();
  const limit = Number(res.headers["ratelimit-limit"]);
  if (res.statusCode !== 200 || limit !== PER_MINUTE)
    throw new Error(`the emulator's rate limit is not ${PER_MINUTE}/min (status ${res.statusCode}, ratelimit-limit ${res.headers["ratelimit-limit"]})`);
}

/** `version`: the program version the phase runs (2: every service and rule changed). `changes`: resources it writes per service. */
const PHASES = [
  { name: "up", args: ["up", "--yes", "--skip-preview"], version: 1, changes: RESOURCES_PER_SERVICE },
  { name: "preview --refresh", args: ["preview", "--refresh", "--expect-no-changes"], version: 1, changes: RESOURCES_PER_SERVICE },
  { name: "update", args: ["up", "--yes", "--skip-preview"], version: 2, changes: 2 },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"], version: 2, changes: RESOURCES_PER_SERVICE },
] as const;
type PhaseName = (typeof PHASES)[number]["name"];

interface PhaseRun {
  seconds: number;
  /** CPU seconds of the dynamic-provider processes during the phase (bench/cpu-probe.js). */
  providerCpu: number;
  counts: Counts;
  /** Requests by route, for the JSON file. */
  routes: Record<string, number>;
}

async function phase(emu: RunningEmulator, project: PulumiProject, args: readonly string[], perMinute = PER_MINUTE): Promise<PhaseRun> {
  await freshWindows(emu, perMinute);
  const before = await stats(emu);
  const probe = cpuProbe(project);
  const start = process.hrtime.bigint();
  project.must([...args]);
  const s = seconds(start);
  const after = await stats(emu);
  return { seconds: s, providerCpu: probe.seconds(), counts: delta(counts(before), counts(after)), routes: routeDelta(before, after) };
}

/**
 * The CPU time of the dynamic-provider processes of one `pulumi` run: NODE_OPTIONS preloads
 * bench/cpu-probe.js into every Node process the run starts; in a dynamic-provider process it
 * keeps writing its own process.cpuUsage() to a file of the directory named here.
 */
function cpuProbe(project: PulumiProject): { seconds(): number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-cpu-"));
  const saved = { NODE_OPTIONS: project.env.NODE_OPTIONS, PPD_CPU_DIR: project.env.PPD_CPU_DIR };
  project.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ""} --require ${path.join(ROOT, "bench/cpu-probe.js")}`.trim();
  project.env.PPD_CPU_DIR = dir;
  return {
    seconds() {
      Object.assign(project.env, saved);
      let total = 0;
      for (const f of fs.readdirSync(dir)) total += Number(fs.readFileSync(path.join(dir, f), "utf8")) || 0;
      fs.rmSync(dir, { recursive: true, force: true });
      return total / 1e6;
    },
  };
}

/** What a resource of one type weighs in the checkpoint after up (averages over the type's resources). */
interface TypeBytes {
  /** The whole entry as the file backend's checkpoint stores it (compact JSON). */
  entry: number;
  /** The serialized provider, `__provider`, as a JSON string (it is stored twice: inputs and outputs). */
  provider: number;
  resources: number;
}
/** By recorded type without its `pulumi-nodejs:dynamic/` prefix, e.g. `pagerduty:Service`, `floor:Service`. */
type StateBytes = Record<string, TypeBytes>;

/** The dynamic resources of the project's state, weighed per type. */
function weigh(project: PulumiProject, into: StateBytes): void {
  const sums: Record<string, { entry: number; provider: number; n: number }> = {};
  for (const r of project.resources()) {
    if (!r.type.startsWith("pulumi-nodejs:dynamic/")) continue;
    const t = (sums[r.type.replace(/^pulumi-nodejs:dynamic\//, "")] ??= { entry: 0, provider: 0, n: 0 });
    t.entry += Buffer.byteLength(JSON.stringify(r));
    t.provider += Buffer.byteLength(JSON.stringify(r.outputs?.__provider ?? ""));
    t.n++;
  }
  for (const [type, t] of Object.entries(sums)) into[type] = { entry: Math.round(t.entry / t.n), provider: Math.round(t.provider / t.n), resources: t.n };
}

/** Average entry bytes of the types whose name starts with `prefix` (`pagerduty:`, `floor:`), weighted by count. */
function averageEntry(bytes: StateBytes, prefix: string): number {
  const types = Object.entries(bytes).filter(([t]) => t.startsWith(prefix));
  const n = types.reduce((a, [, b]) => a + b.resources, 0);
  return n ? Math.round(types.reduce((a, [, b]) => a + b.entry * b.resources, 0) / n) : 0;
}

/** Bytes of the stack's checkpoint file (the local-file backend's `<stack>.json`). */
function checkpointBytes(project: PulumiProject): number {
  const stacks = path.join(project.dir, ".pulumi-state", ".pulumi", "stacks");
  for (const dir of fs.existsSync(stacks) ? fs.readdirSync(stacks) : []) {
    const file = path.join(stacks, dir, "dev.json");
    if (fs.existsSync(file)) return fs.statSync(file).size;
  }
  return 0;
}

/** Writes the floor's package (bench/compare-program.ts) into the project's node_modules. */
function installFloor(project: PulumiProject): void {
  const dir = path.join(project.dir, "node_modules", "ppd-bench-floor");
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(floorModule())) fs.writeFileSync(path.join(dir, file), text);
}

async function lifecycle(
  emu: RunningEmulator,
  project: PulumiProject,
  label: string,
  version: (v: 1 | 2) => void,
  bytes?: StateBytes,
): Promise<Record<PhaseName, PhaseRun>> {
  const out = {} as Record<PhaseName, PhaseRun>;
  for (const p of PHASES) {
    version(p.version);
    out[p.name] = await phase(emu, project, p.args);
    progress(`${label} ${p.name}: ${out[p.name].seconds.toFixed(1)} s, ${out[p.name].counts.rest} requests`);
    if (p.name === "up" && bytes) weigh(project, bytes);
  }
  return out;
}

/** `pulumi` without blocking, for stacks that run at the same time. */
function runAsync(project: PulumiProject, args: string[]): Promise<RunResult & { seconds: number }> {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn("pulumi", ["--non-interactive", ...args], { cwd: project.dir, env: project.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      project.log += stdout + stderr;
      resolve({ code: code ?? -1, stdout, stderr, seconds: seconds(start) });
    });
  });
}

const dynamicResources = (project: PulumiProject) => project.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/")).length;

// ---------------------------------------------------------------------------------------------
// The three cases

interface ComparisonRow {
  phase: PhaseName;
  /** The engine's --parallel for both programs. */
  parallel: number;
  latencyMs: number;
  providerSeconds: number;
  floorSeconds: number;
  ratio: number;
  ratioMark: string;
  operations: number;
  /** CPU milliseconds of the dynamic-provider process per operation: ours, and the floor's. */
  providerCpuMsPerOp: number;
  floorCpuMsPerOp: number;
  requests: number;
  requestsPerOp: number;
  requestsMark: string;
  rateLimited: number;
  tokens: number;
  identityRequests: number;
  /** Requests by route in the last round. */
  routes: Record<string, number>;
}

async function comparison(emu: RunningEmulator, project: PulumiProject, o: Options, parallel: number | undefined, bytes: StateBytes): Promise<ComparisonRow[]> {
  setParallel(project, parallel);
  const p = parallel ?? ENGINE_DEFAULT_PARALLEL;
  const latencies = [0, o.latencyMs];
  const floor: Record<PhaseName, PhaseRun>[] = [];
  const provider = new Map<number, Record<PhaseName, PhaseRun>[]>(latencies.map((l) => [l, []]));
  for (let r = 1; r <= o.rounds; r++) {
    // The floor makes no request, so added latency cannot change it: measured once per round.
    await setLatency(emu, 0);
    const versioned = (impl: Impl) => (version: 1 | 2) => project.setProgram(program({ services: o.services, prefix: "Compare", impl, version }));
    floor.push(await lifecycle(emu, project, `parallel ${p} round ${r} floor`, versioned("floor"), r === 1 ? bytes : undefined));
    for (const l of latencies) {
      await setLatency(emu, l);
      provider
        .get(l)!
        .push(await lifecycle(emu, project, `parallel ${p} round ${r} provider ${l} ms`, versioned("provider"), r === 1 && l === 0 ? bytes : undefined));
    }
  }
  await setLatency(emu, 0);
  setParallel(project, undefined);
  const rows: ComparisonRow[] = [];
  for (const ph of PHASES) {
    const ops = o.services * ph.changes;
    for (const l of latencies) {
      const runs = provider.get(l)!.map((x) => x[ph.name]);
      const providerSeconds = median(runs.map((x) => x.seconds));
      const floorSeconds = median(floor.map((x) => x[ph.name].seconds));
      const providerCpuMsPerOp = (median(runs.map((x) => x.providerCpu)) * 1000) / ops;
      const floorCpuMsPerOp = (median(floor.map((x) => x[ph.name].providerCpu)) * 1000) / ops;
      const requests = median(runs.map((x) => x.counts.rest));
      const ratio = providerSeconds / floorSeconds;
      // Issue 30: every phase at 0 ms. Issue 8: up, destroy and preview --refresh at the added latency.
      const ratioTarget = l === 0 ? TARGET.floorRatioNoLatency : ph.name === "update" ? undefined : TARGET.floorRatio;
      rows.push({
        phase: ph.name,
        parallel: p,
        latencyMs: l,
        providerSeconds,
        floorSeconds,
        ratio,
        ratioMark: ratioTarget ? atMost(ratio, ratioTarget) : "",
        operations: ops,
        providerCpuMsPerOp,
        floorCpuMsPerOp,
        requests,
        requestsPerOp: requests / ops,
        requestsMark: atMost(requests / ops, TARGET.requestsPerOp),
        rateLimited: median(runs.map((x) => x.counts.rateLimited)),
        tokens: median(runs.map((x) => x.counts.tokens)),
        identityRequests: median(runs.map((x) => x.counts.identity)),
        routes: runs[runs.length - 1].routes,
      });
    }
  }
  return rows;
}

/**
 * The scale case: create, the refresh check and destroy of a big stack, this provider without a
 * rate limit (what the engine and the provider cost) and under the real one, beside the floor and
 * the heavy floor (which make no request, so no limit applies to them).
 */
const SCALE_PHASES = ["up", "preview --refresh", "destroy"] as const;
type ScalePhase = (typeof SCALE_PHASES)[number];

const SCALE_RUNS = [
  { run: "floor", impl: "floor", perMinute: PER_MINUTE },
  { run: "heavy-floor", impl: "heavy floor", perMinute: PER_MINUTE },
  { run: "no-limit", impl: "provider", perMinute: UNLIMITED },
  { run: "limit", impl: "provider", perMinute: PER_MINUTE },
] as const;
type ScaleRun = (typeof SCALE_RUNS)[number]["run"];

/** A mark only for a figure measured: those of runs left out (--scale-runs) are NaN, printed as "–". */
const known = (mark: (v: number, t: number) => string) => (v: number, t: number) => (Number.isNaN(v) ? "" : mark(v, t));

/** Figures of runs left out (--scale-runs) are NaN, printed as "–". */
interface ScaleRow {
  phase: ScalePhase;
  /** This provider without a rate limit. */
  unlimitedSeconds: number;
  /** This provider under the limit. */
  seconds: number;
  floorSeconds: number;
  heavyFloorSeconds: number;
  /** Without a limit, against the floor (target ≤ 1.2×) and the heavy floor (target < 1). */
  floorRatio: number;
  floorRatioMark: string;
  heavyFloorRatio: number;
  heavyFloorMark: string;
  requests: number;
  rateLimited: number;
  limitBoundSeconds: number;
  smoothBoundSeconds: number;
  idealSeconds: number;
  ratio: number;
  ratioMark: string;
  rateLimitedMark: string;
  routes: Record<string, number>;
}

interface ScaleState {
  /** Checkpoint file bytes at the end of the create, per run. */
  checkpointBytes: Record<ScaleRun, number>;
  /** Average resource entry bytes after the create, per run. */
  entryBytes: Record<ScaleRun, number>;
}

async function scale(emu: RunningEmulator, project: PulumiProject, o: Options): Promise<{ rows: ScaleRow[]; state: ScaleState }> {
  await setLatency(emu, 0);
  const runs = {} as Record<ScaleRun, Partial<Record<ScalePhase, PhaseRun>>>;
  const state: ScaleState = { checkpointBytes: {} as Record<ScaleRun, number>, entryBytes: {} as Record<ScaleRun, number> };
  for (const s of SCALE_RUNS) {
    runs[s.run] = {};
    if (!o.scaleRuns.has(s.run)) continue;
    project.setProgram(program({ services: o.scale, prefix: "Scale", impl: s.impl }));
    for (const p of PHASES.filter((x) => (SCALE_PHASES as readonly string[]).includes(x.name))) {
      const name = p.name as ScalePhase;
      const run = (runs[s.run][name] = await phase(emu, project, p.args, s.perMinute));
      progress(`scale ${s.run} ${name}: ${run.seconds.toFixed(1)} s, ${run.counts.rest} requests`);
      if (name === "up") {
        state.checkpointBytes[s.run] = checkpointBytes(project);
        const bytes: StateBytes = {};
        weigh(project, bytes);
        state.entryBytes[s.run] = averageEntry(bytes, "");
      }
    }
  }
  await freshWindows(emu);
  const rows = SCALE_PHASES.map((name) => {
    const secondsOf = (r: ScaleRun) => runs[r][name]?.seconds ?? NaN;
    const nothing: PhaseRun = { seconds: NaN, providerCpu: NaN, counts: { rest: NaN, rateLimited: NaN, identity: NaN, tokens: NaN }, routes: {} };
    const run = runs.limit[name] ?? nothing;
    const unlimitedSeconds = secondsOf("no-limit");
    const floorSeconds = secondsOf("floor");
    const heavyFloorSeconds = secondsOf("heavy-floor");
    const ideal = idealSeconds(floorSeconds, run.counts.rest, FRESH);
    return {
      phase: name,
      unlimitedSeconds,
      seconds: run.seconds,
      floorSeconds,
      heavyFloorSeconds,
      floorRatio: unlimitedSeconds / floorSeconds,
      floorRatioMark: known(atMost)(unlimitedSeconds / floorSeconds, TARGET.scaleFloorRatio),
      heavyFloorRatio: unlimitedSeconds / heavyFloorSeconds,
      heavyFloorMark: known(below)(unlimitedSeconds / heavyFloorSeconds, 1),
      requests: run.counts.rest,
      rateLimited: run.counts.rateLimited,
      limitBoundSeconds: limitBoundSeconds(run.counts.rest, FRESH),
      smoothBoundSeconds: smoothBoundSeconds(run.counts.rest, FRESH),
      idealSeconds: ideal,
      ratio: run.seconds / ideal,
      ratioMark: known(atMost)(run.seconds / ideal, TARGET.scaleRatio),
      rateLimitedMark: known(atMost)(run.counts.rateLimited, 0),
      routes: run.routes,
    };
  });
  return { rows, state };
}

interface ConcurrentResult {
  stacks: number;
  servicesPerStack: number;
  /** The account's limit during the run. */
  perMinute: number;
  wallSeconds: number;
  stackSeconds: number[];
  exitCodes: number[];
  failedOperations: number;
  failedMark: string;
  requests: number;
  rateLimited: number;
  rateLimitedPct: number;
  rateLimitedMark: string;
  throughput: ReturnType<typeof activeThroughput>;
  throughputPct: number;
  throughputMark: string;
  limitBinding: boolean;
  /** Seconds the fixed window forces for this many requests (0 when one window's budget covers them). */
  limitBoundSeconds: number;
  tokens: number;
  destroyExitCodes: number[];
  /** Requests by route during the ups. */
  routes: Record<string, number>;
}

/** Runs `up` in every project at once under `perMinute`, then destroys them all. */
async function concurrent(emu: RunningEmulator, projects: PulumiProject[], o: Options, perMinute: number): Promise<ConcurrentResult> {
  await setLatency(emu, 0);
  const label = `concurrent at ${perMinute}/min`;
  projects.forEach((p, k) => p.setProgram(program({ services: o.stackServices, prefix: `Stack ${k + 1}`, impl: "provider" })));
  await freshWindows(emu, perMinute);
  const before = await stats(emu);
  const base = counts(before);
  const samples: Sample[] = [];
  const start = process.hrtime.bigint();
  const sample = async () => {
    const c = delta(base, await snapshot(emu));
    samples.push({ t: seconds(start), rest: c.rest, rateLimited: c.rateLimited });
  };
  let running = true;
  const poller = (async () => {
    while (running) {
      await sample();
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  progress(`${label}: ${projects.length} stacks run up`);
  const ups = await Promise.all(projects.map((p) => runAsync(p, ["up", "--yes", "--skip-preview"])));
  const wallSeconds = seconds(start);
  running = false;
  await poller;
  await sample();
  const after = await stats(emu);
  const total = delta(base, counts(after));
  const expected = o.stackServices * RESOURCES_PER_SERVICE;
  const failedOperations = projects.reduce((n, p) => n + Math.max(0, expected - dynamicResources(p)), 0);
  ups.forEach((u, k) => u.code !== 0 && progress(`${label}: stack ${k + 1} exited ${u.code}:\n${u.stdout.slice(-2000)}\n${u.stderr.slice(-2000)}`));
  const throughput = activeThroughput(samples);
  const rateLimitedPct = total.rest ? (total.rateLimited / total.rest) * 100 : 0;
  const throughputPct = (throughput.perMinute / perMinute) * 100;
  progress(`${label}: ${wallSeconds.toFixed(1)} s, ${total.rest} requests, ${total.rateLimited} answered 429; destroying`);
  await freshWindows(emu);
  const downs = await Promise.all(projects.map((p) => runAsync(p, ["destroy", "--yes", "--skip-preview"])));
  return {
    stacks: projects.length,
    servicesPerStack: o.stackServices,
    perMinute,
    wallSeconds,
    stackSeconds: ups.map((u) => u.seconds),
    exitCodes: ups.map((u) => u.code),
    failedOperations,
    // A stack that exited non-zero failed something even if its resources all reached the state.
    failedMark: ups.every((u) => u.code === 0) ? atMost(failedOperations, 0) : "MISS",
    requests: total.rest,
    rateLimited: total.rateLimited,
    rateLimitedPct,
    rateLimitedMark: atMost(rateLimitedPct, TARGET.concurrent429Pct),
    throughput,
    throughputPct,
    throughputMark: atLeast(throughputPct, TARGET.throughputPct),
    limitBinding: total.rest > perMinute,
    limitBoundSeconds: limitBoundSeconds(total.rest, { perMinute, startBudget: perMinute, resetSeconds: 60 }),
    tokens: total.tokens,
    destroyExitCodes: downs.map((d) => d.code),
    routes: routeDelta(before, after),
  };
}

/** The issue's case (the service's limit) and, with --binding-limit, the same stacks under a limit they exceed. */
async function concurrentCases(emu: RunningEmulator, first: PulumiProject, o: Options): Promise<ConcurrentResult[]> {
  const projects = [first];
  try {
    for (let k = 2; k <= o.stacks; k++) {
      progress(`concurrent: setting up stack ${k}`);
      projects.push(PulumiProject.create(`bench-c${k}`, "", emu));
    }
    const out = [await concurrent(emu, projects, o, PER_MINUTE)];
    if (o.bindingLimit > 0) out.push(await concurrent(emu, projects, o, o.bindingLimit));
    await freshWindows(emu);
    return out;
  } finally {
    for (const p of projects.slice(1)) p.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const sec = (s: number) => (Number.isNaN(s) ? "–" : `${s.toFixed(1)} s`);
const x = (r: number) => (Number.isNaN(r) ? "–" : `${r.toFixed(2)}×`);
const num = (n: number) => (Number.isNaN(n) ? "–" : String(n));

interface Results {
  rows: ComparisonRow[];
  scale: ScaleRow[];
  scaleState?: ScaleState;
  concurrent: ConcurrentResult[];
  bytes: StateBytes;
}

const kb = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${Math.round(b / 1024)} KB`);

function comparisonSection(o: Options, rows: ComparisonRow[], bytes: StateBytes): string[] {
  const n = o.services;
  return [
    `**This provider against the floor**: ${n} services, each with an Events API v2 integration and an event rule ` +
      `(${n * RESOURCES_PER_SERVICE} resources, as many operations per phase). Floor: the same graph with the minimal dynamic provider ` +
      "(it does nothing, makes no request, and its state holds the same user fields and nothing else: its provider objects are module exports, " +
      "serialized as one `require` line like ours). " +
      `Both run at the engine's default parallelism (${ENGINE_DEFAULT_PARALLEL} here: 4 × CPUs)` +
      (o.wideParallel ? ` and again at \`--parallel ${o.wideParallel}\`` : "") +
      ".",
    "",
    `| engine --parallel | phase | added latency | this provider | floor | ratio (target ≤ ${TARGET.floorRatioNoLatency}× at 0 ms, ≤ ${TARGET.floorRatio}× at ${o.latencyMs} ms) | provider CPU ms / op (floor) | requests / op (target ≤ ${TARGET.requestsPerOp}) | 429s | tokens |`,
    "|-|-|-|-|-|-|-|-|-|-|",
    ...rows.map(
      (r) =>
        `| ${r.parallel} | ${r.phase} | ${r.latencyMs} ms | ${sec(r.providerSeconds)} | ${sec(r.floorSeconds)} | ${r.ratioMark ? `${x(r.ratio)} ${r.ratioMark}` : `${x(r.ratio)}`} | ` +
        `${r.providerCpuMsPerOp.toFixed(1)} (${r.floorCpuMsPerOp.toFixed(1)}) | ${r.requestsPerOp.toFixed(2)} ${r.requestsMark} (${r.requests}) | ${r.rateLimited} | ${r.tokens} |`,
    ),
    "",
    `The ${TARGET.floorRatioNoLatency}× target applies to every phase at 0 ms; the ${TARGET.floorRatio}× one to up, destroy and preview --refresh at the added latency. ` +
      `At ${o.latencyMs} ms every request holds one of the engine's slots for at least that long, so ${n * RESOURCES_PER_SERVICE} operations ` +
      `through P slots cost at least ${n * RESOURCES_PER_SERVICE} × ${o.latencyMs} ms / P of waiting that the floor does not have ` +
      `(${((n * RESOURCES_PER_SERVICE * o.latencyMs) / ENGINE_DEFAULT_PARALLEL / 1000).toFixed(2)} s at P = ${ENGINE_DEFAULT_PARALLEL}` +
      (o.wideParallel ? `, ${((n * RESOURCES_PER_SERVICE * o.latencyMs) / o.wideParallel / 1000).toFixed(2)} s at P = ${o.wideParallel}` : "") +
      "). Requests exclude the token endpoint (tokens: access tokens issued during the phase) and the credential check each process makes once (`GET /users/me`).",
    "",
    ...stateSection(bytes),
  ];
}

function stateSection(bytes: StateBytes): string[] {
  const types = Object.keys(bytes).sort((a, b) => a.split(":")[1].localeCompare(b.split(":")[1]) || a.localeCompare(b));
  return [
    "State per resource after up (`pulumi stack export`, each entry as compact JSON as the file backend's checkpoint stores it; `__provider` as a JSON string, stored twice: inputs and outputs):",
    "",
    "| type | entry | `__provider` |",
    "|-|-|-|",
    ...types.map((t) => `| ${t} | ${bytes[t].entry} B | ${bytes[t].provider} B |`),
    `| average, this provider (target ≤ 3,000 B) | ${averageEntry(bytes, "pagerduty:")} B ${atMost(averageEntry(bytes, "pagerduty:"), 3000)} | |`,
    `| average, floor | ${averageEntry(bytes, "floor:")} B | |`,
    "",
  ];
}

function scaleSection(o: Options, sc: ScaleRow[], st: ScaleState | undefined): string[] {
  const n = o.scale * RESOURCES_PER_SERVICE;
  return [
    `**Big stack**: ${o.scale} services × ${RESOURCES_PER_SERVICE} (${n} resources), no added latency. This provider without a rate limit ` +
      "(the engine's share and ours) against the floor and the heavy floor (the same do-nothing provider made in the program, so the serializer " +
      `inlines it: a floor as heavy in state as this package's resources were before their providers became modules), and under ${PER_MINUTE}/min against the ideal: ` +
      "max(floor, time the limit forces: 0 while the start budget lasts, then one more window per " +
      `${PER_MINUTE} requests).`,
    "",
    `| phase | no limit | floor | ratio (target ≤ ${TARGET.scaleFloorRatio}×) | heavy floor | ratio (target < 1) | at ${PER_MINUTE}/min | limit bound | ideal | ratio to ideal (target ≤ ${TARGET.scaleRatio}×) | requests | 429s (target 0) |`,
    "|-|-|-|-|-|-|-|-|-|-|-|-|",
    ...sc.map(
      (r) =>
        `| ${r.phase} | ${sec(r.unlimitedSeconds)} | ${sec(r.floorSeconds)} | ${x(r.floorRatio)} ${r.floorRatioMark} | ${sec(r.heavyFloorSeconds)} | ${x(r.heavyFloorRatio)} ${r.heavyFloorMark} | ` +
        `${sec(r.seconds)} | ${sec(r.limitBoundSeconds)} | ${sec(r.idealSeconds)} | ${x(r.ratio)} ${r.ratioMark} | ${num(r.requests)} | ${num(r.rateLimited)} ${r.rateLimitedMark} |`,
    ),
    "",
    ...(st
      ? [
          "Checkpoint file at the end of the create (average resource entry): " +
            (["no-limit", "floor", "heavy-floor"] as const)
              .filter((k) => st.checkpointBytes[k] !== undefined)
              .map(
                (k) =>
                  `${{ "no-limit": "this provider", floor: "floor", "heavy-floor": "heavy floor" }[k]} ${kb(st.checkpointBytes[k])} (${st.entryBytes[k]} B)`,
              )
              .join(", ") +
            ".",
          "",
        ]
      : []),
  ];
}

function concurrentSection(cc: ConcurrentResult[]): string[] {
  if (!cc.length) return [];
  const c0 = cc[0];
  return [
    `**Concurrent**: ${c0.stacks} stacks × ${c0.servicesPerStack} services × ${RESOURCES_PER_SERVICE}, \`pulumi up\` at the same time, ` +
      "one account (one OAuth app): at the service's limit, and again under a limit they exceed.",
    "",
    "| limit | wall | limit bound | failed operations (target 0) | requests | answered 429 (target ≤ 1 %) | throughput while work remains (target ≥ 85 % of the limit) | tokens |",
    "|-|-|-|-|-|-|-|-|",
    ...cc.map(
      (c) =>
        `| ${c.perMinute}/min | ${sec(c.wallSeconds)} | ${sec(c.limitBoundSeconds)} | ${c.failedOperations} ${c.failedMark} | ${c.requests} | ` +
        `${c.rateLimited} = ${c.rateLimitedPct.toFixed(2)} % ${c.rateLimitedMark} | ` +
        `${Math.round(c.throughput.perMinute)}/min over ${sec(c.throughput.seconds)} = ${c.throughputPct.toFixed(0)} % ${c.throughputMark} | ${c.tokens} |`,
    ),
    "",
    ...cc.map(
      (c) =>
        `At ${c.perMinute}/min: exit codes of the stacks' up ${c.exitCodes.join(", ")}, destroy ${c.destroyExitCodes.join(", ")}.` +
        (c.limitBinding
          ? ` The limit bound: ${c.requests} requests need ${Math.ceil(c.requests / c.perMinute)} windows, so the run cannot end before ${sec(c.limitBoundSeconds)}.`
          : ` The limit did not bind (${c.requests} requests ≤ the ${c.perMinute} budget of one window): the throughput figure measures the engines, not pacing.`),
    ),
  ];
}

function report(o: Options, env: Record<string, string>, r: Results): string {
  return [
    `### bench:compare${o.quick ? " (--quick smoke run)" : ""}`,
    "",
    `${env.date}, ${env.pulumi}, Node ${env.node}, ${env.cpus}; emulator in its own process at ${PER_MINUTE} requests/min ` +
      `(windows reset before every timed phase); ${o.rounds === 1 ? "one round" : `medians of ${o.rounds} rounds`}.`,
    "",
    ...(r.rows.length ? comparisonSection(o, r.rows, r.bytes) : []),
    ...(r.scale.length ? scaleSection(o, r.scale, r.scaleState) : []),
    ...concurrentSection(r.concurrent),
  ].join("\n");
}

async function main() {
  const o = options();
  progress(`options ${JSON.stringify(o)}`);
  const emu = await startEmulatorProcess(["--rate-limit", String(PER_MINUTE)]);
  // Its log goes to ours, so a crash mid-run explains itself.
  emu.proc.stderr!.on("data", (d) => process.stderr.write(`[emulator] ${d}`));
  emu.proc.on("exit", (code, signal) => progress(`the emulator exited (${code ?? signal})`));
  let project: PulumiProject | undefined;
  try {
    await checkRateLimit(emu);
    await admin(emu, "POST", "/_emulator/reset");
    progress("setting up the project");
    project = PulumiProject.create("bench-compare", "", emu);
    installFloor(project);
    const env = {
      date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      pulumi: `Pulumi CLI ${project.must(["version"]).stdout.trim()}`,
      node: process.version,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
    };
    // The first run in a fresh project pays one-time costs (compiler and file caches); not the floor's.
    progress("warm-up previews");
    for (const impl of ["floor", "provider"] as const) {
      project.setProgram(program({ services: o.services, prefix: "Compare", impl }));
      project.must(["preview"]);
    }
    const r: Results = { rows: [], scale: [], concurrent: [], bytes: {} };
    if (o.cases.has("comparison")) {
      r.rows.push(...(await comparison(emu, project, o, undefined, r.bytes)));
      if (o.wideParallel) r.rows.push(...(await comparison(emu, project, o, o.wideParallel, r.bytes)));
    }
    if (o.cases.has("scale")) ({ rows: r.scale, state: r.scaleState } = await scale(emu, project, o));
    if (o.cases.has("concurrent")) r.concurrent = await concurrentCases(emu, project, o);
    console.log(report(o, env, r));
    const out = path.join(ROOT, "bench/results", o.quick ? "compare-quick.json" : "compare.json");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const { bytes: stateBytes, rows: comparisonRows, ...rest } = r;
    const json = { env, options: { ...o, cases: [...o.cases] }, limitPerMinute: PER_MINUTE, targets: TARGET, stateBytes, comparison: comparisonRows, ...rest };
    fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
    progress(`wrote ${path.relative(ROOT, out)}`);
  } finally {
    project?.remove();
    await emu.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

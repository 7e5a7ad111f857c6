// --profile DIR: one more lifecycle of each contender, untimed (a profiler slows what it watches),
// with a V8 CPU profile of its dynamic-provider process per phase (bench/cpu-probe.js writes
// DIR/<contender>/<phase>/provider-<pid>.cpuprofile; open one in Chrome DevTools or speedscope), and
// each phase's self time summed by function and by package, to see where the provider's time goes.
// The floor's profiles show what Pulumi's dynamic-provider host costs by itself.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiProject, EmulatorProcess } from "../../tests/e2e/harness";
import { program } from "../compare-program";
import { type Contender, impl } from "./comparison";
import { setLatency } from "./emulator";
import type { Options } from "./options";
import { lifecycle, PHASES, type PhaseName } from "./phase";

/** The parts of a .cpuprofile (Chrome DevTools protocol `Profiler.Profile`) used here. */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  contender: Contender;
  phase: PhaseName;
  dir: string;
  processes: number;
  /** Sampled CPU milliseconds, idle excluded. */
  totalMs: number;
  /** The functions with the most self time, as `file:function`. */
  top: Array<{ fn: string; selfMs: number }>;
  /**
   * Time by package, Node's and native work charged to the package whose code called it (module
   * loading to the package that requires); V8's pseudo-frames (`(garbage collector)`, `(program)`) as they are.
   */
  packages: Array<{ name: string; selfMs: number }>;
}

const TOP = 15;
/** The benchmarks' probes (bench/cpu-probe.js, bench/start-probe.js): their `require` wrapper is no caller to charge. */
const PROBES = /^(cpu|start)-probe\.js$/;
const slug = (phase: string) => phase.replace(/[^a-z]+/g, "-");

export async function profile(emu: EmulatorProcess, projects: Record<Contender, PulumiProject>, o: Options, dir: string): Promise<ProfileSummary[]> {
  await setLatency(emu, 0);
  const out: ProfileSummary[] = [];
  for (const who of ["ours", "floor"] as const) {
    const at = (name: string) => path.resolve(dir, who, slug(name));
    for (const p of PHASES) fs.rmSync(at(p.name), { recursive: true, force: true });
    const version = (v: 1 | 2) => projects[who].setProgram(program({ services: o.services, prefix: "Compare", impl: impl(who, o), version: v }));
    await lifecycle(emu, projects[who], `profile ${who}`, version, (p) => at(p.name));
    for (const p of PHASES) out.push({ contender: who, phase: p.name, ...summarize(at(p.name)) });
  }
  return out;
}

/** Self time by function and by package over every profile in `dir`. */
export function summarize(dir: string): Omit<ProfileSummary, "contender" | "phase"> {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")) : [];
  const byFn = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const f of files) {
    const prof = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuProfile;
    const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    /** The nearest frame up the stack in a package's code (not Node's, not native, not a benchmark's probe, which wraps `require`). */
    const caller = (id: number | undefined): CallFrame | undefined => {
      for (; id !== undefined; id = parent.get(id)) {
        const frame = nodes.get(id)!.callFrame;
        const pkg = packageOf(shortUrl(frame.url));
        if (pkg && pkg !== "node:" && !PROBES.test(pkg)) return frame;
      }
      return undefined;
    };
    prof.samples.forEach((id, i) => {
      const frame = nodes.get(id)!.callFrame;
      if (frame.functionName === "(idle)") return;
      const us = prof.timeDeltas[i] ?? 0;
      const file = shortUrl(frame.url);
      const pseudo = !file && frame.functionName.startsWith("(");
      // Node's and native functions with the package code that called them: `fsync ← <caller>`.
      const from = pseudo || (file && packageOf(file) !== "node:" && !PROBES.test(packageOf(file))) ? undefined : caller(id);
      const key = from ? `${name(frame)} ← ${name(from)}` : name(frame);
      byFn.set(key, (byFn.get(key) ?? 0) + us);
      const pkg = pseudo ? frame.functionName : from ? packageOf(shortUrl(from.url)) : file ? packageOf(file) : "(native)";
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
      total += us;
    });
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000] as const);
  return {
    dir,
    processes: files.length,
    totalMs: total / 1000,
    top: sorted(byFn)
      .slice(0, TOP)
      .map(([fn, selfMs]) => ({ fn, selfMs })),
    packages: sorted(byPackage).map(([name, selfMs]) => ({ name, selfMs })),
  };
}

/** `file:function` (anonymous functions by line). */
function name(frame: CallFrame): string {
  const file = shortUrl(frame.url);
  const fn = frame.functionName || `(anonymous):${frame.lineNumber + 1}`;
  return file ? `${file}:${fn}` : fn;
}

/** A script's path from its package on (`pulumi-pagerduty-dynamic/dist/...`, `@pulumi/pulumi/...`), or `node:...`. */
function shortUrl(url: string): string {
  const p = url.replace(/^file:\/\//, "");
  const i = p.lastIndexOf("/node_modules/");
  return i < 0 ? p : p.slice(i + "/node_modules/".length);
}

/** The package a short path belongs to (`@scope/name` or `name`), `node:` for Node's own, "" for none. */
function packageOf(file: string): string {
  if (!file) return "";
  if (file.startsWith("node:")) return "node:";
  // A script outside any node_modules: the probe itself, or the dynamic-provider host run from a checkout.
  if (file.startsWith("/")) return path.basename(file);
  const parts = file.split("/");
  return file.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

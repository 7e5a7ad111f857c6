// One timed `pulumi` phase and what it cost: wall time, the CPU of each party (cpu.ts), and the
// requests the emulator answered.
import * as os from "node:os";
import type { PulumiProject, EmulatorProcess } from "../../tests/e2e/harness";
import { type Counts, counts, delta, routeDelta } from "../compare-math";
import { RESOURCES_PER_SERVICE } from "../compare-program";
import { processCpu, providerProbe, waitedChildrenCpu } from "./cpu";
import { freshWindows, PER_MINUTE, stats } from "./emulator";

/** `version`: the program version the phase runs (2: every service and rule changed). `changes`: resources it writes per service. */
export const PHASES = [
  { name: "up", args: ["up", "--yes", "--skip-preview"], version: 1, changes: RESOURCES_PER_SERVICE },
  { name: "preview --refresh", args: ["preview", "--refresh", "--expect-no-changes"], version: 1, changes: RESOURCES_PER_SERVICE },
  { name: "update", args: ["up", "--yes", "--skip-preview"], version: 2, changes: 2 },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"], version: 2, changes: RESOURCES_PER_SERVICE },
] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseName = Phase["name"];

export interface PhaseRun {
  seconds: number;
  /** CPU seconds of the dynamic-provider processes (bench/cpu-probe.js). */
  providerCpu: number;
  /** CPU seconds of the emulator process. */
  emulatorCpu: number;
  /** CPU seconds of the whole `pulumi` run: every process of its tree. */
  runCpu: number;
  /** CPU seconds of the program's process (the language host's Node.js child). */
  programCpu: number;
  counts: Counts;
  /** Requests by route, for the JSON file. */
  routes: Record<string, number>;
}

export const progress = (msg: string) => process.stderr.write(`[bench:compare ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
export const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** What `--parallel` defaults to in the CLI (4 × the Go runtime's CPUs), for the report. */
export const ENGINE_DEFAULT_PARALLEL = 4 * os.cpus().length;

/** The engine's parallelism for the project's next runs (undefined: the engine's own default). */
export function setParallel(project: PulumiProject, parallel: number | undefined): void {
  if (parallel === undefined) delete project.env.PULUMI_PARALLEL;
  else project.env.PULUMI_PARALLEL = String(parallel);
}

/** Runs `pulumi <args>` in a fresh rate-limit window and measures it; `profileDir`: profile its provider there. */
export async function phase(
  emu: EmulatorProcess,
  project: PulumiProject,
  args: readonly string[],
  o: { perMinute?: number; profileDir?: string } = {},
): Promise<PhaseRun> {
  await freshWindows(emu, o.perMinute ?? PER_MINUTE);
  const before = await stats(emu);
  const probe = providerProbe(project, o.profileDir);
  const emuCpu = processCpu(emu.proc.pid);
  const runCpu = waitedChildrenCpu();
  const start = process.hrtime.bigint();
  project.must([...args]);
  const s = seconds(start);
  const run = {
    seconds: s,
    runCpu: waitedChildrenCpu() - runCpu,
    emulatorCpu: processCpu(emu.proc.pid) - emuCpu,
    providerCpu: probe.seconds(),
    programCpu: probe.program,
  };
  const after = await stats(emu);
  return { ...run, counts: delta(counts(before), counts(after)), routes: routeDelta(before, after) };
}

/** Every phase in order on one project, `version` setting the program each needs; `profileDir(phase)`: profile each. */
export async function lifecycle(
  emu: EmulatorProcess,
  project: PulumiProject,
  label: string,
  version: (v: 1 | 2) => void,
  profileDir?: (p: Phase) => string,
): Promise<Record<PhaseName, PhaseRun>> {
  const out = {} as Record<PhaseName, PhaseRun>;
  for (const p of PHASES) {
    version(p.version);
    out[p.name] = await phase(emu, project, p.args, { profileDir: profileDir?.(p) });
    progress(`${label} ${p.name}: ${out[p.name].seconds.toFixed(1)} s, ${out[p.name].counts.rest} requests`);
  }
  return out;
}

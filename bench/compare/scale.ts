// The scale case: create, the refresh check and destroy of a big stack, this provider without a
// rate limit (what the engine and the provider cost) and under the real one, beside the minimal
// floor and the heavy floor (which make no request, so no limit applies to them).
import type { PulumiProject, EmulatorProcess } from "../../tests/e2e/harness";
import { atMost, below, idealSeconds, limitBoundSeconds, smoothBoundSeconds } from "../compare-math";
import { type Impl, program } from "../compare-program";
import { FRESH, freshWindows, PER_MINUTE, setLatency, UNLIMITED } from "./emulator";
import { type Options, type ScaleRun, TARGET } from "./options";
import { PHASES, type PhaseRun, phase, progress } from "./phase";
import { averageEntry, checkpointBytes, weigh } from "./state";

export const SCALE_PHASES = ["up", "preview --refresh", "destroy"] as const;
export type ScalePhase = (typeof SCALE_PHASES)[number];

const RUNS: ReadonlyArray<{ run: ScaleRun; impl: Impl; perMinute: number }> = [
  { run: "floor", impl: "floor", perMinute: PER_MINUTE },
  { run: "heavy-floor", impl: "heavy floor", perMinute: PER_MINUTE },
  { run: "no-limit", impl: "provider", perMinute: UNLIMITED },
  { run: "limit", impl: "provider", perMinute: PER_MINUTE },
];

/** A mark only for a figure measured: those of runs left out (--scale-runs) are NaN, printed as "–". */
const known = (mark: (v: number, t: number) => string) => (v: number, t: number) => (Number.isNaN(v) ? "" : mark(v, t));

/** Figures of runs left out (--scale-runs) are NaN, printed as "–". */
export interface ScaleRow {
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

export interface ScaleState {
  /** Checkpoint file bytes at the end of the create, per run. */
  checkpointBytes: Partial<Record<ScaleRun, number>>;
  /** Average resource entry bytes after the create, per run. */
  entryBytes: Partial<Record<ScaleRun, number>>;
}

const NOTHING: PhaseRun = {
  seconds: NaN,
  providerCpu: NaN,
  programCpu: NaN,
  emulatorCpu: NaN,
  runCpu: NaN,
  counts: { rest: NaN, rateLimited: NaN, identity: NaN, tokens: NaN },
  routes: {},
};

export async function scale(emu: EmulatorProcess, project: PulumiProject, o: Options): Promise<{ rows: ScaleRow[]; state: ScaleState }> {
  await setLatency(emu, 0);
  const runs = {} as Record<ScaleRun, Partial<Record<ScalePhase, PhaseRun>>>;
  const state: ScaleState = { checkpointBytes: {}, entryBytes: {} };
  for (const s of RUNS) {
    runs[s.run] = {};
    if (!o.scaleRuns.has(s.run)) continue;
    project.setProgram(program({ services: o.scale, prefix: "Scale", impl: s.impl }));
    for (const p of PHASES.filter((x) => (SCALE_PHASES as readonly string[]).includes(x.name))) {
      const name = p.name as ScalePhase;
      const run = (runs[s.run][name] = await phase(emu, project, p.args, { perMinute: s.perMinute }));
      progress(`scale ${s.run} ${name}: ${run.seconds.toFixed(1)} s, ${run.counts.rest} requests`);
      if (name === "up") {
        state.checkpointBytes[s.run] = checkpointBytes(project);
        state.entryBytes[s.run] = averageEntry(weigh(project));
      }
    }
  }
  await freshWindows(emu);
  const rows = SCALE_PHASES.map((name): ScaleRow => {
    const secondsOf = (r: ScaleRun) => runs[r][name]?.seconds ?? NaN;
    const run = runs.limit[name] ?? NOTHING;
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

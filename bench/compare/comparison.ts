// The comparison case (issues 8, 30, 38): this provider against the minimal floor on the same graph,
// up, `preview --refresh --expect-no-changes`, an update of every service and rule, and destroy.
//
// Each project keeps its own stack, so the two run phase by phase, interleaved: within a round each
// phase runs once for each, and the order flips round by round (floor first in odd rounds, ours
// first in even ones: ABBA), so the load of a shared machine drifting over minutes falls on both
// alike. Each phase's median over the rounds is kept, its min–max printed beside it.
// With --latency, this provider runs its lifecycle again at added latency in each round, after
// the pair in odd rounds and before it in even ones (the same project: its stack is empty between;
// interleaving it phase by phase would put two stacks' services in one account, and a refresh's
// service listing would see both).
import type { PulumiProject, EmulatorProcess } from "../../tests/e2e/harness";
import { atMost, median } from "../compare-math";
import { type Impl, program } from "../compare-program";
import { setLatency } from "./emulator";
import { FLOORS, TARGET, type Options } from "./options";
import { ENGINE_DEFAULT_PARALLEL, lifecycle, PHASES, type PhaseName, type PhaseRun, phase, progress, setParallel } from "./phase";
import { type StateAfter, stateAfter } from "./state";

export type Contender = "ours" | "floor";
export const impl = (who: Contender, o: Options): Impl => (who === "ours" ? "provider" : FLOORS[o.floor]);

/** A figure over the rounds: median and spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}
const spread = (xs: number[]): Spread => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

export interface ComparisonRow {
  phase: PhaseName;
  /** The engine's --parallel for both programs. */
  parallel: number;
  latencyMs: number;
  ours: Spread;
  floor: Spread;
  /** Median of ours over median of the floor, and the spread of the rounds' own ratios. */
  ratio: number;
  roundRatios: Spread;
  ratioMark: string;
  operations: number;
  /** CPU milliseconds of the dynamic-provider process per operation (medians). */
  providerCpuMsPerOp: Record<Contender, number>;
  /** CPU seconds of the whole `pulumi` run, every process of its tree (medians). */
  runCpu: Record<Contender, number>;
  /** CPU seconds of the program's process (what the rest of the run is: engine and language host). */
  programCpu: Record<Contender, number>;
  /** CPU seconds of the emulator during our phase (median), and that over the time gap (ours − floor). */
  emulatorCpu: number;
  emulatorShareOfGap: number;
  requests: number;
  requestsPerOp: number;
  requestsMark: string;
  rateLimited: number;
  tokens: number;
  identityRequests: number;
  /** Requests by route in the last round. */
  routes: Record<string, number>;
}

/** The state after each phase of the first round, ours and the floor's. */
export type ComparisonState = Record<Contender, Partial<Record<PhaseName, StateAfter>>>;

const setVersion = (project: PulumiProject, o: Options, impl: Impl) => (version: 1 | 2) =>
  project.setProgram(program({ services: o.services, prefix: "Compare", impl, version }));

export async function comparison(
  emu: EmulatorProcess,
  projects: Record<Contender, PulumiProject>,
  o: Options,
  parallel: number | undefined,
  state?: ComparisonState,
): Promise<ComparisonRow[]> {
  for (const p of Object.values(projects)) setParallel(p, parallel);
  const p = parallel ?? ENGINE_DEFAULT_PARALLEL;
  const rounds: Record<Contender, PhaseRun>[][] = PHASES.map(() => []);
  const latency: Record<PhaseName, PhaseRun>[] = [];
  await setLatency(emu, 0);
  for (let r = 1; r <= o.rounds; r++) {
    const order: Contender[] = r % 2 ? ["floor", "ours"] : ["ours", "floor"];
    const withLatency = async () => {
      if (!o.latencyMs) return;
      await setLatency(emu, o.latencyMs);
      latency.push(await lifecycle(emu, projects.ours, `parallel ${p} round ${r} ours at ${o.latencyMs} ms`, setVersion(projects.ours, o, "provider")));
      await setLatency(emu, 0);
    };
    if (order[0] === "ours") await withLatency();
    for (const [i, ph] of PHASES.entries()) {
      const runs = {} as Record<Contender, PhaseRun>;
      for (const who of order) {
        setVersion(projects[who], o, impl(who, o))(ph.version);
        runs[who] = await phase(emu, projects[who], ph.args);
        if (r === 1 && state) state[who][ph.name] = stateAfter(projects[who]);
      }
      progress(
        `parallel ${p} round ${r} ${ph.name}: ${order.map((w) => `${w} ${runs[w].seconds.toFixed(1)} s`).join(", ")}; ${runs.ours.counts.rest} requests`,
      );
      rounds[i].push(runs);
    }
    if (order[0] === "floor") await withLatency();
  }
  for (const pr of Object.values(projects)) setParallel(pr, undefined);
  return PHASES.flatMap((ph, i) => {
    const floor = rounds[i].map((x) => x.floor);
    const rows = [
      row(
        ph,
        p,
        0,
        rounds[i].map((x) => x.ours),
        floor,
        o,
      ),
    ];
    if (o.latencyMs)
      rows.push(
        row(
          ph,
          p,
          o.latencyMs,
          latency.map((x) => x[ph.name]),
          floor,
          o,
        ),
      );
    return rows;
  });
}

function row(ph: (typeof PHASES)[number], parallel: number, latencyMs: number, ours: PhaseRun[], floor: PhaseRun[], o: Options): ComparisonRow {
  const ops = o.services * ph.changes;
  const med = (runs: PhaseRun[], f: (x: PhaseRun) => number) => median(runs.map(f));
  const s = { ours: spread(ours.map((x) => x.seconds)), floor: spread(floor.map((x) => x.seconds)) };
  const ratio = s.ours.median / s.floor.median;
  // Issues 30 and 38: every phase at 0 ms. Issue 8: up, destroy and preview --refresh at the added latency.
  const target = latencyMs === 0 ? TARGET.floorRatioNoLatency : ph.name === "update" ? undefined : TARGET.floorRatio;
  const emulatorCpu = med(ours, (x) => x.emulatorCpu);
  const gap = s.ours.median - s.floor.median;
  const requests = med(ours, (x) => x.counts.rest);
  return {
    phase: ph.name,
    parallel,
    latencyMs,
    ...s,
    ratio,
    roundRatios: spread(ours.map((x, k) => x.seconds / floor[k].seconds)),
    ratioMark: target ? atMost(ratio, target) : "",
    operations: ops,
    providerCpuMsPerOp: { ours: (med(ours, (x) => x.providerCpu) * 1000) / ops, floor: (med(floor, (x) => x.providerCpu) * 1000) / ops },
    runCpu: { ours: med(ours, (x) => x.runCpu), floor: med(floor, (x) => x.runCpu) },
    programCpu: { ours: med(ours, (x) => x.programCpu), floor: med(floor, (x) => x.programCpu) },
    emulatorCpu,
    emulatorShareOfGap: gap > 0 ? emulatorCpu / gap : NaN,
    requests,
    requestsPerOp: requests / ops,
    requestsMark: atMost(requests / ops, TARGET.requestsPerOp),
    rateLimited: med(ours, (x) => x.counts.rateLimited),
    tokens: med(ours, (x) => x.counts.tokens),
    identityRequests: med(ours, (x) => x.counts.identity),
    routes: ours[ours.length - 1].routes,
  };
}

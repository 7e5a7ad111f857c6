// The markdown tables `npm run bench:compare` prints, with the targets marked PASS/MISS.
import { atMost } from "../compare-math";
import { RESOURCES_PER_SERVICE } from "../compare-program";
import type { ComparisonRow, ComparisonState, Spread } from "./comparison";
import type { ConcurrentResult } from "./concurrent";
import { PER_MINUTE } from "./emulator";
import { type FloorName, type Options, TARGET } from "./options";
import { ENGINE_DEFAULT_PARALLEL, PHASES } from "./phase";
import type { ProfileSummary } from "./profile";
import type { ScaleRow, ScaleState } from "./scale";
import { averageEntry, type StateBytes } from "./state";

export interface Results {
  rows: ComparisonRow[];
  state?: ComparisonState;
  profile: ProfileSummary[];
  scale: ScaleRow[];
  scaleState?: ScaleState;
  concurrent: ConcurrentResult[];
}

export interface Env {
  date: string;
  pulumi: string;
  node: string;
  cpus: string;
}

const sec = (s: number) => (Number.isNaN(s) ? "–" : `${s.toFixed(1)} s`);
const x = (r: number) => (Number.isNaN(r) ? "–" : `${r.toFixed(2)}×`);
const num = (n: number) => (Number.isNaN(n) ? "–" : String(n));
const bytes = (b: number | undefined) => (b === undefined || Number.isNaN(b) ? "–" : `${b.toLocaleString("en")} B`);
const kb = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${Math.round(b / 1024)} KB`);
const pct = (f: number) => `${Math.round(f * 100)} %`;
/** A median with its spread over the rounds: `6.5 s (6.1–7.0)`; one round: the figure alone. */
const spread = (s: Spread, f: (n: number) => string, unit = "") =>
  s.min === s.max ? `${f(s.median)}${unit}` : `${f(s.median)}${unit} (${f(s.min)}–${f(s.max)})`;

/** The run's CPU outside the provider and the program: the engine and the language host. */
const rest = (r: ComparisonRow, who: "ours" | "floor") => r.runCpu[who] - r.programCpu[who] - (r.providerCpuMsPerOp[who] * r.operations) / 1000;

/** How much of the time gap (ours − floor) the emulator's CPU could be. */
function emulatorShare(r: ComparisonRow): string {
  const cpu = `${r.emulatorCpu.toFixed(2)} s`;
  if (Number.isNaN(r.emulatorShareOfGap)) return `${cpu} (no gap)`;
  return `${cpu} = ${r.emulatorShareOfGap >= 1 ? "≥ all" : pct(r.emulatorShareOfGap)} of ${(r.ours.median - r.floor.median).toFixed(2)} s`;
}

/** What each floor is, in the comparison's heading (bench/compare-program.ts). */
const FLOOR_TEXT: Record<FloorName, string> = {
  floor:
    "its outputs are its inputs: the same user fields as ours and nothing else; used through `pulumi.dynamic.Resource`, whose " +
    "serializer writes it as a `require` of the package (issue 38's floor). ",
  bare:
    "its outputs are its inputs: the same user fields as ours and nothing else; its resources write their `__provider` as one " +
    "short `require` line, as ours do (the bare floor, `--floor bare`: lighter than Pulumi's dynamic API makes any provider). ",
  shaped:
    "its resources carry what ours do, the outputs this package's resources have with its bookkeeping (`__declared`, `__origin`, " +
    "`__createdAt`, the integration key a secret) and a one-line `__provider`, but it makes no request (the shaped floor, " +
    "`--floor shaped`: beside the floor it is the engine's cost of our state, beside ours the cost of the work). ",
};

function comparisonSection(o: Options, rows: ComparisonRow[]): string[] {
  const n = o.services;
  const ops = n * RESOURCES_PER_SERVICE;
  const rounds =
    o.rounds === 1 ? "the figures are of one round" : `each figure is the median of ${o.rounds} rounds, with the min–max over the rounds in parentheses`;
  return [
    `**This provider against the minimal floor**: ${n} services, each with an Events API v2 integration and an event rule ` +
      `(${ops} resources, as many operations per phase). Floor: the same graph with a do-nothing dynamic provider, the \`module.exports\` ` +
      `of a package under the project's node_modules; ${FLOOR_TEXT[o.floor]}` +
      "Each in its own stack, the two run phase by phase, interleaved, " +
      `the order flipped every round (ABBA); ${rounds}. ` +
      `Both at the engine's default parallelism (${ENGINE_DEFAULT_PARALLEL} here: 4 × CPUs)` +
      (o.wideParallel ? ` and again at \`--parallel ${o.wideParallel}\`` : "") +
      (o.latencyMs ? `; this provider also at ${o.latencyMs} ms added to every request, its lifecycle before or after the pair, against the same floor` : "") +
      ".",
    "",
    `| --parallel | phase | added latency | this provider | floor | ratio (rounds' own) (target ≤ ${TARGET.floorRatioNoLatency}× at 0 ms${o.latencyMs ? `, ≤ ${TARGET.floorRatio}× at ${o.latencyMs} ms` : ""}) | ` +
      "provider process CPU ms / op (floor) | whole run CPU (floor): of it program, engine + host | emulator CPU = share of the gap | requests / op (target ≤ 1.05) | 429s | tokens |",
    "|-|-|-|-|-|-|-|-|-|-|-|-|",
    ...rows.map(
      (r) =>
        `| ${r.parallel} | ${r.phase} | ${r.latencyMs} ms | ${spread(r.ours, (v) => v.toFixed(1), " s")} | ${spread(r.floor, (v) => v.toFixed(1), " s")} | ` +
        `${x(r.ratio)}${r.ratioMark ? ` ${r.ratioMark}` : ""}${o.rounds > 1 ? ` (${spread(r.roundRatios, (v) => v.toFixed(2))})` : ""} | ` +
        `${r.providerCpuMsPerOp.ours.toFixed(1)} (${r.providerCpuMsPerOp.floor.toFixed(1)}) | ${r.runCpu.ours.toFixed(1)} s (${r.runCpu.floor.toFixed(1)} s): ` +
        `${r.programCpu.ours.toFixed(1)} (${r.programCpu.floor.toFixed(1)}), ${rest(r, "ours").toFixed(1)} (${rest(r, "floor").toFixed(1)}) | ` +
        `${emulatorShare(r)} | ${r.requestsPerOp.toFixed(2)} ${r.requestsMark} (${r.requests}) | ${r.rateLimited} | ${r.tokens} |`,
    ),
    "",
    `The ${TARGET.floorRatioNoLatency}× target applies to every phase at 0 ms` +
      (o.latencyMs
        ? `; the ${TARGET.floorRatio}× one to up, destroy and preview --refresh at ${o.latencyMs} ms, where every request holds one of the engine's slots ` +
          `for at least that long: ${ops} operations through P slots wait at least ${ops} × ${o.latencyMs} ms / P that the floor does not ` +
          `(${((ops * o.latencyMs) / ENGINE_DEFAULT_PARALLEL / 1000).toFixed(2)} s at P = ${ENGINE_DEFAULT_PARALLEL}` +
          (o.wideParallel ? `, ${((ops * o.latencyMs) / o.wideParallel / 1000).toFixed(2)} s at P = ${o.wideParallel}` : "") +
          ")"
        : "") +
      ". CPU, apart: the dynamic-provider process per operation (bench/cpu-probe.js); the whole `pulumi` run, every process of its tree " +
      "(engine, language host, program, provider); the emulator's process during our phase. The emulator shares the machine's cores and the floor " +
      "makes no request, so of the time gap (ours − floor) at most the emulator's CPU can be the emulator's doing (less where it ran on a core the run " +
      "left idle): what remains is this provider's and the engine's. Requests exclude the token endpoint (tokens: access tokens issued during the phase) " +
      "and the credential check each process makes once (`GET /users/me`).",
    "",
  ];
}

function stateSection(state: ComparisonState): string[] {
  const avg = (who: "ours" | "floor", phase: (typeof PHASES)[number]["name"]) => averageEntry(state[who][phase]?.types ?? {});
  const up: StateBytes = { ...state.ours.up?.types, ...state.floor.up?.types };
  const types = Object.keys(up).sort((a, b) => a.split(":")[1].localeCompare(b.split(":")[1]) || a.localeCompare(b));
  return [
    "State after each phase (first round): the checkpoint file, and the average dynamic resource's entry in it (`pulumi stack export`, each entry " +
      "as compact JSON, as the file backend stores it):",
    "",
    `| after | checkpoint: this provider | floor | per resource: this provider (target ≤ ${TARGET.stateBytes.toLocaleString("en")} B: at most the native plugin's ${TARGET.nativeStateBytes.toLocaleString("en")} B) | floor |`,
    "|-|-|-|-|-|",
    ...PHASES.map((p) => {
      const ours = avg("ours", p.name);
      return (
        `| ${p.name} | ${bytes(state.ours[p.name]?.checkpoint)} | ${bytes(state.floor[p.name]?.checkpoint)} | ` +
        `${bytes(ours)}${Number.isNaN(ours) ? "" : ` ${atMost(ours, TARGET.stateBytes)}`} | ${bytes(avg("floor", p.name))} |`
      );
    }),
    "",
    "By type after up (`__provider` as a JSON string; it is stored twice, inputs and outputs):",
    "",
    "| type | entry | `__provider` |",
    "|-|-|-|",
    ...types.map((t) => `| ${t} | ${bytes(up[t].entry)} | ${bytes(up[t].provider)} |`),
    "",
  ];
}

function profileSection(o: Options, profiles: ProfileSummary[]): string[] {
  if (!profiles.length) return [];
  const floor = (phase: string) => profiles.find((p) => p.contender === "floor" && p.phase === phase);
  return [
    `**Where the provider process's time goes** (\`--profile ${o.profile}\`: V8 CPU profiles of the dynamic-provider process, one untimed lifecycle ` +
      "each at 0 ms, sampled every 0.5 ms; self time, idle excluded, a blocking call counted while it blocks; `(program)` is V8's own work; " +
      "by package, Node's and native work is charged to the package whose code called it, so module loading goes to the package that requires):",
    "",
    ...profiles
      .filter((p) => p.contender === "ours")
      .flatMap((p) => {
        const f = floor(p.phase);
        const share = (ms: number) => (p.totalMs ? pct(ms / p.totalMs) : "–");
        const packages = (s: ProfileSummary, n: number) =>
          s.packages
            .slice(0, n)
            .map((k) => `${k.name} ${Math.round(k.selfMs)} ms`)
            .join(", ");
        return [
          `*${p.phase}*: ${Math.round(p.totalMs)} ms sampled in ${p.processes} process${p.processes === 1 ? "" : "es"}, by package: ${packages(p, 8)}` +
            (f ? `. Floor: ${Math.round(f.totalMs)} ms, ${packages(f, 4)}` : "") +
            `. Profiles in \`${p.dir}\`.`,
          "",
          "| self ms | share | function |",
          "|-|-|-|",
          ...p.top.map((t) => `| ${t.selfMs.toFixed(1)} | ${share(t.selfMs)} | \`${t.fn}\` |`),
          "",
        ];
      }),
  ];
}

function scaleSection(o: Options, sc: ScaleRow[], st: ScaleState | undefined): string[] {
  const n = o.scale * RESOURCES_PER_SERVICE;
  const names = { "no-limit": "this provider", floor: "floor", "heavy-floor": "heavy floor" } as const;
  return [
    `**Big stack**: ${o.scale} services × ${RESOURCES_PER_SERVICE} (${n} resources), no added latency, one run each. This provider without a rate limit ` +
      "(the engine's share and ours) against the minimal floor and the heavy floor (a do-nothing provider made in the program, so the serializer " +
      `inlines it, with the outputs ours compute: a floor as heavy in state as this package's resources were before their providers became modules), and under ${PER_MINUTE}/min against the ideal: ` +
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
              .map((k) => `${names[k]} ${kb(st.checkpointBytes[k]!)} (${bytes(st.entryBytes[k])})`)
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

export function report(o: Options, env: Env, r: Results): string {
  return [
    `### bench:compare${o.quick ? " (--quick smoke run)" : ""}`,
    "",
    `${env.date}, ${env.pulumi}, Node ${env.node}, ${env.cpus}; emulator in its own process at ${PER_MINUTE} requests/min ` +
      "(windows reset before every timed phase).",
    "",
    ...(r.rows.length ? comparisonSection(o, r.rows) : []),
    ...(r.state ? stateSection(r.state) : []),
    ...profileSection(o, r.profile),
    ...(r.scale.length ? scaleSection(o, r.scale, r.scaleState) : []),
    ...concurrentSection(r.concurrent),
  ].join("\n");
}

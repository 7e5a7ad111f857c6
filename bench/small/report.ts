// The markdown tables `npm run bench:small` prints: each door against its floor phase by phase and
// size by size, with issue 47's targets marked at 5 services, and the package door against the native
// do-nothing plugin (issue 55: at or below it); where the time went; the profiles.
import type { Counts } from "../compare-math";
import type { ProfileSummary } from "../compare/profile";
import type { Breakdown, ProcessTimeline } from "./timeline";

type DoorName = "ts" | "package";
type Who = "ours" | "floor" | "native";

export interface SmallRun {
  seconds: number;
  breakdown: Breakdown;
  processes: ProcessTimeline[];
  requests: Counts;
}

export interface SmallResults {
  env: Record<string, string>;
  options: { sizes: number[]; rounds: number; doors: DoorName[]; profile?: string };
  runs: Array<SmallRun & { round: number; size: number; door: DoorName; phase: string; who: Who }>;
  profiles: Array<Omit<ProfileSummary, "contender" | "phase"> & { door: DoorName; who: Who; phase: string }>;
}

/** Issue 47's targets, at 5 services × 3. */
export const SMALL_TARGET = { size: 5, ratio: 1.1, toPortMs: 120, configureRequests: 1 };

const DOOR_TEXT: Record<DoorName, { title: string; floor: string }> = {
  ts: { title: "TypeScript program: this package's dynamic providers", floor: "minimal floor (a do-nothing dynamic provider)" },
  package: { title: "YAML program: this package's plugin", floor: "do-nothing plugin on @pulumi/pulumi/provider's server" },
};

const ms = (v: number) => (Number.isNaN(v) ? "–" : `${Math.round(v)} ms`);
const mark = (ok: boolean) => (ok ? "PASS" : "MISS");

export function report(r: SmallResults, median: (xs: number[]) => number): string {
  const phases = [...new Set(r.runs.map((x) => x.phase))];
  const pick = (door: DoorName, size: number, phase: string, who: Who) =>
    r.runs.filter((x) => x.door === door && x.size === size && x.phase === phase && x.who === who).sort((a, b) => a.round - b.round);
  const med = (runs: SmallRun[], f: (x: SmallRun) => number) => median(runs.map(f).filter((v) => !Number.isNaN(v)));
  const out: string[] = [
    "### bench:small",
    "",
    `${r.env.date}, ${r.env.pulumi}, Node ${r.env.node}, ${r.env.cpus}; load average (1, 5, 15 min) ${r.env.loadBefore} before the timed runs, ${r.env.load} after. ` +
      `Each contender in its own stack, those of a door run phase by phase, interleaved, the order reversed every round; ` +
      `medians of ${r.options.rounds} rounds (min–max of the rounds' own ratios in parentheses). ` +
      `Targets (issue 47) at ${SMALL_TARGET.size} services: at most ${SMALL_TARGET.ratio}× the floor in every phase; ` +
      `the plugin's time to port at most ${SMALL_TARGET.toPortMs} ms and its credential check at most ${SMALL_TARGET.configureRequests} request.`,
  ];

  for (const door of r.options.doors) {
    const native = r.runs.some((x) => x.door === door && x.who === "native");
    out.push(
      "",
      `**${DOOR_TEXT[door].title}**, against the ${DOOR_TEXT[door].floor}${native ? " and the native do-nothing plugin (Go, Pulumi's Go SDK)" : ""}:`,
      "",
      `| services × 3 | phase | this package | floor | ratio (rounds') | target |${native ? " native | ours / native (rounds') | floor / native |" : ""}`,
      `|-|-|-|-|-|-|${native ? "-|-|-|" : ""}`,
    );
    /** The median's ratio and the rounds' own ratios' min–max. */
    const ratioOf = (a: SmallRun[], b: SmallRun[]) => {
      const own = a.map((x, i) => x.seconds / (b[i]?.seconds ?? NaN));
      const ratio = med(a, (x) => x.seconds) / med(b, (x) => x.seconds);
      return { ratio, text: `${ratio.toFixed(2)}× (${Math.min(...own).toFixed(2)}–${Math.max(...own).toFixed(2)})` };
    };
    for (const size of r.options.sizes)
      for (const phase of phases) {
        const ours = pick(door, size, phase, "ours");
        const floor = pick(door, size, phase, "floor");
        if (!ours.length || !floor.length) continue;
        const { ratio, text } = ratioOf(ours, floor);
        const target = size === SMALL_TARGET.size ? `≤ ${SMALL_TARGET.ratio}× ${mark(ratio <= SMALL_TARGET.ratio)}` : "";
        const nat = pick(door, size, phase, "native");
        const nativeCells = native ? ` ${med(nat, (x) => x.seconds).toFixed(2)} s | ${ratioOf(ours, nat).text} | ${ratioOf(floor, nat).text} |` : "";
        out.push(
          `| ${size} | ${phase} | ${med(ours, (x) => x.seconds).toFixed(2)} s | ${med(floor, (x) => x.seconds).toFixed(2)} s | ${text} | ${target} |${nativeCells}`,
        );
      }

    out.push(
      "",
      `Where the time went at ${SMALL_TARGET.size} services (medians; processes: why the engine started each, read off the calls it answered; ` +
        "to port: from a process's start to its port; credential check: its requests wherever they ran, and the time from the first one's start to the last one's end; " +
        "starting: while some process was starting; serving: while some call was in flight; rest: the engine, the language host and the program):",
      "",
      "| phase | contender | total | processes | to port | Configure | credential check | GetSchema | first call | starting | serving | rest | REST requests |",
      "|-|-|-|-|-|-|-|-|-|-|-|-|-|",
    );
    // The native plugin is no Node process: the probe sees none of it, so it has no row here.
    for (const phase of phases)
      for (const who of ["ours", "floor"] as const) {
        const runs = pick(door, SMALL_TARGET.size, phase, who);
        if (!runs.length) continue;
        const b = (f: (x: Breakdown) => number) => med(runs, (x) => f(x.breakdown));
        const last = runs[runs.length - 1].breakdown;
        const total = med(runs, (x) => x.seconds) * 1000;
        const rest = med(runs, (x) => x.seconds * 1000 - x.breakdown.starting - x.breakdown.serving);
        const credential = `${b((x) => x.credentialRequests)}${last.credentialRoutes.length ? ` (${[...new Set(last.credentialRoutes)].join(", ")})` : ""}, ${ms(b((x) => x.credentialCheck))}`;
        out.push(
          `| ${phase} | ${who === "ours" ? "this package" : "floor"} | ${ms(total)} | ${last.processes}: ${last.purposes.join(", ")} | ${ms(b((x) => x.toPort))} | ` +
            `${ms(b((x) => x.configure))} | ${credential} | ${ms(b((x) => x.getSchema))} | ${last.firstCallMethod} ${ms(b((x) => x.firstCall))} | ` +
            `${ms(b((x) => x.starting))} | ${ms(b((x) => x.serving))} | ${ms(rest)} | ${med(runs, (x) => x.requests.rest)} |`,
        );
      }

    const at = r.runs.filter((x) => x.door === door && x.size === SMALL_TARGET.size);
    const oursAt = at.filter((x) => x.who === "ours");
    const worst = Math.max(
      ...phases.map((p) => med(pick(door, SMALL_TARGET.size, p, "ours"), (x) => x.seconds) / med(pick(door, SMALL_TARGET.size, p, "floor"), (x) => x.seconds)),
    );
    const lines = [`- every phase within ${SMALL_TARGET.ratio}× the floor: the worst is ${worst.toFixed(2)}× ${mark(worst <= SMALL_TARGET.ratio)}`];
    if (native) {
      const worstNative = Math.max(
        ...phases.map(
          (p) => med(pick(door, SMALL_TARGET.size, p, "ours"), (x) => x.seconds) / med(pick(door, SMALL_TARGET.size, p, "native"), (x) => x.seconds),
        ),
      );
      lines.push(`- every phase at or below the native do-nothing plugin (issue 55): the worst is ${worstNative.toFixed(2)}× ${mark(worstNative <= 1)}`);
    }
    if (door === "package" && oursAt.length) {
      const toPort = median(oursAt.flatMap((x) => x.processes.flatMap((p) => (p.toPort === undefined ? [] : [p.toPort]))));
      const floorPort = median(at.filter((x) => x.who === "floor").flatMap((x) => x.processes.flatMap((p) => (p.toPort === undefined ? [] : [p.toPort]))));
      const requests = Math.max(...oursAt.map((x) => x.breakdown.credentialRequests));
      lines.push(
        `- the plugin's time to port, median over every process of every phase: ${ms(toPort)} ${mark(toPort <= SMALL_TARGET.toPortMs)} (the do-nothing plugin's: ${ms(floorPort)})`,
        `- the credential check's requests in any phase, at most: ${requests} ${mark(requests <= SMALL_TARGET.configureRequests)}`,
      );
    }
    out.push("", `Targets at ${SMALL_TARGET.size} services:`, ...lines);
  }

  if (r.profiles.length) {
    out.push(
      "",
      "CPU profiles (untimed runs at 5 services; the plugin's and the dynamic-provider's processes): sampled CPU and the packages with the most self time:",
      "",
      "| door | contender | phase | processes | CPU | by package |",
      "|-|-|-|-|-|-|",
    );
    for (const p of r.profiles)
      out.push(
        `| ${p.door} | ${p.who === "ours" ? "this package" : "floor"} | ${p.phase} | ${p.processes} | ${ms(p.totalMs)} | ${p.packages
          .slice(0, 5)
          .map((x) => `${x.name} ${ms(x.selfMs)}`)
          .join(", ")} |`,
      );
  }
  return out.join("\n");
}

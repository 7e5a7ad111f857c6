// The command line of `npm run bench:compare` and the targets its tables mark PASS/MISS.
import { parseArgs } from "node:util";

export const CASES = ["comparison", "scale", "concurrent"] as const;
/** The comparison's floor (bench/compare-program.ts): issue 38's, the bare one, or the one shaped as this package's state. */
export const FLOORS = { floor: "floor", bare: "bare floor", shaped: "shaped floor" } as const;
export type FloorName = keyof typeof FLOORS;
export type Case = (typeof CASES)[number];

/** The scale case's runs (a big stack's runs take long: --scale-runs leaves some out). */
export const SCALE_RUNS = ["floor", "heavy-floor", "no-limit", "limit"] as const;
export type ScaleRun = (typeof SCALE_RUNS)[number];

/**
 * floorRatio: issue 8, at added latency. floorRatioNoLatency: issues 30 and 38, every phase at 0 ms.
 * scaleFloorRatio: issue 30, the big stack without a limit against the floor. stateBytes: issue 38,
 * per resource at most what the native plugin's state holds for the same graph (2,301 B).
 */
export const TARGET = {
  floorRatio: 1.3,
  floorRatioNoLatency: 1.15,
  requestsPerOp: 1.05,
  scaleRatio: 1.2,
  scaleFloorRatio: 1.2,
  concurrent429Pct: 1,
  throughputPct: 85,
  stateBytes: 2300,
  nativeStateBytes: 2301,
};

export interface Options {
  services: number;
  /** Added latency of the comparison's second run of this provider; 0: not run. */
  latencyMs: number;
  scale: number;
  stacks: number;
  stackServices: number;
  /** Rounds of the comparison, this provider and the floor interleaved in each. */
  rounds: number;
  quick: boolean;
  cases: ReadonlySet<Case>;
  /** Engine parallelism of the second comparison run; 0: only the engine's default. */
  wideParallel: number;
  /** Rate limit of the second concurrent run, low enough to bind; 0: not run. */
  bindingLimit: number;
  scaleRuns: ReadonlySet<ScaleRun>;
  /** The comparison's floor. */
  floor: FloorName;
  /** Where V8 CPU profiles of the provider processes go, per phase; undefined: none taken. */
  profile?: string;
}

export function options(argv = process.argv.slice(2)): Options {
  const { values } = parseArgs({
    args: argv,
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
      profile: { type: "string" },
      floor: { type: "string", default: "floor" },
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
    latencyMs: int("latency", values.latency, 100, 0),
    scale: int("scale", values.scale, q ? 20 : 200, 1),
    stacks: int("stacks", values.stacks, q ? 2 : 4, 1),
    stackServices: int("stack-services", values["stack-services"], q ? 5 : 50, 1),
    rounds: int("rounds", values.rounds, q ? 1 : 3, 1),
    cases: listOf("cases", values.cases, CASES),
    wideParallel: int("wide-parallel", values["wide-parallel"], 32, 0),
    bindingLimit: int("binding-limit", values["binding-limit"], q ? 60 : 240, 0),
    scaleRuns: listOf("scale-runs", values["scale-runs"], SCALE_RUNS),
    profile: values.profile,
    floor: oneOf("floor", values.floor!, Object.keys(FLOORS) as FloorName[]),
  };
}

function oneOf<T extends string>(flag: string, v: string, all: readonly T[]): T {
  if (!(all as readonly string[]).includes(v)) throw new Error(`--${flag} takes ${all.join(" or ")}; got ${JSON.stringify(v)}`);
  return v as T;
}

/** A comma-separated subset of `all` (all of it when the flag is absent). */
function listOf<T extends string>(flag: string, v: string | undefined, all: readonly T[]): ReadonlySet<T> {
  if (v === undefined) return new Set(all);
  const names = v.split(",").map((c) => c.trim());
  const bad = names.filter((c) => !(all as readonly string[]).includes(c));
  if (bad.length) throw new Error(`--${flag} takes ${all.join(", ")}; got ${bad.join(", ")}`);
  return new Set(names as T[]);
}

/** The options as JSON (sets as arrays). */
export const optionsJson = (o: Options) => ({ ...o, cases: [...o.cases], scaleRuns: [...o.scaleRuns] });

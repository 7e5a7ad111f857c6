// Side-by-side benchmark (issues 8, 30, 38): this provider against the minimal floor (the same
// program graph with a do-nothing dynamic provider over Pulumi's API whose state holds the same
// user fields and nothing else, bench/compare-program.ts; or, with --floor bare, the same with a
// one-line `__provider`, lighter than Pulumi's API makes any provider; or, with --floor shaped, a
// do-nothing provider whose state is shaped as ours), phase by phase and interleaved, at 0 ms and at added
// latency, for up, `preview --refresh --expect-no-changes`, an update of every service and rule,
// and destroy: time (medians and spread over rounds), CPU apart for the provider process, the whole
// `pulumi` run and the emulator, requests per resource operation, and the state after each phase.
// With --profile, V8 CPU profiles of the provider process per phase. A scale case (create,
// refresh check, destroy of a big stack) without a rate limit and under the emulator's, beside the
// floor and a floor as heavy in state as this package's resources were before issue 30; and
// several stacks running `up` at once against one account. The real Pulumi CLI drives everything;
// the emulator runs as its own process. Figures, not assertions: the issues' targets are printed
// beside them with PASS/MISS.
//
// The engine runs at most `--parallel` operations at once (4 × CPUs by default: 8 on 2 cores), and
// at added latency every request holds one of those slots, so the comparison is run at the engine's
// default and again at a wider parallelism (both programs alike): the difference shows what the
// engine's bound costs and what the provider itself adds.
//
// Usage: npm run bench:compare [-- --quick] [--services N] [--latency MS (0: none)] [--rounds R]
//        [--cases comparison,scale,concurrent] [--wide-parallel P] [--profile DIR] [--scale N]
//        [--scale-runs floor,heavy-floor,no-limit,limit] [--stacks K] [--stack-services N]
//        [--binding-limit PER_MINUTE] [--floor floor|bare|shaped]
// Prints markdown tables on stdout (progress on stderr) and writes bench/results/compare.json (or compare-quick.json).
// The parts: compare/options.ts (flags, targets), compare/phase.ts (one measured run), cpu.ts,
// state.ts, comparison.ts, profile.ts, scale.ts, concurrent.ts, report.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PulumiProject, ROOT, startEmulatorProcess } from "../tests/e2e/harness";
import { type Impl, installFloor, program } from "./compare-program";
import { type ComparisonState, comparison } from "./compare/comparison";
import { concurrentCases } from "./compare/concurrent";
import { admin, checkRateLimit, PER_MINUTE } from "./compare/emulator";
import { FLOORS, options, optionsJson, TARGET } from "./compare/options";
import { progress } from "./compare/phase";
import { profile } from "./compare/profile";
import { type Env, type Results, report } from "./compare/report";
import { scale } from "./compare/scale";

/** Programs are type-checked, as Pulumi runs a TypeScript program unless told otherwise (the e2e tests turn it off). */
const TYPECHECK = { typecheck: true } as const;

async function main() {
  const o = options();
  progress(`options ${JSON.stringify(optionsJson(o))}`);
  const emu = await startEmulatorProcess(["--rate-limit", String(PER_MINUTE)]);
  // Its log goes to ours, so a crash mid-run explains itself.
  emu.proc.stderr!.on("data", (d) => process.stderr.write(`[emulator] ${d}`));
  emu.proc.on("exit", (code, signal) => progress(`the emulator exited (${code ?? signal})`));
  const projects: PulumiProject[] = [];
  try {
    await checkRateLimit(emu);
    await admin(emu, "POST", "/_emulator/reset");
    progress("setting up the projects");
    // Ours (and the scale and concurrent cases'); the floor's, with a stack of its own to interleave with ours.
    const ours = PulumiProject.create("bench-compare", "", emu, {}, TYPECHECK);
    projects.push(ours);
    installFloor(ours);
    const pair = o.cases.has("comparison") || o.profile ? { ours, floor: PulumiProject.create("bench-floor", "", emu, {}, TYPECHECK) } : undefined;
    if (pair) {
      projects.push(pair.floor);
      installFloor(pair.floor);
    }
    const env: Env = {
      date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      pulumi: `Pulumi CLI ${ours.must(["version"]).stdout.trim()}`,
      node: process.version,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
    };
    // The first run in a fresh project pays one-time costs (compiler and file caches); not the floor's.
    progress("warm-up previews");
    const floor = FLOORS[o.floor];
    const warmUps: Array<[PulumiProject, Impl]> = [[ours, floor], [ours, "provider"], ...(pair ? [[pair.floor, floor] as [PulumiProject, Impl]] : [])];
    for (const [project, impl] of warmUps) {
      project.setProgram(program({ services: o.services, prefix: "Compare", impl }));
      project.must(["preview"]);
    }
    const r: Results = { rows: [], profile: [], scale: [], concurrent: [] };
    if (pair && o.cases.has("comparison")) {
      const state: ComparisonState = { ours: {}, floor: {} };
      r.rows.push(...(await comparison(emu, pair, o, undefined, state)));
      r.state = state;
      if (o.wideParallel) r.rows.push(...(await comparison(emu, pair, o, o.wideParallel)));
    }
    if (pair && o.profile) r.profile = await profile(emu, pair, o, o.profile);
    if (o.cases.has("scale")) ({ rows: r.scale, state: r.scaleState } = await scale(emu, ours, o));
    if (o.cases.has("concurrent")) r.concurrent = await concurrentCases(emu, ours, o);
    console.log(report(o, env, r));
    const out = path.join(ROOT, "bench/results", o.quick ? "compare-quick.json" : "compare.json");
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const { rows: comparisonRows, ...rest } = r;
    const json = { env, options: optionsJson(o), limitPerMinute: PER_MINUTE, targets: TARGET, comparison: comparisonRows, ...rest };
    fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
    progress(`wrote ${path.relative(ROOT, out)}`);
  } finally {
    for (const p of projects) p.remove();
    await emu.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

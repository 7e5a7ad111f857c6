// The concurrent case: several stacks run `up` at once against one account (one OAuth app), at the
// service's limit and, with --binding-limit, under a limit they exceed.
import { spawn } from "node:child_process";
import { PulumiProject, type RunResult, type EmulatorProcess } from "../../tests/e2e/harness";
import { activeThroughput, atLeast, atMost, counts, delta, limitBoundSeconds, routeDelta, type Sample } from "../compare-math";
import { program, RESOURCES_PER_SERVICE } from "../compare-program";
import { freshWindows, PER_MINUTE, setLatency, snapshot, stats } from "./emulator";
import { type Options, TARGET } from "./options";
import { progress, seconds } from "./phase";

export interface ConcurrentResult {
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

/** Runs `up` in every project at once under `perMinute`, then destroys them all. */
async function concurrent(emu: EmulatorProcess, projects: PulumiProject[], o: Options, perMinute: number): Promise<ConcurrentResult> {
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

/** The case (the service's limit) and, with --binding-limit, the same stacks under a limit they exceed. */
export async function concurrentCases(emu: EmulatorProcess, first: PulumiProject, o: Options): Promise<ConcurrentResult[]> {
  const projects = [first];
  try {
    for (let k = 2; k <= o.stacks; k++) {
      progress(`concurrent: setting up stack ${k}`);
      projects.push(PulumiProject.create(`bench-c${k}`, "", emu, {}, { typecheck: true }));
    }
    const out = [await concurrent(emu, projects, o, PER_MINUTE)];
    if (o.bindingLimit > 0) out.push(await concurrent(emu, projects, o, o.bindingLimit));
    await freshWindows(emu);
    return out;
  } finally {
    for (const p of projects.slice(1)) p.remove();
  }
}

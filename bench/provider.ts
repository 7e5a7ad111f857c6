// Provider benchmark: a large `pulumi up` / `preview --refresh` / `destroy` through the real CLI
// against the emulator with added per-request latency (as over a real network). Run twice in one
// process, with the default per-account concurrency and with concurrency 1, and prints the ratio,
// the HTTP requests per resource, tokens fetched, 429s seen and the serialized provider's size.
// Usage: npm run bench:provider  (BENCH_SERVICES, default 60; BENCH_LATENCY_MS, default 150: an intercontinental round trip)
import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiProject, ROOT, startEmulatorProcess, type EmulatorProcess } from "../tests/e2e/harness";

const N = Number(process.env.BENCH_SERVICES ?? 60);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 150);

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
for (let i = 0; i < ${N}; i++) {
  new pagerduty.Service("svc-" + i, { name: "Bench " + i, description: "benchmark", escalationPolicy, acknowledgementTimeout: 600 });
}
`;

interface Figures {
  concurrency: string;
  upMs: number;
  refreshMs: number;
  destroyMs: number;
  requests: number;
  rateLimited: number;
  tokens: number;
  providerBytes: number;
}

function timed(project: PulumiProject, args: string[]): number {
  const start = process.hrtime.bigint();
  project.must(args);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function stats(emu: EmulatorProcess) {
  const s = (await emu.admin("GET", "/_emulator/stats")).body;
  return { total: s.total as number, rateLimited: s.rateLimited as number, tokens: s.tokensIssued.client_credentials as number };
}

async function run(emu: EmulatorProcess, concurrency?: number): Promise<Figures> {
  await emu.admin("POST", "/_emulator/reset");
  await emu.admin("POST", "/_emulator/faults", { route: "*", latencyMs: LATENCY, fraction: 1 });
  const extra: Record<string, string> = concurrency ? { "pagerduty:maxConcurrency": String(concurrency) } : {};
  const project = PulumiProject.create("bench", program, emu, extra);
  try {
    const before = await stats(emu);
    const upMs = timed(project, ["up", "--yes", "--skip-preview"]);
    const providerBytes = Buffer.byteLength(String(project.resources().find((r) => r.type.includes("pagerduty:Service"))!.outputs.__provider));
    const refreshMs = timed(project, ["preview", "--refresh", "--expect-no-changes"]);
    const destroyMs = timed(project, ["destroy", "--yes", "--skip-preview"]);
    const after = await stats(emu);
    return {
      concurrency: concurrency ? String(concurrency) : "default (8)",
      upMs,
      refreshMs,
      destroyMs,
      providerBytes,
      requests: after.total - before.total,
      rateLimited: after.rateLimited - before.rateLimited,
      tokens: after.tokens - before.tokens,
    };
  } finally {
    project.remove();
  }
}

async function main() {
  const emu = await startEmulatorProcess();
  try {
    const fast = await run(emu);
    const serial = await run(emu, 1);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const rows = [fast, serial].map(
      (f) =>
        `| ${f.concurrency} | ${s(f.upMs)} | ${s(f.refreshMs)} | ${s(f.destroyMs)} | ${(f.requests / N).toFixed(2)} | ${f.tokens} | ${f.rateLimited} | ${f.providerBytes} |`,
    );
    const report = [
      `${N} services, ${LATENCY} ms added latency per request, real Pulumi CLI, ${new Date().toISOString().slice(0, 10)}:`,
      "",
      "| per-account concurrency | up | preview --refresh | destroy | requests / service (all three) | tokens fetched (per process) | 429s | `__provider` bytes |",
      "|-|-|-|-|-|-|-|-|",
      ...rows,
      "",
      `Ratio serial / default for up: ${(serial.upMs / fast.upMs).toFixed(2)}x, for preview --refresh: ${(serial.refreshMs / fast.refreshMs).toFixed(2)}x.`,
    ].join("\n");
    console.log(report);
    fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    fs.writeFileSync(path.join(ROOT, "bench/results/provider.md"), `${report}\n`);
  } finally {
    await emu.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

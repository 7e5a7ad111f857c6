#!/usr/bin/env node
// Emulator benchmark: autocannon on loopback against the built CLI (emulator/dist/cli.js) in a
// child process, so load generator and server each get a core. Measures show (GET
// /services/{id}) and create (POST /services), prints the figures and writes them into
// emulator/README.md between the bench markers. Run `npm run build` first. ~20 s.

const { spawn } = require("node:child_process");
const { existsSync, readFileSync, writeFileSync } = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const autocannon = require("autocannon");

const ROOT = path.join(__dirname, "..");
const CLI = path.join(ROOT, "emulator", "dist", "cli.js");
const README = path.join(ROOT, "emulator", "README.md");
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ACCEPT = "application/vnd.pagerduty+json;version=2";

function startEmulator() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  // The rate limit is lifted so the benchmark measures serving, not 429s.
  const child = spawn(process.execPath, [CLI, "--port", "0", "--rate-limit", "1000000000"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, ready: JSON.parse(out.slice(0, nl)) });
    });
    child.on("exit", (code) => reject(new Error(`emulator exited (${code})`)));
  });
}

function run(title, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, result) => (err ? reject(err) : resolve({ title, result })));
  });
}

function figures({ title, result }) {
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  const { child, ready } = await startEmulator();
  try {
    const { fetchAppToken } = require(path.join(ROOT, "emulator", "dist"));
    const headers = { authorization: `Bearer ${await fetchAppToken(ready)}`, accept: ACCEPT, "content-type": "application/json" };
    const created = await fetch(`${ready.apiUrl}/services`, {
      method: "POST",
      headers,
      body: JSON.stringify({ service: { type: "service", name: "bench-show", escalation_policy: { id: ready.escalationPolicyId } } }),
    });
    const id = (await created.json()).service.id;
    const show = figures(await run("show  GET /services/{id}", { url: `${ready.apiUrl}/services/${id}`, headers }));
    let n = 0;
    const create = figures(
      await run("create POST /services", {
        url: ready.apiUrl,
        requests: [
          {
            method: "POST",
            path: "/services",
            headers,
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ service: { type: "service", name: `bench-${process.pid}-${n++}`, escalation_policy: { id: ready.escalationPolicyId } } }),
            }),
          },
        ],
      }),
    );
    const rows = [show, create];
    for (const r of rows) {
      process.stdout.write(`${r.title}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)\n`);
    }
    const cpu = `${os.cpus().length} × ${os.cpus()[0]?.model?.trim() ?? "cpu"}`;
    const table = [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`node bench/emulator.js\`: autocannon, ${CONNECTIONS} connections, ${DURATION} s per`,
      `endpoint, loopback, emulator in its own process, Node ${process.version}, ${cpu} (shared with other work).`,
      "",
      "| Endpoint | Requests/s | p50 latency | p99 latency | Non-2xx |",
      "|-|-|-|-|-|",
      ...rows.map((r) => `| ${r.title.replace(/^\S+\s+/, "`").trimEnd()}\` | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.non2xx} |`),
    ].join("\n");
    const readme = readFileSync(README, "utf8");
    writeFileSync(README, readme.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`));
    if (show.non2xx || create.non2xx || show.errors || create.errors) process.exitCode = 1;
  } finally {
    child.kill("SIGTERM");
  }
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.message}\n`);
  process.exit(1);
});

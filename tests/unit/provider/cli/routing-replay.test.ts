// provider/cli/routing-replay.ts, the replay engine without deploys: a generated, recorded file of
// 200 events through two orchestrations that differ in one rule, each on a service "Platform" of
// its own account of one emulator in this process (set up over REST, stacks given by a stand-in
// pulumi). The diff names exactly the events the changed rule decides differently (computed from
// how the generator built them), recorded times move by whole weeks (the time-window rule sees the
// recorded weekday and hour), and the command's exit codes, report, JUnit and job summary.
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ADMIN_HEADER, defaultSeed, type RunningEmulator, startEmulator, type Trace as EmulatorTrace } from "../../../../emulator/src";
import { runCommand, type Terminal } from "../../../../provider/cli/main";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import { changed, type EventDiff } from "../../../../provider/cli/routing-diff";
import { EXIT, type ReplayOptions, replay, routingReplayCommand } from "../../../../provider/cli/routing-replay";

type Json = Record<string, any>;

jest.setTimeout(60_000);

const BETA_KEY = "beta-account-key-for-replay-tests";
const HEALTH = "event.summary matches part 'health check'";
const HEALTH_HEAD = "event.summary matches part 'healthcheck'";

let emu: RunningEmulator;
let dir: string;
let readyLine: string;
const keys: Record<"base" | "head", string> = { base: "", head: "" };

async function call(apiKey: string, method: string, p: string, body?: unknown): Promise<Json> {
  const admin = p.startsWith("/_emulator");
  const res = await fetch(emu.url + p, {
    method,
    headers: {
      ...(admin ? { [ADMIN_HEADER]: emu.adminToken } : { authorization: `Token token=${apiKey}`, accept: "application/vnd.pagerduty+json;version=2" }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** A service "Platform" in the account of `apiKey`, urgency by severity, its orchestration active with `health` as the first rule's condition. */
async function platform(apiKey: string, account: string, health: string): Promise<string> {
  const policy = (await call(apiKey, "POST", "/_emulator/escalation-policies", { account, name: "On call" })).id;
  const service = await call(apiKey, "POST", "/services", {
    service: {
      name: "Platform",
      escalation_policy: { id: policy, type: "escalation_policy_reference" },
      incident_urgency_rule: { type: "constant", urgency: "severity_based" },
    },
  });
  const id = service.service.id;
  await call(apiKey, "PUT", `/event_orchestrations/services/${id}`, {
    orchestration_path: {
      sets: [
        {
          id: "start",
          rules: [
            { label: "Noisy health checks", conditions: [{ expression: health }], actions: { suppress: true } },
            {
              label: "Production",
              conditions: [{ expression: "event.custom_details.env matches 'prod'" }],
              actions: { severity: "critical", route_to: "hours" },
            },
            { label: "Everything else", conditions: [], actions: { route_to: "hours" } },
          ],
        },
        {
          id: "hours",
          rules: [
            { label: "In hours", conditions: [{ expression: "now in Mon,Tue,Wed,Thu,Fri 08:00:00 to 18:00:00 UTC" }], actions: { annotate: "in hours" } },
          ],
        },
      ],
      catch_all: { actions: {} },
    },
  });
  await call(apiKey, "PUT", `/event_orchestrations/services/${id}/active`, { active: true });
  return (await call(apiKey, "POST", `/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "Monitoring" } }))
    .integration.integration_key;
}

beforeAll(async () => {
  const seed = defaultSeed();
  seed.accounts!.push({ subdomain: "beta", region: "us", name: "Beta", aiopsEntitled: true });
  seed.apiKeys!.push({ account: "beta", kind: "account", name: "Beta account key", token: BETA_KEY });
  emu = await startEmulator({ port: 0, seed });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-replay-"));
  readyLine = path.join(dir, "emulator.json");
  fs.writeFileSync(readyLine, `${JSON.stringify({ url: emu.url, adminToken: emu.adminToken })}\n`);
  keys.base = await platform(emu.seed.apiKey, "acme", HEALTH);
  keys.head = await platform(BETA_KEY, "beta", HEALTH_HEAD);
});

afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// ---- the generated file: 200 events recorded a quarter-hour apart over three days of March ----

const RECORDED_START = Date.parse("2026-03-02T06:00:00Z"); // a Monday
const GAP = 23 * 60_000;
const SEVERITIES = ["critical", "error", "warning", "info"] as const;

interface Generated {
  at: number;
  summary: string;
  severity: (typeof SEVERITIES)[number];
  env: string;
}

const generated: Generated[] = Array.from({ length: 200 }, (_, i) => ({
  at: RECORDED_START + i * GAP,
  summary: i % 5 === 0 ? `health check failed on web-${i % 7}` : i % 10 === 3 ? `healthcheck timeout on web-${i % 7}` : `5xx rate high on web-${i % 7}`,
  severity: SEVERITIES[i % 4],
  env: i % 3 === 0 ? "prod" : "stage",
}));

/** The changed rule's condition on each side, read as PCL's `matches part` does (a substring). */
const suppressedBy = { base: (g: Generated) => g.summary.includes("health check"), head: (g: Generated) => g.summary.includes("healthcheck") };
const outcome = (side: "base" | "head", g: Generated) => (suppressedBy[side](g) ? "suppressed" : "incident");
/** A suppressed alert keeps the event's severity; an incident's production event is raised to critical by the second rule. */
const severity = (side: "base" | "head", g: Generated) => (outcome(side, g) === "incident" && g.env === "prod" ? "critical" : g.severity);
const CHANGED = generated.flatMap((g, i) => (outcome("base", g) !== outcome("head", g) ? [i] : []));

/** The file; `expectHead(i)` says which events' expectations the pull request edited to the head's outcome. */
function caseFile(expectHead: (i: number) => boolean): string {
  return JSON.stringify({
    recorded: {
      from: "https://api.pagerduty.com",
      at: "2026-03-06T00:00:00Z",
      since: "2026-03-02T00:00:00Z",
      until: "2026-03-06T00:00:00Z",
      services: [{ id: "PBASE01", name: "Platform" }],
    },
    integration: "monitoring",
    cases: generated.map((g, i) => ({
      name: `event ${i}: ${g.summary} (${g.severity}, ${g.env})`,
      at: new Date(g.at).toISOString(),
      event: { summary: g.summary, source: `web-${i % 7}`, severity: g.severity, dedup_key: `evt-${i}`, custom_details: { env: g.env } },
      expect: { outcome: outcome(expectHead(i) ? "head" : "base", g), severity: severity(expectHead(i) ? "head" : "base", g) },
    })),
  });
}

function writeCases(expectHead: (i: number) => boolean): string {
  const file = path.join(dir, `cases-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, caseFile(expectHead));
  return file;
}

/** Stand-in pulumi: each side's stack has the output "monitoring" holding its routing key. */
const pulumiOf =
  (_cwd: string, stack: string): Pulumi =>
  (args) => {
    if (args.join(" ") === "stack output --json --show-secrets") return JSON.stringify({ monitoring: keys[stack as "base" | "head"] });
    throw new Error(`unexpected pulumi ${args.join(" ")}`);
  };

const terminal = () => {
  const out: string[] = [];
  const said: string[] = [];
  return { out, said, terminal: { out: (t) => void out.push(t), say: (l) => void said.push(l) } as Terminal };
};

/** The command line of a replay of `cases` on the two deployed stacks, with `more` after it. */
const argv = (cases: string, ...more: string[]) => [
  "--cases",
  cases,
  "--base",
  dir,
  "--head",
  dir,
  "--base-stack",
  "base",
  "--head-stack",
  "head",
  "--emulator",
  readyLine,
  ...more,
];

const options = (cases: string): ReplayOptions => ({ cases, base: dir, head: dir, baseStack: "base", headStack: "head", emulator: readyLine, config: [] });

/** Recorded weekday and UTC hour inside the "In hours" window. */
const inHours = (ms: number) => {
  const d = new Date(ms);
  return d.getUTCDay() >= 1 && d.getUTCDay() <= 5 && d.getUTCHours() >= 8 && d.getUTCHours() < 18;
};

test("200 recorded events through two orchestrations: the diff names exactly the events the changed rule decides differently", async () => {
  const t = terminal();
  const started = Date.now();
  const diffs: EventDiff[] = await replay(options(writeCases(() => false)), t.terminal, { pulumiOf });
  const took = Date.now() - started;
  process.stdout.write(`replay of 200 events (both sides, diff included): ${took} ms\n`);

  expect(CHANGED.length).toBeGreaterThan(40);
  expect(diffs.filter(changed).map((d) => d.index)).toEqual(CHANGED);
  for (const i of CHANGED) {
    const d = diffs[i];
    expect(d.changes[0]).toEqual({ field: "outcome", before: outcome("base", generated[i]), after: outcome("head", generated[i]) });
    expect(d.expected).toBe(false);
  }
  // Unchanged events came out the same on both sides, as the rules say.
  for (const d of diffs.filter((x) => !changed(x))) {
    const g = generated[d.index];
    expect(d.base.trace.outcome.kind).toBe(outcome("base", g) === "suppressed" ? "suppressed" : "incident_opened");
    if (outcome("base", g) === "incident") expect(d.head.trace.result.severity).toBe(g.env === "prod" ? "critical" : g.severity);
  }
  // Times moved by whole weeks: each event at the recorded weekday and hour (the window rule saw them), the gaps kept.
  const headAt = diffs.map((d) => Date.parse((d.head.trace as unknown as EmulatorTrace).received_at));
  for (const [i, d] of diffs.entries()) {
    if (d.head.trace.outcome.kind === "suppressed") continue;
    expect(d.head.trace.result.annotations).toEqual(inHours(generated[i].at) ? ["in hours"] : []);
  }
  // (The emulator's clock runs on after it is moved: a received_at is the instant set plus the milliseconds the call took.)
  for (const [i, ms] of headAt.slice(1).entries()) expect(Math.abs(ms - headAt[i] - GAP)).toBeLessThan(1000);
  expect((headAt[0] - RECORDED_START) % (7 * 24 * 3600_000)).toBeLessThan(1000);
  expect(t.said.join("\n")).toMatch(/^pagerduty-routing-test replay: base \(.*\): 200 events in \d+\.\d s$/m);
});

test("the command: each unexpected change with both traces, a count per kind, exit 1; JUnit and the job summary written", async () => {
  const expectHead = (i: number) => CHANGED.includes(i) && i % 2 === 0;
  const junit = path.join(dir, "replay.xml");
  const summary = path.join(dir, "summary.md");
  const t = terminal();
  const cases = writeCases(expectHead);
  const code = await runCommand(routingReplayCommand({ pulumiOf, env: {} }), argv(cases, "--junit", junit, "--summary", summary), t.terminal);
  const out = t.out.join("");
  expect(code).toBe(EXIT.unexpected);
  const named = [...out.matchAll(/^CHANGED( \(expected\))? (\d+)\. /gm)].map((m) => [Number(m[2]) - 1, m[1] !== undefined]);
  expect(named).toEqual(CHANGED.map((i) => [i, expectHead(i)]));
  const toIncident = CHANGED.filter((i) => outcome("base", generated[i]) === "suppressed").length;
  expect(out).toContain(`\n  suppressed → incident: ${toIncident}\n`);
  expect(out).toContain(`\n  incident → suppressed: ${CHANGED.length - toIncident}\n`);
  // A production event's severity changes with it: critical as an incident, its own when suppressed.
  const raised = CHANGED.filter((i) => generated[i].env === "prod" && generated[i].severity !== "critical" && outcome("head", generated[i]) === "incident");
  expect(out).toContain(`\n  severity warning → critical: ${raised.filter((i) => generated[i].severity === "warning").length}\n`);
  const bad = CHANGED.filter((i) => !expectHead(i)).length;
  expect(out).toMatch(new RegExp(`^${CHANGED.length} of 200 events changed \\(${CHANGED.length - bad} expected by the case file, ${bad} not\\)$`, "m"));
  // Both traces of a changed event: the rule that decided on each side.
  const first = out.slice(out.indexOf(`CHANGED ${CHANGED.find((i) => !expectHead(i))! + 1}. `));
  expect(first).toMatch(/^ {2}base:\n {4}trace \w+: service "Platform"/m);
  expect(first).toMatch(/^ {2}head:\n {4}trace \w+: service "Platform"/m);
  // No routing key anywhere.
  for (const text of [out, t.said.join("\n"), fs.readFileSync(junit, "utf8"), fs.readFileSync(summary, "utf8")])
    for (const key of Object.values(keys)) expect(text).not.toContain(key);

  const xml = fs.readFileSync(junit, "utf8");
  expect(xml).toMatch(new RegExp(`<testsuite name="[^"]+" tests="200" failures="${bad}"`));
  expect(xml).toContain('<failure message="unexpected change: outcome ');
  const md = fs.readFileSync(summary, "utf8");
  expect(md.split("\n")[0]).toMatch(new RegExp(`^### Routing replay of .+: ${CHANGED.length} of 200 events changed`));
  expect(md).toContain(`| suppressed → incident | ${toIncident} |`);
  expect(md.match(/<details open>/g)).toHaveLength(bad);
});

test("with every change expected by the file, exit 0", async () => {
  const t = terminal();
  const code = await runCommand(routingReplayCommand({ pulumiOf, env: {} }), argv(writeCases((i) => CHANGED.includes(i))), t.terminal);
  expect(t.out.join("")).toMatch(new RegExp(`^${CHANGED.length} of 200 events changed \\(${CHANGED.length} expected by the case file, 0 not\\)$`, "m"));
  expect(code).toBe(EXIT.ok);
});

test("Ctrl-C during the base's run: the base's stack is given back, the head's never asked for; exit 3", async () => {
  const signals = new EventEmitter();
  const asked: string[] = [];
  const interrupting = (cwd: string, stack: string): Pulumi => {
    asked.push(stack);
    // The signal arrives while the base's side is under way (its keys are being read).
    if (stack === "base") signals.emit("SIGINT");
    return pulumiOf(cwd, stack);
  };
  const t = terminal();
  const code = await runCommand(routingReplayCommand({ pulumiOf: interrupting, env: {}, signals }), argv(writeCases(() => false)), t.terminal);
  expect(code).toBe(EXIT.notRun);
  expect(asked).toEqual(["base"]);
  expect(t.said.join("\n")).toMatch(/interrupted: the throwaway stacks made so far were removed/);
  expect(signals.listenerCount("SIGINT") + signals.listenerCount("SIGTERM")).toBe(0);
});

test("a replay that cannot run: exit 3, and the JUnit file and summary say why", async () => {
  const junit = path.join(dir, "not-run.xml");
  const summary = path.join(dir, "not-run.md");
  const t = terminal();
  const broken = path.join(dir, "broken.yaml");
  fs.writeFileSync(broken, "cases:\n  - name: x\n    event: { summary: s }\n    expect: {}\n");
  const code = await runCommand(routingReplayCommand({ pulumiOf, env: {} }), argv(broken, "--junit", junit, "--summary", summary), t.terminal);
  expect(code).toBe(EXIT.notRun);
  expect(t.said.join("\n")).toMatch(/broken\.yaml has \d+ mistakes; nothing was sent/);
  expect(fs.readFileSync(junit, "utf8")).toMatch(/tests="1" failures="1"[\s\S]*<failure message="not run: .*broken\.yaml has/);
  expect(fs.readFileSync(summary, "utf8")).toMatch(/^### Routing replay of .*broken\.yaml: not run\n/);
});

test.each([
  [["--cases", "c", "--base", "b"], /--head DIR is required/],
  [["--cases", "c", "--base", "b", "--head", "h"], /--emulator FILE is required to deploy/],
  [["--cases", "c", "--base", "b", "--head", "h", "--base-stack", "s"], /--base-stack and --head-stack go together/],
  [["--cases", "c", "--base", "b", "--head", "h", "--emulator", "e", "--config", "novalue"], /--config "novalue": give KEY=VALUE/],
])("a wrong command line: exit 2, saying what is wrong (%j)", async (argv, message) => {
  const t = terminal();
  expect(await runCommand(routingReplayCommand({ pulumiOf }), argv, t.terminal)).toBe(EXIT.usage);
  expect(t.said.join("\n")).toMatch(message);
});

// provider/cli/routing-test.ts: pagerduty-routing-test against an emulator in this process (over
// HTTP on loopback), with the stack's outputs given by a stand-in pulumi: the cases run in order,
// the table and the traces of failing cases, JUnit, the exit codes, isolation between runs, the
// clock, and routing keys never printed.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ADMIN_HEADER, type RunningEmulator, startEmulator, type Trace as EmulatorTrace } from "../../../../emulator/src";
import { runCommand, type Terminal } from "../../../../provider/cli/main";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import type { Trace } from "../../../../provider/cli/routing-emulator";
import { EXIT, routingTestCommand } from "../../../../provider/cli/routing-test";
import { useMockAgent } from "../../support/http-mock";

// The command reads the parts of the emulator's traces it declares: the emulator's type must fit them.
const _fits = (t: EmulatorTrace): Trace => t;
void _fits;

type Json = Record<string, any>;

let emu: RunningEmulator;
let dir: string;
let key: string;
let serviceId: string;
let readyLine: string;

async function call(method: string, p: string, body?: unknown, admin = false): Promise<Json> {
  const res = await fetch(emu.url + p, {
    method,
    headers: {
      ...(admin ? { [ADMIN_HEADER]: emu.adminToken } : { authorization: `Token token=${emu.seed.apiKey}`, accept: "application/vnd.pagerduty+json;version=2" }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** The orchestration of docs/testing-routing.md, in the API's terms. */
async function deploy(healthCheck = "event.summary matches part 'health check'") {
  await call("PUT", `/event_orchestrations/services/${serviceId}`, {
    orchestration_path: {
      sets: [
        {
          id: "start",
          rules: [
            { label: "Noisy health checks", conditions: [{ expression: healthCheck }], actions: { suppress: true } },
            { label: "Database alerts", conditions: [{ expression: "event.source matches regex '^db-\\d+'" }], actions: { route_to: "database" } },
            {
              label: "Repeats from batch-01",
              conditions: [{ expression: "cache_var.batch_events >= 3" }],
              actions: { annotate: "{{cache_var.batch_events}} events from batch-01 in 10 minutes", route_to: "hours" },
            },
            { label: "Everything else", conditions: [], actions: { route_to: "hours" } },
          ],
        },
        {
          id: "database",
          rules: [
            {
              label: "Critical database alerts",
              conditions: [{ expression: "event.severity matches 'critical'" }],
              actions: { escalation_policy: dbPolicy, priority: p1, annotate: "Database runbook: https://runbooks.example.com/db" },
            },
          ],
        },
        {
          id: "hours",
          rules: [
            {
              label: "Out of hours",
              conditions: [{ expression: "not (now in Mon,Tue,Wed,Thu,Fri 08:00:00 to 18:00:00 Europe/London)" }],
              actions: { severity: "warning" },
            },
          ],
        },
      ],
      catch_all: { actions: {} },
    },
  });
}

let dbPolicy: string;
let p1: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-test-"));
  readyLine = path.join(dir, "emulator.json");
  fs.writeFileSync(readyLine, `${JSON.stringify({ url: emu.url, adminToken: emu.adminToken })}\n`);
  dbPolicy = (await call("POST", "/_emulator/escalation-policies", { account: "acme", name: "Database team" }, true)).id;
  p1 = (await call("GET", "/priorities")).priorities.find((p: Json) => p.name === "P1").id;
  const service = await call("POST", "/services", {
    service: {
      name: "Platform",
      escalation_policy: { id: emu.seed.escalationPolicyId, type: "escalation_policy_reference" },
      incident_urgency_rule: { type: "constant", urgency: "severity_based" },
    },
  });
  serviceId = service.service.id;
  key = (await call("POST", `/services/${serviceId}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "Monitoring" } }))
    .integration.integration_key;
  await call("POST", `/event_orchestrations/services/${serviceId}/cache_variables`, {
    cache_variable: {
      name: "batch_events",
      conditions: [{ expression: "event.source matches 'batch-01'" }],
      configuration: { type: "trigger_event_count", ttl_seconds: 600 },
    },
  });
  await deploy();
  await call("PUT", `/event_orchestrations/services/${serviceId}/active`, { active: true });
});

afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CASES = `
integration: events
cases:
  - name: a critical database alert pages the DB team at high urgency
    at: Tue 10:00 Europe/London
    event: { summary: "Replication lag 300 s on db-01", source: db-01, severity: critical, dedup_key: db-lag }
    expect:
      outcome: incident
      service: Platform
      severity: critical
      urgency: high
      priority: P1
      escalation_policy: Database team
      annotations: ["Database runbook: https://runbooks.example.com/db"]
  - name: noisy health checks are suppressed
    event: { summary: "health check failed on web-3", source: web-3, severity: error }
    expect: { outcome: suppressed }
  - name: out of hours, an error gets low urgency
    at: Sat 03:00 Europe/London
    event: { summary: "5xx rate 4% on web-3", source: web-3, severity: error, custom_details: { rate: 0.04 } }
    expect: { outcome: incident, severity: warning, urgency: low, escalation_policy: null, annotations: [] }
  - name: batch-01 once
    at: Mon 09:00 Europe/London
    event: { summary: "job late", source: batch-01, severity: error }
    expect: { outcome: incident, annotations: [] }
  - name: batch-01 twice
    event: { summary: "job late", source: batch-01, severity: error }
    expect: { outcome: incident, annotations: [] }
  - name: batch-01 a third time is annotated
    event: { summary: "job late", source: batch-01, severity: error }
    expect: { outcome: incident, annotations: ["3 events from batch-01 in 10 minutes"], urgency: high }
  - name: the same dedup key again is deduplicated
    event: { summary: "Replication lag 310 s on db-01", source: db-01, severity: critical, dedup_key: db-lag }
    expect: { outcome: deduplicated }
`;

/** A stand-in pulumi: `stack output` holds the routing key under "events"; `stack export` a state with one integration. */
function fakePulumi(calls: string[][] = []): Pulumi {
  return (args) => {
    calls.push(args);
    if (args.join(" ") === "stack output --json --show-secrets") return JSON.stringify({ events: key, serviceUrl: "https://example.com" });
    if (args.join(" ") === "stack export --show-secrets")
      return JSON.stringify({
        deployment: {
          resources: [
            {
              urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/pagerduty:ServiceIntegration::platform-events",
              type: "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration",
              outputs: { integrationKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(key) } },
            },
          ],
        },
      });
    throw new Error(`unexpected pulumi ${args.join(" ")}`);
  };
}

async function run(argv: string[], opts: { cases?: string; env?: NodeJS.ProcessEnv; pulumi?: Pulumi } = {}) {
  const file = path.join(dir, `cases-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, opts.cases ?? CASES);
  const out: string[] = [];
  const said: string[] = [];
  const terminal: Terminal = { out: (t) => void out.push(t), say: (l) => void said.push(l) };
  const command = routingTestCommand({ pulumi: opts.pulumi ?? fakePulumi(), env: opts.env ?? {} });
  const code = await runCommand(
    command,
    argv.map((a) => (a === "CASES" ? file : a)),
    terminal,
  );
  return { code, out: out.join(""), said: said.join("\n"), file };
}

const events = async () => (await call("GET", "/_emulator/events?limit=1000", undefined, true)).events as Json[];

test("every case passes: a table of them, exit 0, a JUnit file without failures; the routing key is never printed", async () => {
  const junit = path.join(dir, "pass.xml");
  const r = await run(["--cases", "CASES", "--emulator", readyLine, "--junit", junit]);
  expect(r.said).toMatch(/^pagerduty-routing-test: 7 cases against http:\/\/127\.0\.0\.1:\d+; events of 1 service reset$/);
  expect(r.code).toBe(EXIT.ok);
  const lines = r.out.trim().split("\n");
  expect(lines[0]).toMatch(/^#\s+case\s+expected\s+got\s+result$/);
  expect(lines.filter((l) => /\spass$/.test(l))).toHaveLength(7);
  expect(lines.filter((l) => /FAIL/.test(l))).toEqual([]);
  // A case's expected fields one per line, each with what came.
  expect(lines.slice(1, 8).map((l) => l.split(/\s{2,}/))).toEqual([
    ["1", "a critical database alert pages the DB team at high urgency", "outcome=incident", "incident_opened", "pass"],
    ["", "service=Platform", "Platform"],
    ["", "severity=critical", "critical"],
    ["", "urgency=high", "high"],
    ["", "priority=P1", "P1"],
    ["", "escalation_policy=Database team", "Database team"],
    // Cut to 50 characters in the table.
    ["", 'annotations=["Database runbook: https://runb…(+21)', '["Database runbook: https://runbooks.example.…(+8)'],
  ]);
  expect(r.out).toMatch(/^7 of 7 cases passed$/m);
  const xml = fs.readFileSync(junit, "utf8");
  expect(xml).toMatch(/<testsuite name="[^"]+" tests="7" failures="0"/);
  expect(xml.match(/<testcase /g)).toHaveLength(7);
  expect(r.out + r.said + xml).not.toContain(key);
}, 30_000);

test("a second run sees none of the first: the services' events are reset (dedup keys open again, counts start again)", async () => {
  const first = await run(["--cases", "CASES", "--emulator", readyLine]);
  const second = await run(["--cases", "CASES", "--emulator", readyLine]);
  expect([first.code, second.code]).toEqual([0, 0]);
  // Without the reset the first case would join the open alert and batch-01 would be at 4.
  const [latest] = await events();
  expect(latest.outcome.kind).toBe("deduplicated");
  expect((await call("GET", `/incidents?service_ids[]=${serviceId}&limit=100`)).incidents).toHaveLength(5);
});

test("a changed rule: exit 1, the failing cases marked in the table, each with the fields that differ and its trace naming the rules and the expression", async () => {
  await deploy("event.summary matches part 'healthcheck'");
  try {
    const junit = path.join(dir, "fail.xml");
    const r = await run(["--cases", "CASES", "--emulator", readyLine, "--junit", junit]);
    expect(r.code).toBe(EXIT.mismatch);
    expect(r.out).toMatch(/^2\s+noisy health checks are suppressed\s+outcome=suppressed\s+! incident_opened\s+FAIL$/m);
    expect(r.out).toMatch(/^6 of 7 cases passed$/m);
    const failure = r.out.slice(r.out.indexOf("FAIL 2."));
    expect(failure).toMatch(/^FAIL 2\. noisy health checks are suppressed\n {2}outcome: expected suppressed, got incident_opened\n/);
    expect(failure).toContain(
      `\n      rule 1 "Noisy health checks": not matched\n        condition 1: false  event.summary matches part 'healthcheck'  (event.summary = "health check failed on web-3")\n`,
    );
    expect(failure).toContain('\n      rule 4 "Everything else": matched\n        (no conditions: matches every event)\n      route to hours\n');
    expect(failure).toMatch(
      /set hours:\n {6}rule 1 "Out of hours": not matched\n {8}condition 1: false {2}not \(now in Mon,Tue,Wed,Thu,Fri 08:00:00 to 18:00:00 Europe\/London\) {2}\(now = \w{3} \d\d:\d\d:\d\d Europe\/London\)\n {6}no rule matched: catch-all/,
    );
    expect(failure).toMatch(/outcome: incident_opened: opened incident #\d+/);
    const xml = fs.readFileSync(junit, "utf8");
    expect(xml).toMatch(/tests="7" failures="1"/);
    expect(xml).toContain('<testcase name="noisy health checks are suppressed" classname="');
    expect(xml).toContain('<failure message="outcome: expected suppressed, got incident_opened" type="mismatch">FAIL 2. noisy health checks are suppressed\n');
    expect(xml).toContain("rule 1 &quot;Noisy health checks&quot;: not matched");
    expect(xml).toContain("event.summary matches part &apos;healthcheck&apos;");
    expect(r.out + xml).not.toContain(key);
  } finally {
    await deploy();
  }
});

test("an integration by its resource name in the stack's state (the key a secret there), when no output has the name", async () => {
  const calls: string[][] = [];
  const cases = CASES.replace("integration: events", "integration: platform-events");
  const r = await run(["--cases", "CASES", "--url", emu.url], { cases, env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: emu.adminToken }, pulumi: fakePulumi(calls) });
  expect(r.code).toBe(EXIT.ok);
  expect(calls).toEqual([
    ["stack", "output", "--json", "--show-secrets"],
    ["stack", "export", "--show-secrets"],
  ]);
});

describe("the cases cannot run: exit 3, saying why, nothing sent", () => {
  test.each([
    [
      "an invalid case file names each field",
      CASES.replace("urgency: high\n      priority", "urgency: urgent\n      priority").replace("source: web-3, severity: error }", "severity: error }"),
      /cases\[0\]\.expect\.urgency \(case 1, "a critical database alert pages the DB team at high urgency"\): Invalid enum value\. Expected 'high' \| 'low', received 'urgent'\n {2}cases\[1\]\.event\.source \(case 2, "noisy health checks are suppressed"\): is required for a trigger event/,
    ],
    ["YAML that does not parse", "cases: [", /is not valid YAML or JSON: .* \(line 2, column 1\)/],
    [
      "an integration the stack does not have",
      CASES.replace("integration: events", "integration: pager"),
      /the stack has no output and no ServiceIntegration named "pager" \(it has: output events, output serviceUrl, integration platform-events\)/,
    ],
    [
      "a time before the emulator's clock",
      CASES.replace("at: Tue 10:00 Europe/London", "at: 2001-01-01T00:00:00Z"),
      /cases\[0\]\.at: 2001-01-01T00:00:00\.000Z is before the emulator's clock/,
    ],
    [
      "a time before the one the cases above moved the clock to",
      CASES.replace("at: Mon 09:00 Europe/London", "at: 2001-01-01T00:00:00Z"),
      /cases\[3\]\.at: 2001-01-01T00:00:00\.000Z is before the emulator's clock \(.*Z after the cases above\), which only moves forward/,
    ],
  ])("%s", async (_, cases, message) => {
    const before = (await events()).length;
    const r = await run(["--cases", "CASES", "--emulator", readyLine], { cases });
    expect(r.code).toBe(EXIT.notRun);
    expect(r.out).toBe("");
    expect(r.said).toMatch(message);
    expect(r.said).toMatch(/^pagerduty-routing-test: /);
    expect((await events()).length).toBe(before);
  });

  test("a service whose orchestration is not active: one line naming it and one of what to do, before any case or reset", async () => {
    await call("PUT", `/event_orchestrations/services/${serviceId}/active`, { active: false });
    try {
      const before = await events();
      const r = await run(["--cases", "CASES", "--emulator", readyLine]);
      expect(r.code).toBe(EXIT.notRun);
      expect(r.out).toBe("");
      expect(r.said).toBe(
        `pagerduty-routing-test: the orchestration of service "Platform" (${serviceId}) is not active: events bypass it\n` +
          "set active: true on its ServiceOrchestration",
      );
      expect(await events()).toEqual(before);
    } finally {
      await call("PUT", `/event_orchestrations/services/${serviceId}/active`, { active: true });
    }
  });

  test("the emulator's admin token missing, or refused", async () => {
    const none = await run(["--cases", "CASES", "--url", emu.url]);
    expect(none.code).toBe(EXIT.notRun);
    expect(none.said).toMatch(/PAGERDUTY_EMULATOR_ADMIN_TOKEN is empty/);
    const wrong = await run(["--cases", "CASES", "--url", emu.url], { env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: "not-the-admin-token" } });
    expect(wrong.code).toBe(EXIT.notRun);
    expect(wrong.said).toMatch(/GET \/_emulator\/clock answered 401: Emulator admin token missing or wrong/);
    expect(wrong.said).not.toContain("not-the-admin-token");
    const far = await run(["--cases", "CASES", "--url", "http://example.com:8080"], { env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: "t0ken" } });
    expect(far.said).toMatch(/"--url" must use https \(plain http is allowed for loopback hosts only\)/);
  });

  test("an emulator that does not answer", async () => {
    const r = await run(["--cases", "CASES", "--url", "http://127.0.0.1:9"], { env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: "t0ken" } });
    expect(r.code).toBe(EXIT.notRun);
    expect(r.said).toMatch(/the emulator at http:\/\/127\.0\.0\.1:9 cannot be reached/);
  });
});

test("--help, --version and a wrong command line, as every bin answers them", async () => {
  const help = await run(["--help"]);
  expect(help.code).toBe(0);
  expect(help.out).toMatch(/^usage: pagerduty-routing-test --cases FILE \(--emulator FILE \| --url URL\)/);
  expect(help.out).toMatch(/read from PAGERDUTY_EMULATOR_ADMIN_TOKEN, never from\s+the command line/);
  expect(help.out.split("\n").filter((l) => l.length > 100)).toEqual([]);
  expect((await run(["--version"])).out).toMatch(/^\d+\.\d+\.\d+/);
  const none = await run([]);
  expect(none.code).toBe(EXIT.usage);
  expect(none.said).toMatch(/^pagerduty-routing-test: --cases FILE is required\nusage: pagerduty-routing-test/);
  expect((await run(["--cases", "CASES", "--emulator", readyLine, "--url", emu.url])).said).toMatch(/--emulator and --url both name the emulator: give one/);
});

test("an emulator over HTTPS (--tls): the ready line's CA is trusted for this connection only", async () => {
  const tls = await startEmulator({ port: 0, tls: true });
  try {
    const rest = async (url: string, body: unknown) => {
      const res = await tls.app.inject({
        method: "POST",
        url,
        headers: { authorization: `Token token=${tls.seed.apiKey}`, accept: "application/vnd.pagerduty+json;version=2", "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
      return res.json();
    };
    const svc = await rest("/services", {
      service: { name: "Over TLS", escalation_policy: { id: tls.seed.escalationPolicyId, type: "escalation_policy_reference" } },
    });
    const tlsKey = (await rest(`/services/${svc.service.id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).integration
      .integration_key;
    const line = path.join(dir, "tls.json");
    fs.writeFileSync(line, JSON.stringify({ url: tls.url, adminToken: tls.adminToken, caFile: tls.caFile }));
    const cases =
      "integration: events\ncases:\n  - { name: plain, event: { summary: s, source: h, severity: info }, expect: { outcome: incident, urgency: high } }\n";
    const pulumi: Pulumi = () => JSON.stringify({ events: tlsKey });
    const r = await run(["--cases", "CASES", "--emulator", line], { cases, pulumi });
    expect(tls.url).toMatch(/^https:/);
    expect(r.out).toMatch(/^1 of 1 case passed$/m);
    expect(r.code).toBe(EXIT.ok);
  } finally {
    await tls.close();
  }
});

describe("before the cases: the services they reach, by dry runs (MockAgent as the emulator)", () => {
  const agent = useMockAgent();
  const URL = "http://127.0.0.1:7777";
  const probe = (id: string, name: string, orchestration: { version: number } | null, kind = "incident_opened") => ({
    id: `dry-${id}`,
    service: { id, name },
    orchestration,
    cache_variables: [],
    sets: [],
    actions: [],
    result: {},
    outcome: { kind, message: "", incident: null, alert: null },
    problems: [],
  });
  /** Two integrations: the dry run of each answers with its service. */
  async function runAgainst(platform: unknown, batch: unknown) {
    const pool = agent().get(URL);
    pool.intercept({ method: "GET", path: "/_emulator/clock" }).reply(200, { now: "2026-01-05T10:00:00.000Z" });
    const sent: string[] = [];
    for (const [k, trace] of [
      ["k-platform", platform],
      ["k-batch", batch],
    ] as const)
      pool.intercept({ method: "POST", path: "/_emulator/events/dry-run", body: (b) => JSON.parse(b).routing_key === k }).reply(200, () => {
        sent.push(k);
        return trace;
      });
    const cases =
      "cases:\n  - { name: one, integration: platform, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }\n  - { name: two, integration: batch, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }\n";
    const file = path.join(dir, `probe-${Math.random().toString(36).slice(2)}.yaml`);
    fs.writeFileSync(file, cases);
    const said: string[] = [];
    const out: string[] = [];
    const command = routingTestCommand({
      pulumi: () => JSON.stringify({ platform: "k-platform", batch: "k-batch" }),
      env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: "t0ken" },
      dispatcher: agent(),
    });
    const code = await runCommand(command, ["--cases", file, "--url", URL], { out: (t) => void out.push(t), say: (l) => void said.push(l) });
    return { code, said: said.join("\n"), out: out.join(""), sent };
  }

  test("each not active is named (a disabled service, whose events are ignored, is not); nothing is reset or sent", async () => {
    const r = await runAgainst(probe("PPLAT01", 'Platform "core"', null), probe("PBATCH1", "Batch", null, "ignored"));
    expect(r.code).toBe(EXIT.notRun);
    expect(r.out).toBe("");
    expect(r.said).toBe(
      'pagerduty-routing-test: the orchestration of service "Platform \\"core\\"" (PPLAT01) is not active: events bypass it\n' +
        "set active: true on its ServiceOrchestration",
    );
    expect(r.sent).toEqual(["k-platform", "k-batch"]);
  });

  test("two services not active: a line each, then what to do with both", async () => {
    const r = await runAgainst(probe("PPLAT01", "Platform", null), probe("PBATCH1", "Batch", null));
    expect(r.said.split("\n")).toEqual([
      'pagerduty-routing-test: the orchestration of service "Platform" (PPLAT01) is not active: events bypass it',
      'the orchestration of service "Batch" (PBATCH1) is not active: events bypass it',
      "set active: true on their ServiceOrchestrations",
    ]);
  });
});

// `pagerduty-routing-test parity` with a second emulator process standing in for the real account:
// the program's emulator (a service with an active orchestration, reached through a stand-in
// pulumi's stack output and config) and the "real" one, reached only through its public REST API
// and Events API with its own OAuth app, as PagerDuty would be. The emulator agrees with itself; a
// difference planted by running the two at different times of the week (a business-hours rule) is
// named, case and field; the throwaway service is gone afterwards, also when the run fails.
import { EventEmitter } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pulumi } from "../../provider/cli/pulumi-runner";
import { EXIT, parityCommand } from "../../provider/cli/routing-parity";
import { admin, bearer, type Client, createService, type Emu, startWithClient } from "../emulator/helpers";
import { accountEnv, run } from "../support/recorded-traffic";

let local: Emu;
let localApi: Client;
let real: Emu;
let routingKey: string;

const CASES = `
integration: alerts
cases:
  - name: critical database alert pages at P1
    event: { dedup_key: db-1, summary: database db-1 down, source: db-1, severity: critical }
    expect: { outcome: incident }
  - name: the same alert again joins it
    event: { dedup_key: db-1, summary: database db-1 down, source: db-1, severity: critical }
    expect: { outcome: incident }
  - name: web alert in business hours
    event: { summary: web-1 slow, source: web-1, severity: error, custom_details: { team: web } }
    expect: { outcome: incident }
  - name: a warning becomes info
    event: { summary: disk at 80%, source: web-2, severity: warning }
    expect: { severity: info }
  - name: noise is suppressed
    event: { summary: health check, source: lb-1, severity: info, custom_details: { kind: noise } }
    expect: { outcome: suppressed }
  - name: the database alert resolves
    event: { event_action: resolve, dedup_key: db-1 }
    expect: { outcome: resolved }
`;

let casesFile: string;

beforeAll(async () => {
  [{ e: local, api: localApi }, { e: real }] = await Promise.all([startWithClient(), startWithClient()]);
  const p1 = (await localApi.get("/priorities")).json.priorities.find((p: { name: string }) => p.name === "P1").id;
  const p2 = (await localApi.get("/priorities")).json.priorities.find((p: { name: string }) => p.name === "P2").id;
  const sid = await createService(local, localApi, { incident_urgency_rule: { type: "constant", urgency: "severity_based" } });
  routingKey = (await localApi.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration
    .integration_key;
  const rules = [
    { conditions: [{ expression: "event.custom_details.kind matches 'noise'" }], actions: { suppress: true } },
    {
      conditions: [{ expression: "event.custom_details.team matches 'web' and now in Mon,Tue,Wed,Thu,Fri 09:00:00 to 17:00:00 UTC" }],
      actions: { priority: p2, annotate: "web team, business hours" },
    },
    { conditions: [{ expression: "event.summary matches part 'database'" }], actions: { priority: p1, annotate: "DB runbook" } },
    { conditions: [{ expression: "event.severity matches 'warning'" }], actions: { severity: "info" } },
  ];
  expect(
    (await localApi.put(`/event_orchestrations/services/${sid}`, { orchestration_path: { sets: [{ id: "start", rules }], catch_all: { actions: {} } } }))
      .status,
  ).toBe(200);
  await localApi.put(`/event_orchestrations/services/${sid}/active`, { active: true });
  casesFile = join(mkdtempSync(join(tmpdir(), "ppd-parity-")), "cases.yaml");
  writeFileSync(casesFile, CASES);
}, 30_000);
afterAll(() => Promise.all([local?.close(), real?.close()]));

/** A stand-in pulumi: the stack's output holds the routing key, its config the program's emulator account. */
const pulumi: Pulumi = (args) => {
  const command = args.slice(0, 2).join(" ");
  if (command === "stack output") return JSON.stringify({ alerts: routingKey });
  if (command === "config --json")
    return JSON.stringify({
      "pagerduty:apiUrl": { value: local.apiUrl },
      "pagerduty:authUrl": { value: local.authUrl },
      "pagerduty:clientId": { value: local.seed.oauth.clientId },
      "pagerduty:clientSecret": { value: local.seed.oauth.clientSecret, secret: true },
      "pagerduty:subdomain": { value: local.seed.account.subdomain },
    });
  throw new Error(`unexpected pulumi ${args.join(" ")}`);
};

const parity = (extra: string[] = []) =>
  run(parityCommand({ pulumi, env: { ...accountEnv(real), PAGERDUTY_EVENTS_URL: real.url, PAGERDUTY_EMULATOR_ADMIN_TOKEN: local.adminToken } }), [
    "--cases",
    casesFile,
    "--url",
    local.url,
    "--escalation-policy",
    real.seed.escalationPolicyId,
    "--wait",
    "1",
    ...extra,
  ]);

/** The "real" account's throwaway services left behind (a fresh token: a moved clock expires the first). */
const leftovers = async () =>
  (await (await bearer(real)).get("/services?query=pagerduty-routing-test")).json.services.filter((s: { name: string }) =>
    s.name.startsWith("pagerduty-routing-test parity"),
  );

/** The next `day` (0 Sunday) at `hour` UTC after the later of both emulators' clocks (the clocks only move forward). */
async function nextAt(day: number, hour: number): Promise<number> {
  const now = Math.max(...(await Promise.all([local, real].map(async (e) => Date.parse((await admin(e, "GET", "/clock")).json.now)))));
  const d = new Date(now + 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  while (d.getUTCDay() !== day) d.setUTCDate(d.getUTCDate() + 1);
  return d.getTime();
}

test("the emulator and itself: no difference, and the throwaway service is gone", async () => {
  const r = await parity();
  expect(r.err).toContain("6 cases against");
  expect(r.out).toBe("6 cases: PagerDuty and the emulator agree on every one\n");
  expect(r.code).toBe(EXIT.ok);
  expect(await leftovers()).toEqual([]);
}, 60_000);

test("a difference planted in one of them (the two run on different days of the week) is named: the case and its fields", async () => {
  const wednesday = await nextAt(3, 12);
  const saturday = await nextAt(6, 3);
  await admin(local, "POST", "/clock", { at: new Date(wednesday).toISOString() });
  await admin(real, "POST", "/clock", { at: new Date(saturday).toISOString() });
  const r = await parity();
  expect(r.code).toBe(EXIT.differs);
  expect(r.out).toContain("1 of 6 cases differ between the emulator and PagerDuty:");
  expect(r.out).toContain("3. web alert in business hours");
  expect(r.out).toMatch(/priority +emulator: P2 {2}PagerDuty: none/);
  expect(r.out).toMatch(/annotations +emulator: \["web team, business hours"\] {2}PagerDuty: \[\]/);
  expect(r.out).toContain("by field: priority 1, annotations 1");
  expect(r.out).not.toContain("database");
  expect(await leftovers()).toEqual([]);
}, 60_000);

test("a run that cannot complete exits 3 naming why, and leaves nothing behind", async () => {
  const r = await run(
    parityCommand({ pulumi, env: { ...accountEnv(real), PAGERDUTY_EVENTS_URL: real.url, PAGERDUTY_EMULATOR_ADMIN_TOKEN: local.adminToken } }),
    ["--cases", casesFile, "--url", local.url, "--escalation-policy", "PNOSUCH", "--wait", "1"],
  );
  expect(r.code).toBe(EXIT.notRun);
  expect(r.err).toMatch(/pagerduty-routing-test parity: .*POST \/services/);
  expect(r.err).not.toContain(real.seed.oauth.clientSecret);
  expect(await leftovers()).toEqual([]);
});

test("Ctrl-C stops the run before the next case, and the throwaway service is still removed", async () => {
  const signals = new EventEmitter();
  const running = run(
    parityCommand({ pulumi, signals, env: { ...accountEnv(real), PAGERDUTY_EVENTS_URL: real.url, PAGERDUTY_EMULATOR_ADMIN_TOKEN: local.adminToken } }),
    ["--cases", casesFile, "--url", local.url, "--escalation-policy", real.seed.escalationPolicyId, "--wait", "1"],
  );
  signals.emit("SIGINT");
  const r = await running;
  expect(r.code).toBe(EXIT.notRun);
  expect(r.err).toContain("interrupted: removing the throwaway services");
  expect(r.err).toContain("interrupted: nothing more was sent");
  expect(signals.listenerCount("SIGINT")).toBe(0);
  expect(await leftovers()).toEqual([]);
});

test("the command line names what is missing", async () => {
  const r = await run(parityCommand({ pulumi }), ["--cases", casesFile, "--url", local.url]);
  expect(r.code).toBe(2);
  expect(r.err).toContain("--escalation-policy ID is required");
});

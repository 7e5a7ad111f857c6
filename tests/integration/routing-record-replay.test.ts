// Record, then replay and diff (issue 54): ~300 events through emulator A standing in for the real
// account, recorded over HTTP by `pagerduty-routing-test record` (~230 cases); then, on emulator B,
// A's orchestration as the base (service "Checkout" of one account) and the same with one rule
// changed as the head (service "Checkout" of another), the file replayed through both by the replay
// command on already-deployed stacks (a stand-in pulumi gives their routing keys). The diff must name
// exactly the events the changed rule decides differently, computed from the recorded events and the
// rules' conditions read as plain predicates (which first reproduce what A did to every event).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSeed, startEmulator } from "../../emulator/src";
import type { Pulumi } from "../../provider/cli/pulumi-runner";
import { type RoutingCase, readCaseFile } from "../../provider/cli/routing-cases";
import { OUTCOME_FIELDS, shownValue } from "../../provider/cli/routing-outcome";
import { EXIT, routingReplayCommand } from "../../provider/cli/routing-replay";
import { admin, type Client, client, type Emu, startWithClient } from "../emulator/helpers";
import { recordedTraffic, rules, run } from "../support/recorded-traffic";

type Json = Record<string, any>;

jest.setTimeout(60_000);

const SERVICE = "Checkout";
const BETA_KEY = "beta-account-key-for-record-replay";
/** The head's one change: database alerts page at P1 when they are errors, no longer when critical. */
const CHANGED_LABEL = "critical database alerts page at P1";
const HEAD_CONDITION = "event.summary matches part 'database' and event.severity matches 'error'";
const headRules = (p1: string) =>
  rules(p1).map((r) => (r.label === CHANGED_LABEL ? { ...r, label: "database errors page at P1", conditions: [{ expression: HEAD_CONDITION }] } : r));

/** Each condition of both orchestrations as a predicate on an event (PCL: `matches part` a substring, `matches` equality). */
const PREDICATES: Record<string, (ev: RoutingCase["event"]) => boolean> = {
  "event.custom_details.kind matches 'noise'": (ev) => ev.custom_details?.kind === "noise",
  "event.summary matches part 'database' and event.severity matches 'critical'": (ev) => !!ev.summary?.includes("database") && ev.severity === "critical",
  "event.severity matches 'warning'": (ev) => ev.severity === "warning",
  [HEAD_CONDITION]: (ev) => !!ev.summary?.includes("database") && ev.severity === "error",
};

interface Decided {
  outcome: "incident" | "suppressed";
  severity: string | null;
  priority: string | null;
  annotations: string[];
}

/** What an orchestration's rules (one set, first match wins; priorities by name) do to an event. */
function decide(set: ReturnType<typeof rules>, ev: RoutingCase["event"]): Decided {
  const rule = set.find((r) => r.conditions.every((c) => PREDICATES[c.expression](ev)));
  const a: Json = rule?.actions ?? {};
  if (a.suppress) return { outcome: "suppressed", severity: ev.severity ?? null, priority: null, annotations: [] };
  const annotate = a.annotate as string | undefined;
  return {
    outcome: "incident",
    severity: (a.severity as string | undefined) ?? ev.severity ?? null,
    priority: (a.priority as string | undefined) ?? null,
    annotations: annotate ? [annotate.replace(/\{\{event\.(\w+)\}\}/g, (_, f: string) => String((ev as Json)[f]))] : [],
  };
}

let dir: string;
let cases: RoutingCase[];
let file: string;
let b: Emu;
const keys: Record<"base" | "head", string> = { base: "", head: "" };

/** Service "Checkout" of the account `api` reaches, as A's: urgency by severity, the orchestration `set` active; its routing key. */
async function checkout(api: Client, policy: string, set: (p1: string) => Json[]): Promise<string> {
  const p1 = (await api.get("/priorities")).json.priorities.find((p: Json) => p.name === "P1").id as string;
  const created = await api.post("/services", {
    service: {
      name: SERVICE,
      escalation_policy: { id: policy, type: "escalation_policy_reference" },
      incident_urgency_rule: { type: "constant", urgency: "severity_based" },
    },
  });
  if (created.status !== 201) throw new Error(`service: ${created.status} ${created.text}`);
  const id = created.json.service.id as string;
  const put = await api.put(`/event_orchestrations/services/${id}`, {
    orchestration_path: { sets: [{ id: "start", rules: set(p1) }], catch_all: { actions: {} } },
  });
  if (put.status !== 200) throw new Error(`orchestration: ${put.status} ${put.text}`);
  await api.put(`/event_orchestrations/services/${id}/active`, { active: true });
  const integration = await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } });
  return integration.json.integration.integration_key as string;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "routing-record-replay-"));
  // A: the real account's traffic, recorded; the emulator goes once the file is written.
  const { e: a, api } = await startWithClient();
  try {
    file = (await recordedTraffic(a, api, { serviceName: SERVICE, integration: "alerts" })).file;
  } finally {
    await a.close();
  }
  cases = readCaseFile(file).cases;
  // B: the base's Checkout in one account, the head's in another (a service's name is unique in an account).
  const seed = defaultSeed();
  seed.accounts!.push({ subdomain: "beta", region: "us", name: "Beta", aiopsEntitled: true });
  seed.apiKeys!.push({ account: "beta", kind: "account", name: "Beta account key", token: BETA_KEY });
  b = await startEmulator({ port: 0, seed });
  const betaPolicy = (await admin(b, "POST", "/escalation-policies", { account: "beta", name: "On call" })).json.id as string;
  keys.base = await checkout(client(b, `Token token=${b.seed.apiKey}`), b.seed.escalationPolicyId, rules);
  keys.head = await checkout(client(b, `Token token=${BETA_KEY}`), betaPolicy, headRules);
}, 60_000);

afterAll(async () => {
  await b?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (file) rmSync(join(file, ".."), { recursive: true, force: true });
});

/** Stand-in pulumi: each side's deployed stack has the output "alerts", its service's routing key. */
const pulumiOf =
  (_cwd: string, stack: string): Pulumi =>
  (args) => {
    if (args.join(" ") === "stack output --json --show-secrets") return JSON.stringify({ alerts: keys[stack as "base" | "head"] });
    throw new Error(`unexpected pulumi ${args.join(" ")}`);
  };

test("a recorded file of 200+ events replayed through a changed rule: the diff names exactly the events whose outcome changed", async () => {
  expect(cases.length).toBeGreaterThanOrEqual(200);
  // The head differs from A's orchestration in that one rule only.
  const [base, head] = [rules("P1"), headRules("P1")];
  expect(head.filter((r, i) => JSON.stringify(r) !== JSON.stringify(base[i])).map((r) => r.label)).toEqual(["database errors page at P1"]);

  // The predicates reproduce what A did to every recorded event (its expect), so they can say what the head does.
  const triggers = cases.flatMap((c, i) => (c.event.event_action === "trigger" ? [i] : []));
  for (const i of triggers) {
    const { outcome, severity, priority, annotations } = cases[i].expect;
    expect({ name: cases[i].name, ...decide(base, cases[i].event) }).toEqual({ name: cases[i].name, outcome, severity, priority, annotations });
  }
  const fieldChanges = (i: number) => {
    const [before, after] = [decide(base, cases[i].event), decide(head, cases[i].event)] as Json[];
    return OUTCOME_FIELDS.filter((f) => f in before && JSON.stringify(before[f]) !== JSON.stringify(after[f])).map(
      (f) => `${f}: ${shownValue(before[f])} → ${shownValue(after[f])}`,
    );
  };
  const CHANGED = triggers.filter((i) => fieldChanges(i).length > 0);
  expect(CHANGED.length).toBeGreaterThan(10);
  expect(CHANGED.length).toBeLessThan(cases.length - 10);
  // Both ways: critical database alerts lose P1 and the note, database errors gain them.
  expect(new Set(CHANGED.map((i) => cases[i].event.severity))).toEqual(new Set(["critical", "error"]));

  const junit = join(dir, "replay.xml");
  const started = Date.now();
  const ran = await run(routingReplayCommand({ pulumiOf, env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: b.adminToken } }), [
    ...["--cases", file, "--base", join(dir, "base"), "--head", join(dir, "head")],
    ...["--base-stack", "base", "--head-stack", "head", "--url", b.url, "--junit", junit],
  ]);
  const took = Date.now() - started;
  process.stdout.write(`replay of ${cases.length} recorded events (both sides, diff and reports included): ${took} ms\n${ran.err}`);

  // A recorded file expects what PagerDuty did: every change fails, exit 1.
  expect(ran.code).toBe(EXIT.unexpected);
  expect(ran.out).toMatch(new RegExp(`^${CHANGED.length} of ${cases.length} events changed \\(0 expected by the case file, ${CHANGED.length} not\\)$`, "m"));
  // The report names exactly the changed events, each with the fields the rule change explains.
  const blocks = ran.out.split(/^(?=CHANGED )/m).filter((x) => x.startsWith("CHANGED "));
  const named = blocks.map((block) => {
    const [first, ...rest] = block.split("\n");
    const m = /^CHANGED (\d+)\. (.*)$/.exec(first)!;
    const fields = rest.filter((l) => new RegExp(`^ {2}(${OUTCOME_FIELDS.join("|")}): `).test(l)).map((l) => l.slice(2));
    return { index: Number(m[1]) - 1, name: m[2], fields };
  });
  expect(named.map((n) => n.index)).toEqual(CHANGED);
  for (const n of named) expect(n).toEqual({ index: n.index, name: cases[n.index].name, fields: fieldChanges(n.index) });
  // Unchanged events are named nowhere: not in the report, not failing in the JUnit file.
  const unchanged = cases.map((_, i) => i).filter((i) => !CHANGED.includes(i));
  expect(unchanged.length).toBeGreaterThan(10);
  for (const i of unchanged) expect(ran.out).not.toContain(`CHANGED ${i + 1}. `);
  const failing = [...readFileSync(junit, "utf8").matchAll(/<testcase name="(\d+)\. [^"]*" classname="[^"]*">/g)].map((m) => Number(m[1]) - 1);
  expect(failing).toEqual(CHANGED);
  expect(ran.err).toMatch(new RegExp(`^pagerduty-routing-test replay: head \\(.*\\): ${cases.length} events in \\d+\\.\\d s$`, "m"));
});

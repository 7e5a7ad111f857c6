// pagerduty-routing-test parity --cases FILE (--emulator FILE | --url URL) --escalation-policy ID
//                               [--events-url URL] [--wait SECONDS] [--stack S] [--cwd DIR]
// Sends the same cases to the emulator the stack was deployed to and to a real account, and reports
// every case where they disagree. On the real account (the PAGERDUTY_* settings) it makes its own
// throwaway service per service the cases reach, on the escalation policy named, with an Events API
// v2 integration and a copy of that service's orchestration read from the emulator through its REST
// API (routing-sandbox.ts); sends each case's event to the real Events API; reads back what
// PagerDuty did (routing-readback.ts), waiting out its lag with a bounded poll; then resolves every
// event it sent and removes the services, also after a failure or Ctrl-C. Both sides are read the
// same way, through the REST API, so they are compared as PagerDuty shows them.
import type { Dispatcher } from "undici";
import type { ClientOverrides } from "../account/client";
import { createClient } from "../account/client";
import { resolveSettings, type ProviderSettings } from "../config";
import { messageOf } from "../errors";
import { Consistency } from "../kernel/consistency";
import { INCIDENTS_READ, POLICIES_READ, PRIORITIES_READ, READ, WRITE } from "../kernel/api-paths";
import type { ApiClient } from "../http/client";
import { type FlagValues, UsageError } from "./command-line";
import { ExitError, exitErrorOf } from "./exit";
import type { Command, Terminal } from "./main";
import { pulumiRunner, type Pulumi } from "./pulumi-runner";
import { readCases, type RoutingCase } from "./routing-cases";
import { type EmulatorClient, emulatorAt, origin, targetFromEnvironment, targetFromReadyLine, TOKEN_ENV } from "./routing-emulator";
import { changesBetween, type EventOutcome, type OutcomeChange } from "./routing-outcome";
import { PROBE } from "./routing-preflight";
import { type ApiIncident, incidentsOfKey, outcomeOfAlert, readIncident, serviceOf } from "./routing-readback";
import { enqueue, EVENTS_HOSTS, makeSandbox, readOrchestration, type Sandbox } from "./routing-sandbox";
import { outgoing } from "./routing-run";
import { integrationKeys } from "./routing-stack";
import { stackConfig } from "./stack-config";

const BIN = "pagerduty-routing-test parity";

/** 0 no difference, 1 some, 2 usage, 3 the comparison could not run. */
export const EXIT = { ok: 0, differs: 1, usage: 2, notRun: 3 } as const;

const DEFAULT_WAIT_S = 30;
const MAX_WAIT_S = 600;
export const EVENTS_URL_ENV = "PAGERDUTY_EVENTS_URL";

const HELP = `usage: ${BIN} --cases FILE (--emulator FILE | --url URL) --escalation-policy ID
                                    [--events-url URL] [--wait SECONDS] [--stack STACK] [--cwd DIR]

Sends the cases to the emulator the stack's program was deployed to and to a real PagerDuty account,
and reports every case where the two disagree (outcome, service, severity, urgency, priority,
escalation policy, notes). On the real account it makes a throwaway service per service the cases
reach, on the escalation policy given, with an Events API v2 integration and a copy of the service's
orchestration as the emulator has it (priorities and escalation policies by name); sends each event
to PagerDuty's Events API; reads back what PagerDuty did through the REST API; then resolves every
event it sent and deletes the services, also after a failure or Ctrl-C. Both sides are read through
the REST API. Cases run in order, at the time of the run: their "at" is not applied on either side.

Options:
  --cases FILE                the case file (docs/testing-routing.md)
  --emulator FILE, --url URL  the emulator, as for ${BIN.split(" ")[0]} (admin token: ${TOKEN_ENV})
  --escalation-policy ID      the real account's escalation policy of the throwaway services
  --events-url URL            the Events API (default: ${EVENTS_HOSTS.us}, or ${EVENTS_HOSTS.eu}
                              for an eu account; ${EVENTS_URL_ENV})
  --wait SECONDS              how long to wait for PagerDuty to show an event's incident (default
                              ${DEFAULT_WAIT_S}; an event that opens none costs the whole wait)
  -s, --stack STACK           the stack deployed to the emulator (default: the selected stack); its
                              config is the emulator account's settings
  -C, --cwd DIR               the Pulumi project directory
  -h, --help                  show this help
  --version                   show the version

The real account: PAGERDUTY_CLIENT_ID, PAGERDUTY_CLIENT_SECRET and PAGERDUTY_SUBDOMAIN (an app
token asking for services.read, services.write, incidents.read, priorities.read and
escalation_policies.read, unless PAGERDUTY_SCOPES says otherwise), or PAGERDUTY_TOKEN;
PAGERDUTY_SERVICE_REGION, PAGERDUTY_API_URL and PAGERDUTY_AUTH_URL as for the provider.
Use a sandbox account or at least a sandbox escalation policy: the events page whoever it names.

Exit codes: 0 no difference, 1 a case differs, 2 usage, 3 the comparison could not run.`;

const FLAGS = {
  cases: { type: "string" },
  emulator: { type: "string" },
  url: { type: "string" },
  "escalation-policy": { type: "string" },
  "events-url": { type: "string" },
  wait: { type: "string" },
  stack: { type: "string", short: "s" },
  cwd: { type: "string", short: "C" },
} as const;

export interface ParityOptions {
  cases: string;
  emulator?: string;
  url?: string;
  escalationPolicy: string;
  eventsUrl?: string;
  waitMs: number;
  stack?: string;
  cwd?: string;
}

export function parityOptions(v: FlagValues<typeof FLAGS>): ParityOptions {
  if (v.cases === undefined) throw new UsageError("--cases FILE is required");
  if (v.emulator !== undefined && v.url !== undefined) throw new UsageError("--emulator and --url both name the emulator: give one");
  const policy = v["escalation-policy"];
  if (policy === undefined) throw new UsageError("--escalation-policy ID is required: the real account's policy the throwaway services use");
  const wait = v.wait === undefined ? DEFAULT_WAIT_S : Number(v.wait);
  if (!(wait > 0 && wait <= MAX_WAIT_S)) throw new UsageError(`--wait: "${v.wait}" must be a number of seconds above 0, at most ${MAX_WAIT_S}`);
  if (v["events-url"] !== undefined && !/^https?:\/\/[^\s/@]+(\/\S*)?$/.test(v["events-url"]))
    throw new UsageError(`--events-url: "${v["events-url"]}" is not an http(s) URL without credentials`);
  return {
    cases: v.cases,
    ...(v.emulator !== undefined ? { emulator: v.emulator } : {}),
    ...(v.url !== undefined ? { url: v.url } : {}),
    escalationPolicy: policy,
    ...(v["events-url"] !== undefined ? { eventsUrl: v["events-url"] } : {}),
    waitMs: wait * 1000,
    ...(v.stack !== undefined ? { stack: v.stack } : {}),
    ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
  };
}

/** What the command talks to; tests give a stand-in pulumi, the environments and connections. */
export interface ParityDeps {
  pulumi?: Pulumi;
  env?: NodeJS.ProcessEnv;
  /** The emulator's admin connection. */
  dispatcher?: Dispatcher;
  clients?: ClientOverrides;
  /** Where Ctrl-C is heard (default: the process). */
  signals?: NodeJS.EventEmitter;
}

/** A client of `settings` asking for `scopes` unless the settings name their own. */
function clientWith(settings: ProviderSettings, scopes: readonly string[], own: boolean, overrides?: ClientOverrides): ApiClient {
  return createClient(own ? settings : { ...settings, scopes: [...scopes], optionalScopes: [] }, overrides);
}

const EMULATOR_SCOPES = [...READ, ...INCIDENTS_READ, ...PRIORITIES_READ, ...POLICIES_READ];
const REAL_SCOPES = [...READ, ...WRITE, ...INCIDENTS_READ, ...PRIORITIES_READ, ...POLICIES_READ];

/** One side's service as the readback compares it. */
interface Side {
  client: ApiClient;
  serviceId: string;
  /** The service's own escalation policy: an incident naming it had none set by a rule. */
  policy: string | null;
  /** How many ms PagerDuty may take to show an event (0: the emulator, at once). */
  waitMs: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newest = (list: ApiIncident[]) => [...list].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];

/** How long a repeat trigger is given to reach the incident it joins before it is read. */
const REPEAT_SETTLE_MS = 5_000;

/** The outcome when no incident shows the event: suppressed, held or dropped, which the REST API does not tell apart. */
const NO_INCIDENT = (service: string | null): EventOutcome => ({
  outcome: "suppressed",
  service,
  severity: null,
  urgency: null,
  priority: null,
  escalation_policy: null,
  annotations: [],
});

/**
 * What the side did to the event with dedup key `key`, sent after `before` incidents had it: a
 * trigger waits for a new incident (or reads the open one it joined), an acknowledge or resolve for
 * the incident's status to follow, each for at most the side's wait.
 */
async function observe(side: Side, key: string, action: string, before: ApiIncident[], serviceName: string | null): Promise<EventOutcome> {
  const openBefore = before.some((i) => i.status !== "resolved");
  const wanted = action === "acknowledge" ? "acknowledged" : action === "resolve" ? "resolved" : undefined;
  const deadline = Date.now() + side.waitMs;
  // A repeat trigger joins the open incident, which is there before PagerDuty has processed it (the
  // Events API only queues): give it time to raise a severity or urgency before reading.
  if (!wanted && openBefore) await pause(Math.min(side.waitMs, REPEAT_SETTLE_MS));
  let found: ApiIncident[] = before;
  for (;;) {
    found = await incidentsOfKey(side.client, side.serviceId, key);
    const latest = newest(found) as ApiIncident | undefined;
    const settled = wanted ? latest?.status === wanted : found.length > before.length || (openBefore && found.length > 0);
    if (settled || Date.now() >= deadline) break;
    await pause(Math.min(1_000, Math.max(50, side.waitMs / 10)));
  }
  const latest = newest(found) as ApiIncident | undefined;
  if (!latest) return NO_INCIDENT(serviceName);
  const read = await readIncident(side.client, latest);
  const alert = [...read.alerts].reverse().find((a) => a.alert_key === key) ?? read.alerts.at(-1);
  if (!alert) return NO_INCIDENT(serviceName);
  const o = outcomeOfAlert(alert, read, side.policy);
  const word = latest.status === "resolved" ? "resolved" : latest.status === "acknowledged" ? "acknowledged" : "incident";
  return { ...o, outcome: wanted ? word : o.outcome, service: serviceName };
}

/** A case whose outcomes differ. */
export interface Difference {
  index: number;
  name: string;
  emulator: EventOutcome;
  pagerduty: EventOutcome;
  changes: OutcomeChange[];
}

/** The report: each differing case with both outcomes, field by field, and a count per field. */
export function parityReport(total: number, diffs: readonly Difference[]): string {
  if (!diffs.length) return `${total} case${total === 1 ? "" : "s"}: PagerDuty and the emulator agree on every one\n`;
  const lines = [`${diffs.length} of ${total} cases differ between the emulator and PagerDuty:`, ""];
  for (const d of diffs) {
    lines.push(`  ${d.index + 1}. ${d.name}`);
    const width = Math.max(...d.changes.map((c) => c.field.length));
    for (const c of d.changes) lines.push(`     ${c.field.padEnd(width)}  emulator: ${c.before}  PagerDuty: ${c.after}`);
  }
  const counts = new Map<string, number>();
  for (const d of diffs) for (const c of d.changes) counts.set(c.field, (counts.get(c.field) ?? 0) + 1);
  lines.push("", `by field: ${[...counts].map(([f, n]) => `${f} ${n}`).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** The emulator service each integration's events reach, learnt by dry runs. */
async function servicesOf(emu: EmulatorClient, keys: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, key] of keys) out.set(name, (await emu.dryRun({ routing_key: key, ...PROBE })).service.id);
  return out;
}

/** The whole command: resolves to its exit code; a run that cannot complete throws (exit 3). */
export async function parity(opts: ParityOptions, terminal: Terminal, deps: ParityDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const cases = readCases(opts.cases);
  const target = opts.emulator ? targetFromReadyLine(opts.emulator) : targetFromEnvironment(opts.url, env);
  const pulumi = deps.pulumi ?? pulumiRunner({ cwd: opts.cwd, stack: opts.stack });
  const keys = integrationKeys(
    pulumi,
    cases.map((c) => c.integration),
  );
  // The emulator account's settings are the stack's alone: the environment names the real account.
  const config = stackConfig(pulumi);
  const emulatorSettings = resolveSettings((k) => config.get(k), {});
  const realSettings = resolveSettings(() => undefined, env);
  // The sandbox's routing key travels to it: https (http only to loopback), no credentials in the URL.
  const eventsUrl = origin(opts.eventsUrl ? "--events-url" : EVENTS_URL_ENV, opts.eventsUrl ?? env[EVENTS_URL_ENV] ?? EVENTS_HOSTS[realSettings.serviceRegion]);
  const emuClient = clientWith(emulatorSettings, EMULATOR_SCOPES, false, deps.clients);
  const real = clientWith(realSettings, REAL_SCOPES, env.PAGERDUTY_SCOPES !== undefined, deps.clients);
  // The real account's lag after a create, as its settings give it (consistencyWindow).
  const consistency = new Consistency({ windowMs: realSettings.consistencyWindowMs });
  const emu = emulatorAt(target, deps.dispatcher);
  const sent = new Map<Sandbox, Set<string>>();
  let interrupted = false;
  const signals = deps.signals ?? process;
  const onSignal = () => {
    interrupted = true;
    terminal.say(`${BIN}: interrupted: removing the throwaway services`);
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  try {
    const services = await servicesOf(emu, keys);
    for (const id of new Set(services.values())) await emu.resetEvents(id);
    const sides = new Map<string, { emulator: Side; real: Side; name: string | null; sandbox: Sandbox }>();
    for (const [integration, id] of services) {
      const existing = [...sides.values()].find((s) => s.emulator.serviceId === id);
      if (existing) {
        sides.set(integration, existing);
        continue;
      }
      const copy = await readOrchestration(emuClient, id);
      const sandbox = await makeSandbox(real, emuClient, copy, opts.escalationPolicy, consistency);
      sent.set(sandbox, new Set());
      const own = await serviceOf(emuClient, id);
      sides.set(integration, {
        emulator: { client: emuClient, serviceId: id, policy: own.escalationPolicy, waitMs: 0 },
        real: { client: real, serviceId: sandbox.serviceId, policy: sandbox.escalationPolicy, waitMs: opts.waitMs },
        name: own.name ?? id,
        sandbox,
      });
      if (interrupted) break;
    }
    const withAt = cases.filter((c) => c.at).length;
    terminal.say(
      `${BIN}: ${cases.length} case${cases.length === 1 ? "" : "s"} against ${target.url} and PagerDuty at ${realSettings.apiUrl}` +
        ` (${sides.size ? new Set([...sides.values()].map((s) => s.sandbox)).size : 0} throwaway service${sides.size === 1 ? "" : "s"})` +
        `${withAt ? `; ${withAt} case${withAt === 1 ? "'s" : "s'"} "at" not applied: both sides run now` : ""}`,
    );
    const run = Date.now().toString(36);
    const diffs: Difference[] = [];
    for (const [index, c] of cases.entries()) {
      if (interrupted) throw new ExitError("interrupted: nothing more was sent", EXIT.notRun);
      const side = sides.get(c.integration)!;
      const key = c.event.dedup_key ?? `parity-${run}-${index}`;
      const event: RoutingCase = { ...c, event: { ...c.event, dedup_key: key } };
      const action = event.event.event_action;
      const [emuBefore, realBefore] = await Promise.all([
        incidentsOfKey(emuClient, side.emulator.serviceId, key),
        incidentsOfKey(real, side.real.serviceId, key),
      ]);
      await emu.send(outgoing(event, keys.get(c.integration)!));
      sent.get(side.sandbox)!.add(key);
      await enqueue(eventsUrl, { ...outgoing(event, side.sandbox.routingKey) }, deps.clients?.dispatcher);
      const [mine, theirs] = await Promise.all([
        observe(side.emulator, key, action, emuBefore, side.name),
        observe(side.real, key, action, realBefore, side.name),
      ]);
      const changes = changesBetween(mine, theirs);
      if (changes.length) diffs.push({ index, name: c.name, emulator: mine, pagerduty: theirs, changes });
    }
    terminal.out(parityReport(cases.length, diffs));
    return diffs.length ? EXIT.differs : EXIT.ok;
  } finally {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
    for (const [sandbox, dedupKeys] of sent) {
      // Resolve what was sent, so nobody stays paged, then remove the service.
      for (const key of dedupKeys)
        await enqueue(eventsUrl, { routing_key: sandbox.routingKey, event_action: "resolve", dedup_key: key }, deps.clients?.dispatcher, 200).catch(() => {});
      await sandbox
        .remove()
        .catch((e) => terminal.say(`${BIN}: could not remove the throwaway service "${sandbox.name}" (${sandbox.serviceId}): ${messageOf(e)}`));
    }
    await Promise.all([emu.close(), emuClient.close(), real.close()]);
  }
}

/** The bin, talking to what `deps` gives (the tests') or the real pulumi and network. */
export const parityCommand = (deps: ParityDeps = {}): Command<typeof FLAGS, ParityOptions> => ({
  bin: BIN,
  help: HELP,
  flags: FLAGS,
  options: parityOptions,
  async run(opts, terminal) {
    try {
      return await parity(opts, terminal, deps);
    } catch (e) {
      throw exitErrorOf(e, EXIT.notRun);
    }
  },
});

export const ROUTING_PARITY = parityCommand();

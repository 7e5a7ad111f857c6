// pagerduty-routing-test record --service ID[=INTEGRATION]... (--last 24h | --since T [--until T])
//                               [--out FILE] [--keep-fields a,b] [--max-events N]
// Writes a case file of what a real account's services really got: each alert PagerDuty kept over
// the window, read through its public REST API (routing-readback.ts), becomes a case whose event is
// the event as it arrived and whose expectation is what PagerDuty did. The account is the one the
// PAGERDUTY_* settings name, as for pagerduty-adopt outside a project; only read scopes are asked
// for. Credentials and personal data in the events are replaced by markers (routing-redact.ts)
// unless --keep-fields names them. The file says where (the API's origin) and when it was recorded.
import { writeFileSync } from "node:fs";
import { dump } from "js-yaml";
import type { ClientOverrides } from "../account/client";
import { createClient } from "../account/client";
import { resolveSettings } from "../config";
import type { ApiClient } from "../http/client";
import { environmentTerms } from "./adopt";
import type { Recorded, RoutingEvent } from "./routing-cases";
import { type FlagValues, UsageError } from "./command-line";
import type { Command, Terminal } from "./main";
import { type Removed, checkKeptField, redactor, type Redactor } from "./routing-redact";
import { type ApiAlert, eventOfAlert, incidentsIn, outcomeOfAlert, READ_SCOPES, type ReadIncident, readIncident, serviceOf } from "./routing-readback";

const BIN = "pagerduty-routing-test record";

/** PagerDuty lists incidents over at most 6 months (`GET /incidents`, `since`/`until`): 180 days, on the safe side. */
export const MAX_WINDOW_DAYS = 180;
/** Offset pagination stops at 10,000 items (PagerDuty's pagination docs), so a recording does too. */
export const MAX_EVENTS = 10_000;
const DEFAULT_MAX_EVENTS = 1_000;

const HELP = `usage: ${BIN} --service ID[=INTEGRATION]... (--last DURATION | --since TIME [--until TIME])
                                    [--out FILE] [--keep-fields FIELD,...] [--max-events N]

Reads the incidents a real account's services had over a window, and each incident's alerts, through
PagerDuty's REST API, and writes a case file (YAML): one case per alert, oldest first, whose event is
the event as PagerDuty kept it and whose expectation is what PagerDuty did (incident, service,
severity, urgency, priority, escalation policy, the orchestration's notes). Replay it with
"pagerduty-routing-test replay". Suppressed alerts open no incident and are not served by the REST
API, so a recording has none; neither has it triggers deduplicated into an open alert.

Options:
  --service ID[=INTEGRATION]  a service to read (repeat for more); INTEGRATION names the stack output
                              or ServiceIntegration its cases send to on replay (default: the id)
  --last DURATION             the window ending now: 90m, 24h, 7d (at most ${MAX_WINDOW_DAYS}d)
  --since TIME, --until TIME  the window as ISO 8601 instants (--until default: now)
  --out FILE                  write the case file to FILE (default: stdout)
  --keep-fields FIELD,...     event fields written verbatim, e.g. source,custom_details.user
                              (default: credentials and personal data are replaced by markers)
  --max-events N              stop after N events (default ${DEFAULT_MAX_EVENTS}, at most ${MAX_EVENTS})
  -h, --help                  show this help
  --version                   show the version

The account: PAGERDUTY_CLIENT_ID, PAGERDUTY_CLIENT_SECRET and PAGERDUTY_SUBDOMAIN (an app token
asking for ${READ_SCOPES.join(" and ")} only, unless PAGERDUTY_SCOPES says otherwise), or
PAGERDUTY_TOKEN (an API key); PAGERDUTY_SERVICE_REGION, PAGERDUTY_API_URL and PAGERDUTY_AUTH_URL
as for the provider. Paging, 429s and retries as in the rest of the package.

Exit codes: 0 written, 1 the account could not be read, 2 usage.`;

const FLAGS = {
  service: { type: "string", multiple: true },
  last: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  out: { type: "string" },
  "keep-fields": { type: "string" },
  "max-events": { type: "string" },
} as const;

export interface RecordOptions {
  /** Service id → the integration its cases name. */
  services: Map<string, string>;
  since: Date;
  until: Date;
  out?: string;
  keep: string[];
  maxEvents: number;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration such as 90m, 24h or 7d in ms, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+)([mhd])$/.exec(text.trim());
  return m && Number(m[1]) > 0 ? Number(m[1]) * UNITS[m[2]] : undefined;
}

function instant(flag: string, text: string): Date {
  const t = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(t)) throw new UsageError(`--${flag}: "${text}" is not an ISO 8601 instant (e.g. 2026-11-30T00:00:00Z)`);
  return new Date(t);
}

/** The options the flags mean, `now` the end of a --last window. */
export function recordOptions(v: FlagValues<typeof FLAGS>, now: Date = new Date()): RecordOptions {
  if (!v.service?.length) throw new UsageError("--service ID is required (repeat it for more services)");
  const services = new Map<string, string>();
  for (const s of v.service) {
    const [id, integration, ...rest] = s.split("=");
    if (!/^[A-Za-z0-9]+$/.test(id ?? "") || rest.length || integration === "")
      throw new UsageError(`--service: "${s}" is not ID or ID=INTEGRATION (a service id such as PABC123)`);
    if (services.has(id)) throw new UsageError(`--service: ${id} is given twice`);
    services.set(id, integration ?? id);
  }
  if (v.last !== undefined && v.since !== undefined) throw new UsageError("--last and --since both start the window: give one");
  if (v.last !== undefined && v.until !== undefined) throw new UsageError("--last ends the window now: give --since and --until instead");
  if (v.last === undefined && v.since === undefined) throw new UsageError("the window is required: --last DURATION (e.g. 24h) or --since TIME");
  let since: Date;
  let until: Date;
  if (v.last !== undefined) {
    const ms = parseDuration(v.last);
    if (ms === undefined) throw new UsageError(`--last: "${v.last}" is not a duration such as 90m, 24h or 7d`);
    until = now;
    since = new Date(now.getTime() - ms);
  } else {
    since = instant("since", v.since!);
    until = v.until !== undefined ? instant("until", v.until) : now;
  }
  if (until <= since) throw new UsageError(`--until (${until.toISOString()}) must be after --since (${since.toISOString()})`);
  if (until.getTime() - since.getTime() > MAX_WINDOW_DAYS * UNITS.d)
    throw new UsageError(`the window is longer than ${MAX_WINDOW_DAYS} days: PagerDuty lists incidents over at most 6 months`);
  const keep = (v["keep-fields"] ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of keep) {
    const problem = checkKeptField(f);
    if (problem) throw new UsageError(`--keep-fields: ${problem}`);
  }
  let maxEvents = DEFAULT_MAX_EVENTS;
  if (v["max-events"] !== undefined) {
    maxEvents = Number(v["max-events"]);
    if (!Number.isInteger(maxEvents) || maxEvents < 1 || maxEvents > MAX_EVENTS)
      throw new UsageError(`--max-events: "${v["max-events"]}" must be a whole number from 1 to ${MAX_EVENTS}`);
  }
  return { services, since, until, ...(v.out !== undefined ? { out: v.out } : {}), keep, maxEvents };
}

/** One case as the file holds it. */
export interface RecordedCase {
  name: string;
  integration?: string;
  at: string;
  event: RoutingEvent;
  expect: Record<string, unknown>;
}

/** A service as the recording knows it. */
export interface RecordedService {
  id: string;
  name: string | null;
  escalationPolicy: string | null;
  integration: string;
}

const MAX_NAME = 60;
const short = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s);

interface Arrival {
  alert: ApiAlert;
  read: ReadIncident;
  /** Its place among its incident's alerts, from 1. */
  nth: number;
}

/**
 * The cases of the incidents read, in order of arrival, at most `max`: a trigger per alert, and a
 * resolve before a later alert reuses a resolved alert's dedup key on its service (without it a
 * replay would deduplicate the later trigger into the earlier, still open, alert).
 */
export function casesOf(
  reads: readonly ReadIncident[],
  services: ReadonlyMap<string, RecordedService>,
  redact: Redactor,
  max: number,
): { cases: RecordedCase[]; cut: boolean } {
  const arrivals: Arrival[] = reads
    .flatMap((read) => read.alerts.map((alert, i) => ({ alert, read, nth: i + 1 })))
    .sort(
      (a, b) =>
        Date.parse(a.alert.created_at) - Date.parse(b.alert.created_at) || a.read.incident.incident_number - b.read.incident.incident_number || a.nth - b.nth,
    );
  const cut = arrivals.length > max;
  const cases: RecordedCase[] = [];
  const open = new Map<string, Arrival>();
  const several = services.size > 1;
  for (const arrival of arrivals.slice(0, max)) {
    const { alert, read, nth } = arrival;
    const service = services.get(read.incident.service.id);
    const integration = several && service ? { integration: service.integration } : {};
    const event = redact.event(eventOfAlert(alert));
    const slot = `${read.incident.service.id}/${event.dedup_key}`;
    const earlier = open.get(slot);
    // A new alert with an open one's key would have been deduplicated: the earlier one was resolved
    // by then (at its resolved_at, when the API gives it; else just before).
    const resolvedAt =
      earlier?.alert.resolved_at ?? (earlier?.alert.status === "resolved" ? new Date(Date.parse(alert.created_at) - 1).toISOString() : undefined);
    if (earlier && resolvedAt && Date.parse(resolvedAt) <= Date.parse(alert.created_at)) {
      cases.push({
        name: `#${earlier.read.incident.incident_number}${earlier.nth > 1 ? `.${earlier.nth}` : ""} resolved`,
        ...integration,
        at: new Date(resolvedAt).toISOString(),
        event: { event_action: "resolve", dedup_key: event.dedup_key },
        expect: { outcome: "resolved" },
      });
    }
    open.set(slot, arrival);
    const outcome = outcomeOfAlert(alert, read, service?.escalationPolicy ?? null);
    const { annotations, ...rest } = outcome;
    cases.push({
      name: `#${read.incident.incident_number}${read.alerts.length > 1 ? `.${nth}` : ""} ${short(event.summary ?? "")}`.trim(),
      ...integration,
      at: new Date(alert.created_at).toISOString(),
      event,
      // The notes belong to the alert that opened the incident; a later one's are not known.
      // Notes may quote the event (`{{event.custom_details.user}}`): the text rule applies to them too.
      expect: { ...rest, ...(nth === 1 ? { annotations: annotations.map((n) => redact.text(n)) } : {}) },
    });
  }
  // A resolve stands at its resolved_at, which can precede alerts pushed before it: runs need the
  // file in time order (the sort is stable, so alerts of one instant keep their order of arrival).
  cases.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { cases, cut };
}

/** The `recorded` block: where (the API's origin and path, never a credential) and when. */
export function recordedBlock(apiUrl: string, at: Date, opts: RecordOptions, services: readonly RecordedService[]): Recorded {
  const u = new URL(apiUrl);
  return {
    from: `${u.origin}${u.pathname.replace(/\/+$/, "")}`,
    at: at.toISOString(),
    since: opts.since.toISOString(),
    until: opts.until.toISOString(),
    services: services.map((s) => ({ id: s.id, name: s.name })),
    ...(opts.keep.length ? { kept_fields: [...opts.keep] } : {}),
  };
}

const removedText = (removed: ReadonlyMap<Removed, number>) =>
  removed.size ? [...removed].map(([why, n]) => `${n} ${why}`).join(", ") : "nothing matched the rule";

/** The case file's text: a comment header, then the recorded block and the cases. */
export function caseFileText(recorded: Recorded, services: readonly RecordedService[], cases: readonly RecordedCase[], cut: boolean, redact: Redactor): string {
  const header = [
    `Recorded by ${BIN} from ${recorded.from} at ${recorded.at},`,
    `over ${recorded.since} .. ${recorded.until}: ${cases.length} case${cases.length === 1 ? "" : "s"}` +
      `${cut ? " (stopped at --max-events: the window holds more)" : ""}.`,
    "Each case is one alert as PagerDuty kept it (its body: the event after the orchestration's changes)",
    "and, under expect, what PagerDuty did. Not here, as PagerDuty's REST API does not serve them:",
    "suppressed alerts (they open no incident), triggers deduplicated into an open alert, acknowledges.",
    `Redacted (credentials, personal data; keep fields with --keep-fields): ${removedText(redact.removed)}.`,
  ];
  const single = services.length === 1 ? { integration: services[0].integration } : {};
  const body = dump({ recorded, ...single, cases }, { lineWidth: 120, noRefs: true, quotingType: '"' });
  return `${header.map((l) => `# ${l}`).join("\n")}\n${body}`;
}

/** What the command talks to; tests give the emulator's environment and connection. */
export interface RecordDeps {
  env?: NodeJS.ProcessEnv;
  clients?: ClientOverrides;
  now?: () => Date;
}

/** The client of the account the environment names, asking for the read scopes only unless PAGERDUTY_SCOPES is set. */
function readClient(env: NodeJS.ProcessEnv, overrides?: ClientOverrides): { client: ApiClient; apiUrl: string } {
  const settings = resolveSettings(() => undefined, env);
  const scoped = env.PAGERDUTY_SCOPES === undefined ? { ...settings, scopes: [...READ_SCOPES], optionalScopes: [] } : settings;
  return { client: createClient(scoped, overrides), apiUrl: settings.apiUrl };
}

/** Reads the window and returns the case file's text and how many cases it holds. */
export async function record(
  opts: RecordOptions,
  deps: RecordDeps = {},
  say: (line: string) => void = () => {},
): Promise<{ text: string; cases: number; cut: boolean }> {
  const { client, apiUrl } = readClient(deps.env ?? process.env, deps.clients);
  try {
    const services: RecordedService[] = [];
    for (const [id, integration] of opts.services) services.push({ ...(await serviceOf(client, id)), integration });
    const { incidents, more } = await incidentsIn(client, { serviceIds: [...opts.services.keys()], since: opts.since, until: opts.until }, opts.maxEvents);
    say(`${BIN}: ${incidents.length} incident${incidents.length === 1 ? "" : "s"}${more ? " (more in the window)" : ""}; reading their alerts`);
    const reads = await Promise.all(incidents.map((i) => readIncident(client, i)));
    const redact = redactor(opts.keep);
    const byId = new Map(services.map((s) => [s.id, s]));
    const { cases, cut } = casesOf(reads, byId, redact, opts.maxEvents);
    const recorded = recordedBlock(apiUrl, (deps.now ?? (() => new Date()))(), opts, services);
    return { text: caseFileText(recorded, services, cases, cut || more, redact), cases: cases.length, cut: cut || more };
  } finally {
    await client.close();
  }
}

export const recordCommand = (deps: RecordDeps = {}): Command<typeof FLAGS, RecordOptions> => ({
  bin: BIN,
  help: HELP,
  flags: FLAGS,
  options: (v) => recordOptions(v, (deps.now ?? (() => new Date()))()),
  async run(opts, terminal: Terminal) {
    try {
      const { text, cases, cut } = await record(opts, deps, (l) => terminal.say(l));
      if (!opts.out) return terminal.out(text);
      writeFileSync(opts.out, text);
      terminal.say(`${BIN}: wrote ${cases} case${cases === 1 ? "" : "s"} to ${opts.out}${cut ? " (stopped at --max-events)" : ""}`);
    } catch (e) {
      // The settings come from the environment only: name them in its terms.
      if (e instanceof Error) e.message = environmentTerms(e.message);
      throw e;
    }
  },
});

export const ROUTING_RECORD = recordCommand();

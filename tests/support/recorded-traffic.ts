// Real traffic on an emulator standing in for a real account, and its recording: a service with a
// severity-based urgency and an active orchestration (suppress noise, page critical database alerts
// at P1 with a note, turn warnings to info), a stream of events through its Events API a minute
// apart (mixed severities, dedup repeats, suppressed ones, annotated ones, some carrying an email,
// an IP address and a token), each event's trace kept, then `pagerduty-routing-test record` run
// over HTTP as a user runs it. The routing-record test checks the file; later tests can replay it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, type Terminal } from "../../provider/cli/main";
import { emulatorAt, type Trace } from "../../provider/cli/routing-emulator";
import { recordCommand } from "../../provider/cli/routing-record";
import { admin, type Client, createService, type Emu } from "../emulator/helpers";

type Json = Record<string, unknown>;

/** One event sent, with what the emulator did to it. */
export interface SentEvent {
  dedup_key: string;
  /** When it arrived, on the emulator's clock (ISO). */
  at: string;
  trace: Trace;
}

export interface Traffic {
  serviceId: string;
  serviceName: string;
  routingKey: string;
  since: string;
  until: string;
  sent: SentEvent[];
}

/** The orchestration the traffic runs through. */
export const rules = (p1: string) => [
  { label: "noise is suppressed", conditions: [{ expression: "event.custom_details.kind matches 'noise'" }], actions: { suppress: true } },
  {
    label: "critical database alerts page at P1",
    conditions: [{ expression: "event.summary matches part 'database' and event.severity matches 'critical'" }],
    actions: { priority: p1, annotate: "DB runbook: {{event.source}}" },
  },
  { label: "warnings become info", conditions: [{ expression: "event.severity matches 'warning'" }], actions: { severity: "info" } },
];

const SEVERITIES = ["critical", "error", "warning", "info"] as const;

/** The i-th event of the stream: every 10th noise, every 7th a repeat of the one before, every 3rd a database alert. */
export function trafficEvent(i: number): { dedup_key: string; payload: Json } {
  const repeat = i % 7 === 6;
  const n = repeat ? i - 1 : i;
  const database = n % 3 === 0;
  return {
    dedup_key: `evt-${n}`,
    payload: {
      summary: database ? `database db-${n % 5} slow (${n})` : `disk at ${50 + (n % 50)}% on web-${n % 4}`,
      source: database ? `db-${n % 5}` : `web-${n % 4}`,
      severity: SEVERITIES[n % 4],
      component: database ? "postgres" : "disk",
      custom_details: {
        ...(n % 10 === 9 ? { kind: "noise" } : { kind: "signal" }),
        seq: n,
        ...(n % 4 === 1 ? { user_email: `oncall${n}@example.com`, api_token: `tok-${n}-abcdefgh`, note: `ask ops${n}@example.com at 10.1.2.${n % 250}` } : {}),
        ...(n % 4 === 2 ? { host: `192.168.7.${n % 250}` } : {}),
      },
    },
  };
}

/**
 * Sends `count` events through a new service of the emulator's first account (named `name`
 * when given: the cases expect the service by name, so a replay's program names its service so),
 * a minute apart on its clock; returns them with their traces, and the window they fall in.
 */
export async function makeTraffic(e: Emu, api: Client, count = 300, name?: string): Promise<Traffic> {
  const p1 = (await api.get("/priorities")).json.priorities.find((p: Json) => p.name === "P1").id as string;
  const serviceId = await createService(e, api, {
    incident_urgency_rule: { type: "constant", urgency: "severity_based" },
    ...(name ? { name } : {}),
  });
  const serviceName = (await api.get(`/services/${serviceId}`)).json.service.name as string;
  const integration = await api.post(`/services/${serviceId}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } });
  const routingKey = integration.json.integration.integration_key as string;
  const put = await api.put(`/event_orchestrations/services/${serviceId}`, {
    orchestration_path: { sets: [{ id: "start", rules: rules(p1) }], catch_all: { actions: {} } },
  });
  if (put.status !== 200) throw new Error(`orchestration: ${put.status} ${put.text}`);
  await api.put(`/event_orchestrations/services/${serviceId}/active`, { active: true });

  const emu = emulatorAt({ url: e.url, adminToken: e.adminToken });
  try {
    const since = new Date(await emu.now()).toISOString();
    const sent: SentEvent[] = [];
    for (let i = 0; i < count; i++) {
      await emu.moveClockTo((await emu.now()) + 60_000);
      const { dedup_key, payload } = trafficEvent(i);
      const trace = await emu.send({ routing_key: routingKey, event_action: "trigger", dedup_key, payload });
      sent.push({ dedup_key, at: (trace as Trace & { received_at: string }).received_at, trace });
    }
    const until = new Date((await emu.now()) + 60_000).toISOString();
    return { serviceId, serviceName, routingKey, since, until, sent };
  } finally {
    await emu.close();
  }
}

/** The environment the record command reads the emulator's first account from (its seeded app). */
export const accountEnv = (e: Emu): NodeJS.ProcessEnv => ({
  PAGERDUTY_CLIENT_ID: e.seed.oauth.clientId,
  PAGERDUTY_CLIENT_SECRET: e.seed.oauth.clientSecret,
  PAGERDUTY_SUBDOMAIN: e.seed.account.subdomain,
  PAGERDUTY_API_URL: e.apiUrl,
  PAGERDUTY_AUTH_URL: e.authUrl,
});

/** What a bin wrote. */
export interface Ran {
  code: number;
  out: string;
  err: string;
}

export async function run(command: Parameters<typeof runCommand>[0], argv: string[]): Promise<Ran> {
  let out = "";
  let err = "";
  const terminal: Terminal = { out: (t) => void (out += t), say: (l) => void (err += `${l}\n`) };
  const code = await runCommand(command, argv, terminal);
  return { code, out, err };
}

/** Records the traffic's window with the real command (`extra`: more flags); the file's path and the run. */
export async function recordTraffic(e: Emu, t: Traffic, extra: string[] = [], integration: string = "alerts"): Promise<{ file: string; ran: Ran }> {
  const file = join(mkdtempSync(join(tmpdir(), "ppd-record-")), "recorded.yaml");
  const argv = ["--service", `${t.serviceId}=${integration}`, "--since", t.since, "--until", t.until, "--out", file, ...extra];
  return { file, ran: await run(recordCommand({ env: accountEnv(e) }), argv) };
}

/**
 * Traffic made and recorded on `e`: what a replay test starts from. The file's cases send to
 * `integration` (a stack output or ServiceIntegration of the replayed program) and expect the
 * service `serviceName`; 300 events make about 230 cases (suppressed and deduplicated ones are not
 * served by the REST API, so not recorded).
 */
export async function recordedTraffic(
  e: Emu,
  api: Client,
  opts: { count?: number; serviceName?: string; integration?: string } = {},
): Promise<Traffic & { file: string }> {
  const t = await makeTraffic(e, api, opts.count ?? 300, opts.serviceName);
  const { file, ran } = await recordTraffic(e, t, [], opts.integration ?? "alerts");
  if (ran.code !== 0) throw new Error(`record failed (${ran.code}): ${ran.err}`);
  return { ...t, file };
}

/** Injects a fault into the emulator (its admin API). */
export const fault = (e: Emu, spec: Json) => admin(e, "POST", "/faults", spec);

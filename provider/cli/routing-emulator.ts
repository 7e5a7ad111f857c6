// The emulator a routing test runs against: where it is (its ready line's file, or a URL with the
// admin token from the environment, never from argv), and the calls the test makes. Events go to
// the Events API as a monitoring tool sends them; the rest are admin calls (the event's trace, the
// clock, a service's events reset, a dry run to learn an integration's service). The routing key
// travels in the event's body only, and no message repeats it.
import { readFileSync } from "node:fs";
import { Agent, type Dispatcher, request } from "undici";
import { isLoopback } from "../config";
import { InsecureUrlError, PagerDutyError, scrub } from "../errors";

/** The emulator's admin header (emulator/src/admin.ts; tests/unit/provider/cli/routing-emulator.test.ts holds the two equal). */
export const ADMIN_HEADER = "x-emulator-admin-token";
/** The reply header of `POST /v2/enqueue` naming the event's trace (emulator/src/kinds/alert/process.ts; held equal by the same test). */
export const EVENT_ID_HEADER = "x-emulator-event-id";
/** The environment variables a run without --emulator reads. */
export const URL_ENV = "PAGERDUTY_EMULATOR_URL";
export const TOKEN_ENV = "PAGERDUTY_EMULATOR_ADMIN_TOKEN";

export class EmulatorError extends PagerDutyError {
  constructor(message: string) {
    super("ERR_EMULATOR", message);
    this.name = "EmulatorError";
  }
}

/** Where the emulator is: its origin, admin token and, with --tls, the CA to trust. */
export interface EmulatorTarget {
  url: string;
  adminToken: string;
  caFile?: string;
}

/** The target the ready line in `file` names (the one JSON line `pagerduty-emulator` prints). */
export function targetFromReadyLine(file: string): EmulatorTarget {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(readFileSync(file, "utf8").trim().split("\n")[0] ?? "");
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "it does not start with the emulator's JSON ready line";
    throw new EmulatorError(`--emulator ${file}: ${why}`);
  }
  if (typeof line.url !== "string" || typeof line.adminToken !== "string")
    throw new EmulatorError(`--emulator ${file}: the ready line has no "url" and "adminToken" (is it pagerduty-emulator's?)`);
  return { url: origin(`the "url" of ${file}`, line.url), adminToken: line.adminToken, ...(typeof line.caFile === "string" ? { caFile: line.caFile } : {}) };
}

/** The target of a URL (flag or PAGERDUTY_EMULATOR_URL) and PAGERDUTY_EMULATOR_ADMIN_TOKEN. */
export function targetFromEnvironment(url: string | undefined, env: NodeJS.ProcessEnv): EmulatorTarget {
  const given = url ?? env[URL_ENV];
  const adminToken = env[TOKEN_ENV];
  if (!given) throw new EmulatorError(`no emulator: give --emulator FILE (its ready line), or --url URL (or ${URL_ENV}) with ${TOKEN_ENV}`);
  if (!adminToken) throw new EmulatorError(`${TOKEN_ENV} is empty: the emulator's admin token (its ready line's "adminToken") is read from there`);
  return { url: origin(url ? "--url" : URL_ENV, given), adminToken };
}

/**
 * An emulator's (or an Events API's) origin: https, or plain http to a loopback host (an admin token
 * or a routing key must not cross a network in clear), and no credentials in it.
 */
export function origin(setting: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new EmulatorError(`${setting} ${JSON.stringify(raw)} is not a URL`);
  }
  if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopback(u.hostname))) throw new InsecureUrlError(setting, raw);
  if (u.username || u.password) throw new EmulatorError(`${setting}: a URL with credentials in it is refused (they would show in messages)`);
  return raw.replace(/\/+$/, "");
}

// ---- what the emulator answers (emulator/src/pcl/trace.ts; the parts this command reads) ----

/** A value a condition read: a path (found or not), `now`, a trigger count. */
export interface ValueRead {
  what: string;
  found: boolean;
  value: unknown;
}

export interface ConditionTrace {
  index: number;
  expression: string;
  matched: boolean;
  warnings: string[];
  /** Absent from an emulator older than the trace's reads. */
  reads?: ValueRead[];
  error?: string;
}

export interface RuleTrace {
  index: number;
  id: string;
  label: string | null;
  result: "matched" | "not_matched" | "disabled";
  conditions: ConditionTrace[];
}

export interface SetTrace {
  set: string;
  rules: RuleTrace[];
  matched: { id: string; label: string | null; index: number } | null;
  catch_all: boolean;
  route_to: string | null;
}

export interface ActionTrace {
  set: string;
  rule_id: string | null;
  action: string;
  value: unknown;
  warnings?: string[];
}

export interface RoutingResult {
  event_action: "trigger" | "acknowledge" | "resolve";
  dedup_key: string;
  summary: string | null;
  severity: string | null;
  urgency: "high" | "low";
  suppress: boolean;
  suspend: number | null;
  priority: { id: string; name: string | null } | null;
  escalation_policy: { id: string; name: string | null } | null;
  annotations: string[];
  incident_custom_fields: { id: string; value: string }[];
  variables: Record<string, string>;
}

export interface Outcome {
  kind: string;
  message: string;
  incident: { id: string; number: number; status: string; urgency: string } | null;
  alert: { id: string; suppressed: boolean; status: string; severity?: string } | null;
}

export interface Trace {
  id: string;
  service: { id: string; name: string };
  orchestration: { version: number } | null;
  cache_variables: { name: string; type: string; matched: boolean | null; value: unknown; warnings: string[] }[];
  sets: SetTrace[];
  actions: ActionTrace[];
  result: RoutingResult;
  outcome: Outcome;
  problems: { set: string | null; rule_id: string | null; where: string; expression?: string; message: string }[];
  /** The emulator's own choices (PagerDuty's pages are silent) that decided the outcome. */
  assumed?: { id: string; text: string }[];
}

/** An Events API v2 event as sent: the routing key, and the rest of the case's event. */
export interface OutgoingEvent {
  routing_key: string;
  event_action: string;
  dedup_key?: string;
  payload?: Record<string, unknown>;
}

/** The calls a routing test makes. */
export interface EmulatorClient {
  /** The trace of a dry run of `event`: its service, without changing anything. */
  dryRun(event: OutgoingEvent): Promise<Trace>;
  /** Forgets what events did to the service (POST /_emulator/services/{id}/events/reset). */
  resetEvents(serviceId: string): Promise<void>;
  /** The emulator's clock (epoch ms). */
  now(): Promise<number>;
  /** Moves the clock forward to `ms`. */
  moveClockTo(ms: number): Promise<void>;
  /** Sends the event to the Events API; resolves to its trace. */
  send(event: OutgoingEvent): Promise<Trace>;
  close(): Promise<void>;
}

/** The emulator at `target`; `dispatcher` replaces the connection (tests). */
export function emulatorAt(target: EmulatorTarget, dispatcher?: Dispatcher): EmulatorClient {
  const agent = dispatcher ?? (target.caFile ? new Agent({ connect: { ca: readFileSync(target.caFile) } }) : new Agent());
  const secrets: string[] = [target.adminToken];

  async function call<T>(method: Dispatcher.HttpMethod, path: string, body?: unknown, admin = true): Promise<{ body: T; headers: Record<string, unknown> }> {
    const what = `${method} ${path.split("?")[0]}`;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(target.url + path, {
        dispatcher: agent,
        method,
        headers: { ...(admin ? { [ADMIN_HEADER]: target.adminToken } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new EmulatorError(`the emulator at ${target.url} cannot be reached (${what}): ${scrub((e as Error).message, secrets)}`);
    }
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.statusCode >= 300) throw new EmulatorError(`${what} answered ${res.statusCode}: ${scrub(reason(parsed, text), secrets)}`);
    return { body: parsed as T, headers: res.headers };
  }

  const traceOf = (id: string) => call<Trace>("GET", `/_emulator/events/${encodeURIComponent(id)}/trace`).then((r) => r.body);

  return {
    async dryRun(event) {
      secrets.push(event.routing_key);
      return (await call<Trace>("POST", "/_emulator/events/dry-run", event)).body;
    },
    async resetEvents(serviceId) {
      await call("POST", `/_emulator/services/${encodeURIComponent(serviceId)}/events/reset`);
    },
    async now() {
      return Date.parse((await call<{ now: string }>("GET", "/_emulator/clock")).body.now);
    },
    async moveClockTo(ms) {
      await call("POST", "/_emulator/clock", { at: new Date(ms).toISOString() });
    },
    async send(event) {
      secrets.push(event.routing_key);
      const { headers } = await call("POST", "/v2/enqueue", event, false);
      const id = headers[EVENT_ID_HEADER];
      if (typeof id !== "string")
        throw new EmulatorError(`POST /v2/enqueue answered without ${EVENT_ID_HEADER}: is ${target.url} pagerduty-emulator with routing?`);
      return traceOf(id);
    },
    close: () => (dispatcher ? Promise.resolve() : agent.close()),
  };
}

/** What an error reply says: the REST error's message and errors, the Events API's, or its text. */
function reason(body: unknown, text: string): string {
  const b = body as { error?: { message?: string; errors?: string[] }; message?: string; errors?: string[] } | undefined;
  const parts = b?.error ? [b.error.message, ...(b.error.errors ?? [])] : b?.message ? [b.message, ...(b.errors ?? [])] : [text.slice(0, 200)];
  return parts.filter(Boolean).join("; ");
}

// Events API v2: `POST /v2/enqueue`, as PagerDuty's events host answers it (events.pagerduty.com;
// events.eu.pagerduty.com is `/eu/v2/enqueue` here, as the EU REST host is `/eu`). No Authorization:
// the body's `routing_key` is an events integration's `integration_key`. The event is checked here
// and answered 202 (the route: kinds/alert/); what it does (its service's orchestration, alerts,
// incidents) is process.ts's: a disabled service or one in maintenance opens nothing and changes
// nothing, yet the event is accepted. The reply's `x-emulator-event-id` header names the event's
// trace (`/_emulator/events`).
import { EventError } from "../../errors";
import { SEVERITIES, type Severity } from "../incident/model";
import { isObject, type Json } from "../../validate";

export const EVENTS_PATH = "/v2/enqueue";
const ACTIONS = ["trigger", "acknowledge", "resolve"] as const;
type Action = (typeof ACTIONS)[number];
const KEY_LENGTH = 32;
const MAX_DEDUP_KEY = 255;
/** Longer summaries are cut, not refused (the service documents 1024 as the maximum it keeps). */
const MAX_SUMMARY = 1024;

interface Event {
  routing_key?: string;
  event_action: Action;
  dedup_key?: string;
  summary: string;
  severity: Severity;
}

const quoteList = (values: readonly string[]) =>
  `${values
    .slice(0, -1)
    .map((v) => `'${v}'`)
    .join(", ")} or '${values[values.length - 1]}'`;

/**
 * Every problem of the event, each naming its field (the service's wording); the key's value is
 * never echoed. A dry run naming its service may leave the routing key out (`routingKey: false`).
 */
export function parseEvent(body: unknown, opts: { routingKey: boolean } = { routingKey: true }): Event {
  if (!isObject(body)) throw new EventError("invalid_event", ["The event must be a JSON object"]);
  const errors: string[] = [];
  const text = (o: Json, key: string, path = key): string | undefined => {
    const v = o[key];
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return undefined;
    if (typeof v !== "string") errors.push(`'${path}' must be a string`);
    return typeof v === "string" ? v : undefined;
  };
  const required = (o: Json, key: string, path = key): string | undefined => {
    const v = text(o, key, path);
    if (v === undefined && (o[key] === undefined || o[key] === null || typeof o[key] === "string")) errors.push(`'${path}' is missing or blank`);
    return v;
  };

  const key = opts.routingKey || body.routing_key !== undefined ? required(body, "routing_key") : undefined;
  if (key !== undefined) {
    if (key.length !== KEY_LENGTH) errors.push(`Length of 'routing_key' is incorrect (should be ${KEY_LENGTH} characters)`);
    if (!/^[A-Za-z0-9]*$/.test(key)) errors.push("'routing_key' cannot contain non-alphanumeric characters.");
  }
  const action = required(body, "event_action");
  if (action !== undefined && !(ACTIONS as readonly string[]).includes(action))
    errors.push(`'event_action' is invalid (must be one of the following: ${quoteList(ACTIONS)})`);
  const dedup = action === "acknowledge" || action === "resolve" ? required(body, "dedup_key") : text(body, "dedup_key");
  if (dedup !== undefined && dedup.length > MAX_DEDUP_KEY) errors.push(`'dedup_key' is too long (maximum is ${MAX_DEDUP_KEY} characters)`);

  let summary = "";
  let severity: Severity = "critical";
  if (action === "trigger") {
    const p = body.payload;
    if (!isObject(p)) errors.push("'payload' is missing or blank");
    else {
      summary = (required(p, "summary", "payload.summary") ?? "").slice(0, MAX_SUMMARY);
      required(p, "source", "payload.source");
      const sev = required(p, "severity", "payload.severity");
      if (sev !== undefined && !(SEVERITIES as readonly string[]).includes(sev))
        errors.push(`'payload.severity' is invalid (must be one of the following: ${quoteList(["critical", "warning", "error", "info"])})`);
      else if (sev !== undefined) severity = sev as Severity;
      const at = text(p, "timestamp", "payload.timestamp");
      if (at !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(at) || Number.isNaN(Date.parse(at))))
        errors.push("'payload.timestamp' is invalid (must be an ISO 8601 date and time)");
      for (const k of ["component", "group", "class"]) text(p, k, `payload.${k}`);
    }
  }
  if (errors.length) throw new EventError("invalid_event", errors);
  return { routing_key: key, event_action: action as Action, dedup_key: dedup, summary, severity };
}

// An Events API v2 event as orchestration rules read and change it: `event` holds its PD-CEF fields
// (PagerDuty's Common Event Format: `payload.summary` is `event.summary`, and `dedup_key` comes up
// beside them), `raw_event` the body as it was sent, less its routing key (a secret: rules never see
// it, and neither do traces). Extractions write PD-CEF fields and custom details. Beside them `event`
// has `event_action` ("Event Orchestration Examples" conditions on it; an `event_action` action
// changes it), which rules read and extractions cannot write.
import type { PathNode } from "./pcl-ast";

type Json = Record<string, unknown>;

/** The PD-CEF fields of `event`; a rule's path under `event.` names one of these first. */
export const CEF_FIELDS = ["summary", "source", "severity", "timestamp", "component", "group", "class", "custom_details", "dedup_key"] as const;

export interface RoutedEvent {
  event: Json;
  raw_event: Json;
}

const MAX_SUMMARY = 1024;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The event a body makes, received at `receivedAt` (ISO): `timestamp` defaults to it. */
export function routedEvent(body: Json, dedupKey: string, receivedAt: string): RoutedEvent {
  const { routing_key: _secret, ...raw_event } = body;
  const payload = isObject(body.payload) ? body.payload : undefined;
  const event: Json = {};
  if (payload) {
    for (const k of CEF_FIELDS) if (k !== "dedup_key" && payload[k] !== undefined && payload[k] !== null) event[k] = structuredClone(payload[k]);
    event.timestamp ??= receivedAt;
    // The Events API keeps the first 1024 characters of a summary (events-api.ts).
    if (typeof event.summary === "string") event.summary = event.summary.slice(0, MAX_SUMMARY);
  }
  event.dedup_key = dedupKey;
  if (typeof body.event_action === "string") event.event_action = body.event_action;
  return { event, raw_event };
}

/**
 * Set `path` (an extraction's target) to `value`: `event.<field>` or a field under
 * `event.custom_details` (made an object when it is not one). Returns why it cannot, or undefined.
 */
export function setEventPath(event: Json, path: PathNode, value: string): string | undefined {
  if (path.root !== "event" || !path.elements.length) return `${path.text} is not a field of the event (event.<field>)`;
  const [field, ...rest] = path.elements;
  if (!(CEF_FIELDS as readonly unknown[]).includes(field)) return `${path.text} is not a PD-CEF field (${CEF_FIELDS.join(", ")})`;
  if (!rest.length) {
    event[field as string] = value;
    return undefined;
  }
  if (field !== "custom_details") return `${path.text}: only custom_details has fields of its own`;
  let at: Json = isObject(event.custom_details) ? event.custom_details : (event.custom_details = {});
  for (const [i, el] of rest.entries()) {
    if (typeof el === "number") return `${path.text}: an extraction cannot write into a list`;
    if (i === rest.length - 1) at[el] = value;
    else at = isObject(at[el]) ? (at[el] as Json) : (at[el] = {});
  }
  return undefined;
}

/** The alert's `body` as PagerDuty serves an Events API v2 alert: the PD-CEF fields in `cef_details`, custom details in `details`. */
export function alertBody(event: Json, raw: Json) {
  const contexts = [...(Array.isArray(raw.links) ? raw.links : []), ...(Array.isArray(raw.images) ? raw.images : [])];
  const details = event.custom_details ?? null;
  return {
    type: "alert_body",
    contexts,
    details,
    cef_details: {
      client: raw.client ?? null,
      client_url: raw.client_url ?? null,
      contexts,
      creation_time: event.timestamp ?? null,
      dedup_key: event.dedup_key ?? null,
      description: event.summary ?? null,
      details,
      event_class: event.class ?? null,
      message: event.summary ?? null,
      service_group: event.group ?? null,
      severity: event.severity ?? null,
      source_component: event.component ?? null,
      source_location: event.source ?? null,
      source_origin: event.source ?? null,
      summary: event.summary ?? null,
      version: "1.0",
    },
  };
}

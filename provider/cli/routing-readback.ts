// What PagerDuty did to events, read back through its public REST API: the incidents of services
// over a window (`GET /incidents`, offset pages), each incident's alerts with their bodies
// (`GET /incidents/{id}/alerts`) and its notes (`GET /incidents/{id}/notes`), turned into the
// events as they arrived and their outcomes (routing-outcome.ts). `record` writes them as cases;
// `parity` compares them with the emulator's traces. Every call needs `incidents.read` alone
// (`x-pd-requires-scope` of these endpoints); the service's name needs `services.read`.
//
// The API serves alerts only under their incident: a suppressed alert, which opens none, is not
// served, and neither is a trigger deduplicated into an open alert (the alert keeps the first).
import type { ApiClient } from "../http/client";
import { INCIDENTS, INCIDENTS_READ, incidentAlertsPath, incidentNotesPath, READ, servicePath } from "../kernel/api-paths";
import { MAX_PAGE } from "../kernel/pages";
import type { RoutingEvent } from "./routing-cases";
import type { EventOutcome } from "./routing-outcome";

export const READ_SCOPES: readonly string[] = [...INCIDENTS_READ, ...READ];

interface Ref {
  id: string;
  summary?: string | null;
  name?: string | null;
}

/** The fields of an incident the readback uses (the description's Incident). */
export interface ApiIncident {
  id: string;
  incident_number: number;
  created_at: string;
  status?: "triggered" | "acknowledged" | "resolved";
  urgency: "high" | "low";
  incident_key?: string | null;
  service: Ref;
  priority?: Ref | null;
  escalation_policy?: Ref | null;
}

/** The fields of an alert the readback uses: `body.cef_details` is the event as PagerDuty kept it. */
export interface ApiAlert {
  id: string;
  created_at: string;
  status?: "triggered" | "resolved";
  resolved_at?: string | null;
  alert_key: string;
  severity: string;
  suppressed?: boolean;
  service?: Ref;
  incident?: Ref | null;
  body?: { details?: unknown; cef_details?: Record<string, unknown> } | null;
}

export interface ApiNote {
  content: string;
  created_at: string;
  user?: Ref | null;
}

/** An incident with its alerts (oldest first) and its notes. */
export interface ReadIncident {
  incident: ApiIncident;
  alerts: ApiAlert[];
  notes: ApiNote[];
}

/** A reference's name as outcomes show it: its name, else its summary, else its id. */
export const refName = (r: Ref | null | undefined): string | null => (r ? (r.name ?? r.summary ?? r.id) : null);

/** A window of the incident listing. */
export interface Window {
  serviceIds: readonly string[];
  since: Date;
  until: Date;
}

/**
 * The incidents of the window's services created in it, oldest first, at most `max` (the listing
 * pages are read until then: `limit` 100, `offset` on, while `more`).
 */
export async function incidentsIn(client: ApiClient, w: Window, max: number): Promise<{ incidents: ApiIncident[]; more: boolean }> {
  const incidents: ApiIncident[] = [];
  for (;;) {
    const page = await client.request<{ incidents?: ApiIncident[]; more?: boolean }>("GET", INCIDENTS, {
      query: {
        "service_ids[]": [...w.serviceIds],
        since: w.since.toISOString(),
        until: w.until.toISOString(),
        sort_by: "created_at:asc",
        time_zone: "UTC",
        limit: MAX_PAGE,
        offset: incidents.length,
      },
      scopes: INCIDENTS_READ,
    });
    const batch = page?.incidents ?? [];
    incidents.push(...batch);
    if (incidents.length >= max) return { incidents: incidents.slice(0, max), more: incidents.length > max || page?.more === true };
    if (page?.more !== true || batch.length === 0) return { incidents, more: false };
  }
}

/** Every item of an incident's offset-paged sub-listing. */
async function everyPage<T>(client: ApiClient, path: string, key: string): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const page = await client.request<Record<string, unknown>>("GET", path, { query: { limit: MAX_PAGE, offset: items.length }, scopes: INCIDENTS_READ });
    const batch = (page?.[key] ?? []) as T[];
    items.push(...batch);
    if (page?.more !== true || batch.length === 0) return items;
  }
}

/** An incident's alerts, oldest first, and its notes. */
export async function readIncident(client: ApiClient, incident: ApiIncident): Promise<ReadIncident> {
  const [alerts, notes] = await Promise.all([
    everyPage<ApiAlert>(client, incidentAlertsPath(incident.id), "alerts"),
    everyPage<ApiNote>(client, incidentNotesPath(incident.id), "notes"),
  ]);
  return { incident, alerts: [...alerts].sort(byCreation), notes: notes.filter((n) => !n.user).sort(byCreation) };
}

const byCreation = (a: { created_at: string }, b: { created_at: string }) => Date.parse(a.created_at) - Date.parse(b.created_at);

const SEVERITIES = ["critical", "error", "warning", "info"];
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The trigger event an alert was made by, as far as its body tells (PD-CEF: `summary`,
 * `source_location`, `severity`, `source_component`, `service_group`, `event_class`, `details`,
 * `creation_time`), with the alert's key as the dedup key. The body is the event after the
 * orchestration's changes (a severity or extraction it applied is what the body shows).
 */
export function eventOfAlert(a: ApiAlert): RoutingEvent {
  const cef = a.body?.cef_details ?? {};
  const details = cef.details ?? a.body?.details;
  const severity = text(cef.severity) ?? a.severity;
  return {
    event_action: "trigger",
    dedup_key: a.alert_key,
    summary: (text(cef.summary) ?? text(cef.message) ?? text(cef.description) ?? "(no summary)").slice(0, 1024),
    source: text(cef.source_location) ?? text(cef.source_origin) ?? "(no source)",
    severity: (SEVERITIES.includes(severity) ? severity : "critical") as RoutingEvent["severity"],
    ...(text(cef.creation_time) ? { timestamp: cef.creation_time as string } : {}),
    ...(text(cef.source_component) ? { component: cef.source_component as string } : {}),
    ...(text(cef.service_group) ? { group: cef.service_group as string } : {}),
    ...(text(cef.event_class) ? { class: cef.event_class as string } : {}),
    ...(isObject(details) && Object.keys(details).length ? { custom_details: details } : {}),
  };
}

/**
 * What PagerDuty did to the event that made alert `a` of incident `r`: an incident, its service,
 * severity, urgency, priority and escalation policy (none when it is the service's own,
 * `servicePolicy`: the trace names only one a rule set); the notes when this alert opened the
 * incident (its first alert), none when it joined one (the notes are the opener's).
 */
export function outcomeOfAlert(a: ApiAlert, r: ReadIncident, servicePolicy: string | null): EventOutcome {
  const opened = r.alerts[0]?.id === a.id;
  const policy = r.incident.escalation_policy;
  return {
    outcome: a.suppressed ? "suppressed" : "incident",
    service: refName(r.incident.service),
    severity: a.severity,
    urgency: r.incident.urgency,
    priority: refName(r.incident.priority),
    escalation_policy: policy && policy.id !== servicePolicy ? refName(policy) : null,
    annotations: opened ? r.notes.map((n) => n.content) : [],
  };
}

/** The incidents of `key` on a service, whenever made (what parity polls for after sending an event). */
export async function incidentsOfKey(client: ApiClient, serviceId: string, key: string): Promise<ApiIncident[]> {
  const page = await client.request<{ incidents?: ApiIncident[] }>("GET", INCIDENTS, {
    query: { "service_ids[]": [serviceId], incident_key: key, date_range: "all", limit: MAX_PAGE },
    scopes: INCIDENTS_READ,
  });
  return page?.incidents ?? [];
}

/** A service's name and escalation policy id (`GET /services/{id}`). */
export async function serviceOf(client: ApiClient, id: string): Promise<{ id: string; name: string | null; escalationPolicy: string | null }> {
  const res = await client.request<{ service: { id: string; name?: string | null; escalation_policy?: Ref | null } }>("GET", servicePath(id), { scopes: READ });
  return { id: res.service.id, name: res.service.name ?? null, escalationPolicy: res.service.escalation_policy?.id ?? null };
}

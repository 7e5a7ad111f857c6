// Alerts, as the Events API's documentation describes them: a trigger event opens an alert, or adds
// a trigger to the open alert with its dedup key (no second alert); acknowledge and resolve act on
// that alert, and only when sent through the routing key that opened it ("sent via a different
// routing_key ... will be dropped"); once resolved, the key opens a new alert. An alert opens an
// incident, or joins the service's open incident with its key (one open incident per dedup key per
// service); a suppressed alert opens none; a suspended one opens it when its hold ends, unless a
// resolve came first. Resolving an incident (through the REST API too) resolves its alerts. A later
// trigger with a higher severity raises the open alert's severity and, on a service whose urgency
// goes by severity, its incident's urgency (Dynamic Notifications, "Using Severity to Control
// Urgency"); so does an alert of higher severity that joins the incident.
import type { EmulatorCore } from "../../core";
import { reference } from "../../http";
import { assume } from "../../pcl/assumptions";
import { memoryOf, type Outcome } from "../../pcl/trace";
import type { ServiceRecord } from "../../store";
import { dropCacheValues } from "../cache-variable/model";
import { type IncidentRecord, openIncident, openNew, raiseUrgency, type Severity, severityAbove, transition, urgencyFor } from "../incident/model";
import { serviceRef } from "../service/model";

declare module "../../store" {
  interface KindTables {
    alerts: Record<string, AlertRecord>;
    /** Ids of suspended alerts still held (`releaseHeld` triggers them when their time comes). */
    heldAlerts: string[];
  }
}

/**
 * An alert: what a trigger event makes on its service (process.ts). One is open per
 * integration and dedup key; a suppressed one has no incident, a suspended one has none until
 * `heldUntil`, then opens one with `held`.
 */
export interface AlertRecord {
  id: string;
  accountId: string;
  serviceId: string;
  integrationId: string;
  incidentId: string | null;
  alert_key: string;
  status: "triggered" | "resolved";
  suppressed: boolean;
  severity: string;
  summary: string;
  created_at: string;
  resolved_at: string | null;
  /** The alert body as served (PD-CEF fields, custom details, links and images). */
  body: Record<string, unknown>;
  /** Trigger events deduplicated into it, the first included. */
  triggers: number;
  /** The event (trace id) that made it. */
  eventId: string;
  /** Suspended: epoch ms when it triggers, and the incident it then opens. */
  heldUntil?: number;
  held?: IncidentPlan;
  /** Automation actions and webhooks its orchestration named: recorded, never run or sent. */
  recorded?: Record<string, unknown>[];
}

/** What an orchestration decided for the incident an alert opens. */
export interface IncidentPlan {
  title: string;
  severity: string;
  priorityId?: string;
  escalationPolicyId?: string;
  notes: string[];
  customFields: Record<string, string>;
}

export const alertsOf = (core: EmulatorCore, s: ServiceRecord): AlertRecord[] =>
  (s.alertIds ?? []).map((id) => core.state.alerts[id]).filter((a) => a !== undefined);

/** An alert's status: resolved once it or its incident is. */
export function alertStatus(core: EmulatorCore, a: AlertRecord): AlertRecord["status"] {
  if (a.status === "resolved") return "resolved";
  return a.incidentId && core.state.incidents[a.incidentId]?.status === "resolved" ? "resolved" : "triggered";
}

/** The open alert of an integration (undefined: of any) with this dedup key. */
export const openAlert = (core: EmulatorCore, s: ServiceRecord, integrationId: string | undefined, key: string): AlertRecord | undefined =>
  alertsOf(core, s).find(
    (a) => (integrationId === undefined || a.integrationId === integrationId) && a.alert_key === key && alertStatus(core, a) === "triggered",
  );

export function addAlert(
  core: EmulatorCore,
  s: ServiceRecord,
  fields: Omit<AlertRecord, "id" | "accountId" | "serviceId" | "status" | "resolved_at" | "triggers">,
): AlertRecord {
  const a: AlertRecord = { id: core.ids.next(), accountId: s.accountId, serviceId: s.id, status: "triggered", resolved_at: null, triggers: 1, ...fields };
  core.state.alerts[a.id] = a;
  (s.alertIds ??= []).push(a.id);
  if (a.heldUntil !== undefined) core.state.heldAlerts.push(a.id);
  return a;
}

/** The incident an alert triggers (at `at`, epoch ms): the open one with its key, or a new one as `plan` says. */
export function triggerIncident(
  core: EmulatorCore,
  s: ServiceRecord,
  a: AlertRecord,
  plan: IncidentPlan,
  at: number,
): { incident: IncidentRecord; joined: boolean } {
  const open = openIncident(core, s, a.alert_key);
  if (open) {
    a.incidentId = open.id;
    open.alerts.triggered++;
    raiseUrgency(s, open, a.severity, at);
    open.updated_at = core.clock.iso();
    return { incident: open, joined: true };
  }
  const i = openNew(core, s, plan.title, a.alert_key, urgencyFor(s, plan.severity as Severity, at));
  const now = core.clock.iso();
  if (plan.priorityId) i.priorityId = plan.priorityId;
  if (plan.escalationPolicyId) i.escalationPolicyId = plan.escalationPolicyId;
  if (plan.notes.length) i.notes = plan.notes.map((content) => ({ id: core.ids.next(), content, created_at: now }));
  if (Object.keys(plan.customFields).length) i.customFields = { ...plan.customFields };
  core.stats.events.incidentsOpened++;
  a.incidentId = i.id;
  return { incident: i, joined: false };
}

/** What a repeat trigger's severity did to its open alert and incident. */
export interface SeverityChange {
  from: string;
  to: string;
  /** The incident's urgency moved from low to high. */
  urgencyRaised: boolean;
}

/**
 * A deduplicated trigger of `severity` on open alert `a` (at `at`, epoch ms): a higher severity
 * raises the alert's (and a held alert's plan), and may raise its incident's urgency; a lower or
 * equal one changes nothing. `dry`: say what would change, change nothing.
 */
export function raiseSeverity(core: EmulatorCore, s: ServiceRecord, a: AlertRecord, severity: string, at: number, dry: boolean): SeverityChange | undefined {
  if (!severityAbove(severity, a.severity)) return undefined;
  const change = { from: a.severity, to: severity, urgencyRaised: false };
  const i = a.incidentId ? core.state.incidents[a.incidentId] : undefined;
  if (dry) return { ...change, urgencyRaised: !!i && raiseUrgency(s, { ...i }, severity, at) };
  a.severity = severity;
  if (a.held) a.held.severity = severity;
  const cef = a.body.cef_details as Record<string, unknown> | undefined;
  if (cef) cef.severity = severity;
  if (i && raiseUrgency(s, i, severity, at)) {
    change.urgencyRaised = true;
    i.updated_at = core.clock.iso();
  }
  return change;
}

/** Resolve an alert; its incident resolves with its last triggered alert. */
export function resolveAlert(core: EmulatorCore, s: ServiceRecord, a: AlertRecord): IncidentRecord | undefined {
  a.status = "resolved";
  a.resolved_at = core.clock.iso();
  delete a.heldUntil;
  delete a.held;
  core.state.heldAlerts = core.state.heldAlerts.filter((id) => id !== a.id);
  const i = a.incidentId ? core.state.incidents[a.incidentId] : undefined;
  if (!i) return undefined;
  if (i.alerts.triggered > 1) {
    i.alerts = { triggered: i.alerts.triggered - 1, resolved: i.alerts.resolved + 1 };
    i.updated_at = a.resolved_at;
  } else transition(core, i, "resolved", { type: "service", id: s.id });
  return i;
}

export const incidentSummary = (i: IncidentRecord): Outcome["incident"] => ({ id: i.id, number: i.number, status: i.status, urgency: i.urgency });

/** Trigger the suspended alerts whose hold has ended (called before every request: the clock may have moved). */
export function releaseHeld(core: EmulatorCore): void {
  const held = core.state.heldAlerts;
  if (!held.length) return;
  const now = core.clock.now();
  const due = held.filter((id) => (core.state.alerts[id]?.heldUntil ?? 0) <= now);
  if (!due.length) return;
  core.state.heldAlerts = held.filter((id) => !due.includes(id));
  for (const id of due) {
    const a = core.state.alerts[id];
    const s = a && core.state.services[a.serviceId];
    if (!a?.held || !s) continue;
    const at = a.heldUntil ?? now;
    const { incident, joined } = triggerIncident(core, s, a, a.held, at);
    delete a.heldUntil;
    delete a.held;
    const trace = memoryOf(core.state).traces.find((t) => t.id === a.eventId);
    if (trace && (s.status === "disabled" || core.maintenanceOf(s) !== undefined)) assume(trace.assumed, "release-after-disable");
    if (trace)
      trace.released = {
        at: new Date(at).toISOString(),
        outcome: {
          kind: joined ? "alert_added_to_incident" : "incident_opened",
          message: `the suspended alert triggered ${joined ? "and joined" : "and opened"} incident #${incident.number}`,
          incident: incidentSummary(incident),
          alert: { id: a.id, suppressed: false, status: "triggered", severity: a.severity },
        },
      };
  }
}

/** An alert as PagerDuty serves it (`GET /incidents/{id}/alerts`). */
export function renderAlert(core: EmulatorCore, base: string, a: AlertRecord) {
  const s = core.state.services[a.serviceId];
  const i = a.incidentId ? core.state.incidents[a.incidentId] : undefined;
  const integration = core.state.integrations[a.integrationId];
  const self = i ? `${base}/incidents/${i.id}/alerts/${a.id}` : `${base}/alerts/${a.id}`;
  return {
    id: a.id,
    type: "alert",
    summary: a.summary,
    self,
    html_url: `${base}/alerts/${a.id}`,
    created_at: a.created_at,
    status: alertStatus(core, a),
    resolved_at: a.status === "resolved" ? a.resolved_at : (i?.resolved_at ?? null),
    alert_key: a.alert_key,
    service: serviceRef(base, s),
    incident: i ? reference("incident", i.id, `[#${i.number}] ${i.title}`, `${base}/incidents/${i.id}`, `${base}/incidents/${i.id}`) : null,
    suppressed: a.suppressed,
    severity: a.severity,
    integration: integration
      ? reference(integration.type, integration.id, integration.name, `${base}/services/${s.id}/integrations/${integration.id}`)
      : reference("integration", a.integrationId, a.integrationId, null),
    body: a.body,
  };
}

/** A service's alerts go (it is deleted, or events are forgotten). */
export function dropAlerts(core: EmulatorCore, s: ServiceRecord): void {
  const ids = new Set(s.alertIds ?? []);
  for (const id of ids) delete core.state.alerts[id];
  core.state.heldAlerts = core.state.heldAlerts.filter((id) => !ids.has(id));
}

/**
 * Forget what events did to a service, as a fresh emulator would have it: its alerts, incidents,
 * cache variable values and trigger counts go; its traces stay (they are history). A routing test
 * starts each run with this, so a run does not see the open alerts and counts of the one before.
 */
export function forgetEvents(core: EmulatorCore, s: ServiceRecord): { alerts: number; incidents: number } {
  const gone = { alerts: s.alertIds?.length ?? 0, incidents: s.incidentIds?.length ?? 0 };
  for (const id of s.incidentIds ?? []) delete core.state.incidents[id];
  dropAlerts(core, s);
  dropCacheValues(core, s.id);
  s.alertIds = [];
  s.incidentIds = [];
  const counts = memoryOf(core.state).thresholds;
  for (const key of counts.keys()) if (key.startsWith(`${s.id}/`)) counts.delete(key);
  return gone;
}

// Incidents as the state keeps them, and what they make of a service. PagerDuty computes a service's `status` from its
// incidents (the description's `Service.status`): disabled before maintenance before incidents
// (a disabled service with open incidents still shows "disabled"), then critical while any incident
// is triggered, warning while any is acknowledged, else active. An incident's urgency comes from
// the service's urgency rule when it opens.
import type { Principal } from "../../auth";
import { prioritiesOf } from "../../catalog";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { reference } from "../../http";
import type { ServiceRecord } from "../../store";
import { policyRef, policyRefById, serviceRef } from "../service/model";

declare module "../../store" {
  interface KindTables {
    incidents: Record<string, IncidentRecord>;
    /** Last incident number handed out, by account id. */
    incidentNumbers: Record<string, number>;
  }
}

export type IncidentStatus = "triggered" | "acknowledged" | "resolved";

/** Who last changed an incident: the service (events) or a user (REST). */
export interface Agent {
  type: "service" | "user";
  id: string;
}

export interface IncidentRecord {
  id: string;
  accountId: string;
  serviceId: string;
  /** Per account, from 1. */
  number: number;
  title: string;
  status: IncidentStatus;
  urgency: "high" | "low";
  /** The dedup key: an event's `dedup_key`, generated when the trigger had none. */
  incident_key: string;
  created_at: string;
  updated_at: string;
  last_status_change_at: string;
  resolved_at: string | null;
  last_status_change_by: Agent;
  acknowledgements: { at: string; by: Agent }[];
  /** Alerts grouped into it (kinds/alert/model.ts keeps the alerts themselves). */
  alerts: { triggered: number; resolved: number };
  /** What an event orchestration set when it opened (kinds/alert/process.ts): a priority id, an escalation policy id instead of the service's. */
  priorityId?: string;
  escalationPolicyId?: string;
  /** Notes (`annotate`), oldest first. */
  notes?: { id: string; content: string; created_at: string }[];
  /** Incident custom field values an orchestration set, by field id. */
  customFields?: Record<string, string>;
}

export const SEVERITIES = ["critical", "error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];
export type Urgency = IncidentRecord["urgency"];

interface UrgencyPart {
  urgency?: string;
}
interface UrgencyRule extends UrgencyPart {
  type?: string;
  during_support_hours?: UrgencyPart;
  outside_support_hours?: UrgencyPart;
}
interface SupportHours {
  time_zone: string;
  start_time: string;
  end_time: string;
  days_of_week: number[];
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Whether `at` (epoch ms) falls within the support hours, read in their time zone; day 1 is Monday. */
export function inSupportHours(h: SupportHours, at: number): boolean {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: h.time_zone,
    hourCycle: "h23",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = WEEKDAYS.indexOf(part("weekday")) + 1;
  const time = `${part("hour")}:${part("minute")}:${part("second")}`;
  return h.days_of_week.includes(day) && time >= h.start_time && time < h.end_time;
}

/** Dynamic notifications: critical and error alerts open high-urgency incidents, warning and info low ones. */
const bySeverity = (severity: Severity): Urgency => (severity === "critical" || severity === "error" ? "high" : "low");

/** The urgency of an incident a `severity` event opens on `s` at `at`. */
export function urgencyFor(s: ServiceRecord, severity: Severity, at: number): Urgency {
  const rule = (s.incident_urgency_rule ?? {}) as UrgencyRule;
  const hours = s.support_hours as SupportHours | null;
  const part = rule.type === "use_support_hours" ? (hours && inSupportHours(hours, at) ? rule.during_support_hours : rule.outside_support_hours) : rule;
  const urgency = part?.urgency;
  return urgency === "severity_based" ? bySeverity(severity) : urgency === "low" ? "low" : "high";
}

/** Whether severity `a` is above `b` (critical > error > warning > info; anything else is below info). */
export function severityAbove(a: string, b: string): boolean {
  const rank = (v: string) => {
    const i = (SEVERITIES as readonly string[]).indexOf(v);
    return i < 0 ? SEVERITIES.length : i;
  };
  return rank(a) < rank(b);
}

/**
 * Raise incident `i`'s urgency to what an alert of `severity` calls for at `at`, when the service's
 * urgency rule then goes by severity (Dynamic Notifications): low to high, never down. Returns
 * whether it moved.
 */
export function raiseUrgency(s: ServiceRecord, i: IncidentRecord, severity: string, at: number): boolean {
  if (i.urgency === "high" || !(SEVERITIES as readonly string[]).includes(severity)) return false;
  // By severity only when the rule's answer depends on it: the lowest severity would give low.
  if (urgencyFor(s, severity as Severity, at) !== "high" || urgencyFor(s, "info", at) !== "low") return false;
  i.urgency = "high";
  return true;
}

export function incidentsOf(core: EmulatorCore, s: ServiceRecord): IncidentRecord[] {
  return (s.incidentIds ?? []).map((id) => core.state.incidents[id]).filter((i) => i !== undefined);
}

export function serviceStatus(core: EmulatorCore, s: ServiceRecord): string {
  if (s.status === "disabled") return "disabled";
  if (core.maintenanceOf(s) !== undefined) return "maintenance";
  let acknowledged = false;
  for (const i of incidentsOf(core, s)) {
    if (i.status === "triggered") return "critical";
    if (i.status === "acknowledged") acknowledged = true;
  }
  return acknowledged ? "warning" : "active";
}

/** `last_incident_timestamp`: when the newest incident was created, or null. */
export function lastIncidentAt(core: EmulatorCore, s: ServiceRecord): string | null {
  const ids = s.incidentIds ?? [];
  return ids.length ? (core.state.incidents[ids[ids.length - 1]]?.created_at ?? null) : null;
}

/** The open (not resolved) incident of `s` with this dedup key. */
export const openIncident = (core: EmulatorCore, s: ServiceRecord, key: string): IncidentRecord | undefined =>
  incidentsOf(core, s).find((i) => i.status !== "resolved" && i.incident_key === key);

export function openNew(core: EmulatorCore, s: ServiceRecord, title: string, key: string, urgency: Urgency): IncidentRecord {
  const now = core.clock.iso();
  const number = (core.state.incidentNumbers[s.accountId] ?? 0) + 1;
  core.state.incidentNumbers[s.accountId] = number;
  const i: IncidentRecord = {
    id: core.ids.next(),
    accountId: s.accountId,
    serviceId: s.id,
    number,
    title,
    status: "triggered",
    urgency,
    incident_key: key,
    created_at: now,
    updated_at: now,
    last_status_change_at: now,
    resolved_at: null,
    last_status_change_by: { type: "service", id: s.id },
    acknowledgements: [],
    alerts: { triggered: 1, resolved: 0 },
  };
  core.state.incidents[i.id] = i;
  (s.incidentIds ??= []).push(i.id);
  return i;
}

/** Move an incident to `to` (a resolved one reopens); false when it already was there. */
export function transition(core: EmulatorCore, i: IncidentRecord, to: IncidentStatus, by: Agent): boolean {
  if (i.status === to) return false;
  const now = core.clock.iso();
  i.status = to;
  i.updated_at = now;
  i.last_status_change_at = now;
  i.last_status_change_by = by;
  // The description: acknowledgements are listed only while the incident is acknowledged.
  i.acknowledgements = to === "acknowledged" ? [{ at: now, by }] : [];
  i.resolved_at = to === "resolved" ? now : null;
  if (to === "resolved") i.alerts = { triggered: 0, resolved: i.alerts.triggered + i.alerts.resolved };
  return true;
}

function agentRef(core: EmulatorCore, base: string, a: Agent) {
  if (a.type === "user") return reference("user", a.id, core.state.users[a.id]?.name ?? a.id, `${base}/users/${a.id}`, `${base}/users/${a.id}`);
  const s = core.state.services[a.id];
  return s ? serviceRef(base, s) : reference("service", a.id, a.id, null);
}

export function renderIncident(core: EmulatorCore, base: string, i: IncidentRecord, full?: (s: ServiceRecord) => unknown) {
  const s = core.state.services[i.serviceId];
  const self = `${base}/incidents/${i.id}`;
  return {
    id: i.id,
    type: "incident",
    summary: `[#${i.number}] ${i.title}`,
    self,
    html_url: self,
    incident_number: i.number,
    title: i.title,
    created_at: i.created_at,
    updated_at: i.updated_at,
    status: i.status,
    incident_key: i.incident_key,
    service: full ? full(s) : serviceRef(base, s),
    assignments: [],
    assigned_via: "escalation_policy",
    last_status_change_at: i.last_status_change_at,
    last_status_change_by: agentRef(core, base, i.last_status_change_by),
    resolved_at: i.resolved_at,
    alert_counts: { all: i.alerts.triggered + i.alerts.resolved, triggered: i.alerts.triggered, resolved: i.alerts.resolved },
    is_mergeable: true,
    incident_type: { name: "incident_default" },
    escalation_policy: i.escalationPolicyId ? policyRefById(core, base, i.escalationPolicyId) : policyRef(core, base, s),
    teams: [],
    pending_actions: [],
    acknowledgements: i.acknowledgements.map((a) => ({ at: a.at, acknowledger: agentRef(core, base, a.by) })),
    priority: priorityRef(base, i),
    resolve_reason: null,
    incidents_responders: [],
    responder_requests: [],
    urgency: i.urgency,
  };
}

/** An incident of the caller's account by id or by incident number (the description accepts both). */
export function findIncident(core: EmulatorCore, p: Principal, key: string): IncidentRecord {
  const byId = core.state.incidents[key];
  const i =
    byId?.accountId === p.accountId
      ? byId
      : /^\d+$/.test(key)
        ? Object.values(core.state.incidents).find((x) => x.accountId === p.accountId && x.number === Number(key))
        : undefined;
  if (!i) throw notFound(`Incident ${key}`);
  return i;
}

/** What an orchestration adds to an incident's representation: its priority (one of the account's, GET /priorities), null when no rule set one. */
function priorityRef(base: string, i: IncidentRecord) {
  const p = i.priorityId ? prioritiesOf(i.accountId, base).find((x) => x.id === i.priorityId) : undefined;
  return p ? reference("priority", p.id, p.name, p.self) : null;
}

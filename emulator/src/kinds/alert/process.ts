// One Events API v2 event, from its body to its outcome: the service's cache variables take it, its
// orchestration (when active) decides what it becomes, and the alert and incident rules of alerts.ts
// carry that out; the trace records why. A dry run goes through the same steps and changes nothing:
// no alert, incident, cache variable value or trigger count.
import { randomUUID } from "node:crypto";
import type { EmulatorCore } from "../../core";
import { prioritiesOf } from "../../catalog";
import { type AlertRecord, addAlert, alertStatus, type IncidentPlan, incidentSummary, openAlert, raiseSeverity, resolveAlert, triggerIncident } from "./model";
import { type Severity, transition, urgencyFor } from "../incident/model";
import type { IntegrationRecord } from "../integration/model";
import { orchestrationOf } from "../orchestration/model";
import type { ServiceRecord } from "../../store";
import { type Assumption, assume } from "../../pcl/assumptions";
import { updateCacheVariables } from "../cache-variable/values";
import { programOf } from "../../pcl/compile";
import { alertBody, type RoutedEvent, routedEvent } from "../../pcl/event-model";
import { type Evaluation, evaluate, type Thresholds } from "../../pcl/evaluate";
import { memoryOf, type Outcome, type Problem, type RoutingResult, remember, type Trace } from "../../pcl/trace";

type Json = Record<string, unknown>;
type Action = RoutingResult["event_action"];

export interface EventInput {
  /** The Events API body as sent (its routing key is never kept). */
  body: Json;
  eventAction: Action;
  /** The event's dedup key, or the one generated for it. */
  dedupKey: string;
}

/** The reply header of `POST /v2/enqueue` naming the event's trace (the body stays PagerDuty's). */
export const EVENT_ID_HEADER = "x-emulator-event-id";

/** Trigger counts live a month at most: no threshold window is longer in practice. */
const THRESHOLD_MEMORY_MS = 31 * 86_400_000;

/** `trigger_count` for one event: reads the rule's counts, and after a real event keeps them. */
function thresholdsFor(core: EmulatorCore, s: ServiceRecord, now: number, isTrigger: boolean) {
  const store = memoryOf(core.state).thresholds;
  const touched = new Set<string>();
  const resets = new Set<string>();
  const api: Thresholds = {
    count(ruleId, seconds) {
      touched.add(ruleId);
      const hits = store.get(`${s.id}/${ruleId}`) ?? [];
      return hits.filter((t) => t > now - seconds * 1000).length + (isTrigger ? 1 : 0);
    },
    reset: (ruleId) => resets.add(ruleId),
  };
  const commit = () => {
    for (const rule of touched) {
      const key = `${s.id}/${rule}`;
      const hits = (store.get(key) ?? []).filter((t) => t > now - THRESHOLD_MEMORY_MS);
      if (isTrigger) hits.push(now);
      store.set(key, resets.has(rule) ? [] : hits);
    }
  };
  return { api, commit };
}

function resultOf(
  core: EmulatorCore,
  s: ServiceRecord,
  ev: Evaluation,
  routed: RoutedEvent,
  dedupKey: string,
  now: number,
  problems: Problem[],
): RoutingResult {
  const d = ev.decision;
  const e = routed.event;
  const severity = typeof e.severity === "string" ? e.severity : null;
  const priority = d.priority === null ? null : { id: d.priority, name: prioritiesOf(s.accountId, "").find((p) => p.id === d.priority)?.name ?? null };
  if (priority && priority.name === null)
    problems.push({
      set: null,
      rule_id: null,
      where: "actions.priority",
      message: `"${priority.id}" is not a priority of the account: the incident gets none`,
    });
  const policy = d.escalation_policy === null ? undefined : core.state.escalationPolicies[d.escalation_policy];
  const escalation_policy = d.escalation_policy === null ? null : { id: d.escalation_policy, name: policy?.accountId === s.accountId ? policy.name : null };
  if (escalation_policy && escalation_policy.name === null)
    problems.push({
      set: null,
      rule_id: null,
      where: "actions.escalation_policy",
      message: `"${escalation_policy.id}" is not an escalation policy of the account: the incident keeps the service's`,
    });
  return {
    event_action: d.event_action,
    dedup_key: typeof e.dedup_key === "string" && e.dedup_key !== "" ? e.dedup_key : dedupKey,
    summary: typeof e.summary === "string" ? e.summary : null,
    severity,
    urgency: urgencyFor(s, (severity ?? "critical") as Severity, now),
    suppress: d.suppress,
    suspend: d.suspend,
    drop: d.drop,
    priority,
    escalation_policy,
    annotations: d.annotations,
    incident_custom_fields: [...d.custom_fields].map(([id, value]) => ({ id, value })),
    automation_actions: d.automation_actions,
    webhooks: d.webhooks,
    variables: d.variables,
    event: e,
  };
}

const alertSummary = (core: EmulatorCore, a: AlertRecord): Outcome["alert"] => ({
  id: a.id,
  suppressed: a.suppressed,
  status: alertStatus(core, a),
  severity: a.severity,
});

/** Actions a deduplicated trigger still uses: they shape the event whose severity is read. */
const SHAPE_THE_EVENT = new Set(["severity", "extraction", "variable"]);

const nothing = (kind: Outcome["kind"], message: string, alert: Outcome["alert"] = null): Outcome => ({ kind, message, incident: null, alert });

/** What the decision makes of the service's alerts and incidents; a dry run says what it would make. */
function enact(
  core: EmulatorCore,
  s: ServiceRecord,
  integration: IntegrationRecord | null,
  r: RoutingResult,
  routed: RoutedEvent,
  eventId: string,
  dry: boolean,
  assumed: Assumption[],
  actions: string[],
): Outcome {
  if (r.drop) return nothing("dropped", "a drop_event action dropped the event: no alert, no incident");
  const key = r.dedup_key;
  const open = openAlert(core, s, integration?.id, key);
  const incidentOf = (a: AlertRecord) => (a.incidentId ? core.state.incidents[a.incidentId] : undefined);
  if (r.event_action === "acknowledge" || r.event_action === "resolve") {
    if (!open) return nothing("no_open_alert", `no open alert with dedup key "${key}" from this integration: nothing changed`);
    if (r.event_action === "resolve") {
      const held = open.heldUntil !== undefined;
      const i = dry ? incidentOf(open) : resolveAlert(core, s, open);
      const message = held
        ? "the suspended alert was resolved before it triggered: no incident"
        : i
          ? `resolved the alert and incident #${i.number}`
          : "resolved the alert";
      return {
        kind: "resolved",
        message,
        incident: i ? { ...incidentSummary(i)!, status: dry ? "resolved (dry run)" : i.status } : null,
        alert: alertSummary(core, open),
      };
    }
    const i = incidentOf(open);
    if (!i) assume(assumed, "held-alert-no-acknowledge");
    if (!i)
      return nothing(
        "no_open_alert",
        `the alert is ${open.suppressed ? "suppressed" : "suspended"}: there is no incident to acknowledge`,
        alertSummary(core, open),
      );
    if (!dry) transition(core, i, "acknowledged", { type: "service", id: s.id });
    return { kind: "acknowledged", message: `acknowledged incident #${i.number}`, incident: incidentSummary(i), alert: alertSummary(core, open) };
  }
  const now = core.clock.now();
  if (open) {
    if (!dry) open.triggers++;
    // Dynamic Notifications: a higher severity raises the alert's, and may raise the incident's urgency.
    const severity = r.severity ?? "critical";
    const change = raiseSeverity(core, s, open, severity, now, dry);
    if (!change && severity !== open.severity) assume(assumed, "dedup-lower-severity");
    if (actions.some((a) => !SHAPE_THE_EVENT.has(a))) assume(assumed, "dedup-no-actions");
    const i = incidentOf(open);
    const raised = change
      ? `: its severity rose from ${change.from} to ${change.to}${change.urgencyRaised ? `, and incident #${i?.number}'s urgency from low to high` : ""}`
      : ": nothing else changed";
    const incident = i ? incidentSummary(i) : null;
    if (incident && dry && change?.urgencyRaised) incident.urgency = "high";
    return {
      kind: "deduplicated",
      message: `the open alert with dedup key "${key}" took the trigger${raised}`,
      incident,
      alert: dry && change ? { ...alertSummary(core, open)!, severity: change.to } : alertSummary(core, open),
    };
  }
  const plan: IncidentPlan = {
    title: r.summary ?? "",
    severity: r.severity ?? "critical",
    ...(r.priority?.name ? { priorityId: r.priority.id } : {}),
    ...(r.escalation_policy?.name ? { escalationPolicyId: r.escalation_policy.id } : {}),
    notes: r.annotations,
    customFields: Object.fromEntries(r.incident_custom_fields.map((f) => [f.id, f.value])),
  };
  const recorded = [...r.automation_actions, ...r.webhooks];
  const newAlert = (extra: Partial<AlertRecord>) =>
    addAlert(core, s, {
      integrationId: integration!.id,
      incidentId: null,
      alert_key: key,
      suppressed: false,
      severity: plan.severity,
      summary: plan.title,
      created_at: new Date(now).toISOString(),
      body: alertBody(routed.event, routed.raw_event),
      eventId,
      ...(recorded.length ? { recorded } : {}),
      ...extra,
    });
  if (r.suppress) {
    const a = dry ? undefined : newAlert({ suppressed: true });
    return nothing("suppressed", "a suppressed alert: no incident", a ? alertSummary(core, a) : null);
  }
  if (r.suspend) {
    const until = now + r.suspend * 1000;
    const a = dry ? undefined : newAlert({ heldUntil: until, held: plan });
    return {
      ...nothing("suspended", `the alert is held ${r.suspend} s: it triggers then unless a resolve comes first`, a ? alertSummary(core, a) : null),
      suspended_until: new Date(until).toISOString(),
    };
  }
  if (dry) {
    const join = (s.incidentIds ?? []).map((id) => core.state.incidents[id]).find((i) => i && i.status !== "resolved" && i.incident_key === key);
    if (join && (plan.notes.length || plan.priorityId || plan.escalationPolicyId || Object.keys(plan.customFields).length))
      assume(assumed, "joined-incident-keeps-fields");
    return join
      ? { kind: "alert_added_to_incident", message: `would join open incident #${join.number}`, incident: incidentSummary(join), alert: null }
      : nothing("incident_opened", `would open an incident (urgency ${r.urgency})`);
  }
  const a = newAlert({});
  const { incident, joined } = triggerIncident(core, s, a, plan, now);
  if (joined && (plan.notes.length || plan.priorityId || plan.escalationPolicyId || Object.keys(plan.customFields).length))
    assume(assumed, "joined-incident-keeps-fields");
  return {
    kind: joined ? "alert_added_to_incident" : "incident_opened",
    message: joined ? `the alert joined open incident #${incident.number}` : `opened incident #${incident.number}`,
    incident: incidentSummary(incident),
    alert: alertSummary(core, a),
  };
}

/** Process an event sent to `s` through `integration` (a dry run may name no integration: any one's alerts count). */
export function processEvent(core: EmulatorCore, s: ServiceRecord, integration: IntegrationRecord | null, input: EventInput, dryRun = false): Trace {
  const now = core.clock.now();
  const receivedAt = new Date(now).toISOString();
  const id = randomUUID().replace(/-/g, "");
  const routed = routedEvent(input.body, input.dedupKey, receivedAt);
  const o = orchestrationOf(s);
  // A disabled service, or one a kind puts in maintenance (core.maintenanceOf), takes no event.
  const ignoredBecause = s.status === "disabled" ? "the service is disabled" : core.maintenanceOf(s);
  const ignored = ignoredBecause !== undefined;
  const active = o.active && !ignored;
  const isTrigger = input.eventAction === "trigger";
  const cache = active ? updateCacheVariables(core, s, routed, isTrigger, now, !dryRun) : { values: {}, trace: [] };
  const thresholds = thresholdsFor(core, s, now, isTrigger);
  const ev = evaluate({
    program: active ? programOf(o) : undefined,
    routed,
    eventAction: input.eventAction,
    now,
    cacheVars: cache.values,
    thresholds: thresholds.api,
  });
  if (!dryRun) thresholds.commit();
  const problems = ev.problems;
  const assumed = ev.assumed;
  const result = resultOf(core, s, ev, routed, input.dedupKey, now, problems);
  if (ignored && !dryRun) core.stats.events.ignored++;
  const outcome = ignored
    ? nothing("ignored", `${ignoredBecause}: the event changes nothing`)
    : enact(
        core,
        s,
        integration,
        result,
        routed,
        id,
        dryRun,
        assumed,
        ev.actions.map((a) => a.action),
      );
  const trace: Trace = {
    id,
    dry_run: dryRun,
    received_at: receivedAt,
    service: { id: s.id, name: s.name },
    integration: integration ? { id: integration.id, name: integration.name, type: integration.type } : null,
    event_action: input.eventAction,
    dedup_key: input.dedupKey,
    orchestration: active ? { version: o.version } : null,
    cache_variables: cache.trace,
    sets: ev.sets,
    actions: ev.actions,
    result,
    outcome,
    problems,
    assumed,
  };
  if (!dryRun) remember(core.state, trace);
  return trace;
}

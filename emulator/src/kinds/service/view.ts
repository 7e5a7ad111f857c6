// The representation of a service: its own routes show it, and incidents embed it with
// `include[]=services`. What other kinds keep of it they show through the core's hook
// (`KindState.serviceView`): `status` and `last_incident_timestamp` computed from its incidents (and
// the maintenance the kinds put it in), its `integrations`, the alert grouping setting it is under.
import type { EmulatorCore } from "../../core";
import { policyRef } from "./model";
import type { ServiceRecord } from "../../store";

/** What every service reports: the incident-only setting reached its end of life. */
export const ALERTS_AND_INCIDENTS = "create_alerts_and_incidents";

export function renderService(core: EmulatorCore, base: string, s: ServiceRecord, include: ReadonlySet<string> = new Set()) {
  const policy = core.state.escalationPolicies[s.escalationPolicyId];
  const policyReference = policyRef(core, base, s);
  const own = {
    id: s.id,
    type: "service",
    summary: s.name,
    self: `${base}/services/${s.id}`,
    html_url: `${base}/service-directory/${s.id}`,
    name: s.name,
    description: s.description,
    auto_resolve_timeout: s.auto_resolve_timeout,
    acknowledgement_timeout: s.acknowledgement_timeout,
    // The user's choice; the incidents' kind shows the status computed from it.
    status: s.status,
    created_at: s.created_at,
    last_incident_timestamp: null as string | null,
    escalation_policy: include.has("escalation_policies") && policy ? { ...policyReference, type: "escalation_policy", name: policy.name } : policyReference,
    teams: [],
    integrations: [] as unknown[],
    addons: [],
    incident_urgency_rule: s.incident_urgency_rule,
    support_hours: s.support_hours,
    scheduled_actions: s.scheduled_actions,
    // Incident-only services reached their end of life (fields.ts stores nothing else).
    alert_creation: ALERTS_AND_INCIDENTS,
    alert_grouping_parameters: s.alert_grouping_parameters,
    auto_pause_notifications_parameters: s.auto_pause_notifications_parameters,
  };
  // Assigned over the service's own, so each field keeps its place.
  return Object.assign(own, core.serviceView(base, s, include));
}

// The representation of a service: its own routes show it, and incidents embed it with
// `include[]=services`. `status` and `last_incident_timestamp` are computed from its incidents.
import type { EmulatorCore } from "../../core";
import { reference } from "../../http";
import { lastIncidentAt, serviceStatus } from "../incident/model";
import { settingOf, settingReference } from "../alert-grouping-setting/model";
import { renderIntegration } from "../integration/model";
import { policyRef } from "./model";
import type { ServiceRecord } from "../../store";

/** What every service reports: the incident-only setting reached its end of life. */
export const ALERTS_AND_INCIDENTS = "create_alerts_and_incidents";

export function renderService(core: EmulatorCore, base: string, s: ServiceRecord, include: ReadonlySet<string> = new Set()) {
  const policy = core.state.escalationPolicies[s.escalationPolicyId];
  const policyReference = policyRef(core, base, s);
  return {
    id: s.id,
    type: "service",
    summary: s.name,
    self: `${base}/services/${s.id}`,
    html_url: `${base}/service-directory/${s.id}`,
    name: s.name,
    description: s.description,
    auto_resolve_timeout: s.auto_resolve_timeout,
    acknowledgement_timeout: s.acknowledgement_timeout,
    status: serviceStatus(core, s),
    created_at: s.created_at,
    last_incident_timestamp: lastIncidentAt(core, s),
    escalation_policy: include.has("escalation_policies") && policy ? { ...policyReference, type: "escalation_policy", name: policy.name } : policyReference,
    teams: [],
    // Integrations still in their consistency-lag window are left out (lag.ts).
    integrations: core.lag
      .visible(s.integrationIds, (id) => id)
      .map((id) => {
        const i = core.state.integrations[id];
        return include.has("integrations")
          ? renderIntegration(core, base, i)
          : reference(i.type, i.id, i.name, `${base}/services/${s.id}/integrations/${i.id}`);
      }),
    addons: [],
    incident_urgency_rule: s.incident_urgency_rule,
    support_hours: s.support_hours,
    scheduled_actions: s.scheduled_actions,
    // Incident-only services reached their end of life (fields.ts stores nothing else).
    alert_creation: ALERTS_AND_INCIDENTS,
    alert_grouping_parameters: groupingView(core, base, s),
    auto_pause_notifications_parameters: s.auto_pause_notifications_parameters,
  };
}

/** A service under an alert grouping setting shows a reference to it (kinds/alert-grouping-setting/model.ts). */
function groupingView(core: EmulatorCore, base: string, s: ServiceRecord): unknown {
  const g = settingOf(core, s.id);
  return g ? settingReference(base, g) : s.alert_grouping_parameters;
}

// Objects as PagerDuty's REST API returns them (snake_case, every field present), for tests that
// answer requests or map replies.

/** A service with the defaults the API fills in; `overrides` replace or add fields. */
export const apiService = (id: string, name: string, overrides: Record<string, unknown> = {}) => ({
  id,
  type: "service",
  name,
  description: null,
  escalation_policy: { id: "PEP1", type: "escalation_policy_reference" },
  auto_resolve_timeout: 14400,
  acknowledgement_timeout: 1800,
  status: "active",
  alert_creation: "create_alerts_and_incidents",
  incident_urgency_rule: { type: "constant", urgency: "high" },
  support_hours: null,
  scheduled_actions: [],
  alert_grouping_parameters: { type: null },
  auto_pause_notifications_parameters: { enabled: false, timeout: null },
  html_url: `https://acme.pagerduty.com/service-directory/${id}`,
  created_at: "2026-11-22T00:00:00Z",
  summary: name,
  ...overrides,
});

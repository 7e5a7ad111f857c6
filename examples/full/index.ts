// One service with everything around it: integrations, ordered event rules, custom field values, an
// enablement, and lookups reading it all back. Install the package next to this file
// (`npm install pulumi-pagerduty-dynamic`), set the credentials (see the README), then `pulumi up`.
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const escalationPolicy = config.require("escalationPolicyId");

const checkout = new pagerduty.Service("checkout", {
  name: "Checkout API",
  description: "Takes orders and payments",
  escalationPolicy,
  acknowledgementTimeout: 600,
  autoResolveTimeout: null, // never auto-resolve
  incidentUrgencyRule: { type: "constant", urgency: "high" },
});

// Monitoring sends events here; the routing key is a Pulumi secret.
const events = new pagerduty.ServiceIntegration("checkout-events", {
  service: checkout.id,
  type: "events_api_v2_inbound_integration",
  name: "Events API v2",
});

const email = new pagerduty.ServiceIntegration("checkout-email", {
  service: checkout.id,
  type: "generic_email_inbound_integration",
  name: "Support mailbox",
  emailIncidentCreation: "on_new_email_subject",
});

// First match wins: rules end at the positions asked for, even though they are created in parallel.
const diskRule = new pagerduty.ServiceEventRule("checkout-disk", {
  service: checkout.id,
  position: 0,
  conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "disk" } }] },
  actions: { severity: { value: "critical" }, annotate: { value: "See the disk runbook" } },
});

const heartbeatRule = new pagerduty.ServiceEventRule("checkout-heartbeat", {
  service: checkout.id,
  position: 1,
  conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "heartbeat" } }] },
  actions: { suppress: { value: true } },
});

// Only these fields are managed; destroying the stack puts back what they held before.
const fields = new pagerduty.ServiceCustomFieldValues("checkout-fields", {
  service: checkout.id,
  values: { tier: "gold", runbook: "https://runbooks.example.com/checkout", pci: true },
});

// An account without the AIOps entitlement gets a warning here, not a failure.
const aiops = new pagerduty.ServiceEnablement("checkout-aiops", { service: checkout.id, feature: "aiops", enabled: false });

// Lookups read the live service back. Their arguments are outputs, so they are named explicitly.
// `dependsOn` makes them read after the writes above, and while those objects do not exist yet (the
// first preview) their results are unknown instead of "not found".
const children = [events, email, diskRule, heartbeatRule, fields, aiops];
const found = pagerduty.getService({ name: checkout.name }, { name: "checkout-by-name", dependsOn: [checkout] });
const rules = pagerduty.getServiceEventRules({ service: checkout.id }, { name: "checkout-rules", dependsOn: children });
const enablements = pagerduty.getServiceEnablements({ service: checkout.id }, { name: "checkout-enablements", dependsOn: children });
const values = pagerduty.getServiceCustomFieldValues({ service: checkout.id }, { name: "checkout-values", dependsOn: children });
const audit = pagerduty.getServiceAuditRecords({ service: checkout.id, limit: 50 }, { name: "checkout-audit", dependsOn: children });

export const checkoutUrl = checkout.htmlUrl;
export const routingKey = events.integrationKey;
export const inboundEmail = email.integrationEmail;
export const foundId = found.id;
export const ruleOrder = rules.rules.apply((rs) => rs.map((r) => `${r.position}: ${r.id}`));
export const aiopsEnabled = enablements.enablements.apply((es) => es.find((e) => e.feature === "aiops")?.enabled);
export const tier = values.values.apply((v) => v.tier);
export const previousFieldValues = fields.previousValues;
export const auditActions = audit.records.apply((rs) => rs.map((r) => r.action));
export const diskRuleId = diskRule.id;
export const heartbeatRuleId = heartbeatRule.id;

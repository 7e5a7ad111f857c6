// A platform team's whole PagerDuty setup for an online shop, in one program: the services on the
// checkout path and what they depend on, how their alerts reach PagerDuty and are grouped, routed
// and enriched, the service catalogue's fields, and the move of the last legacy services off event
// rules, and the database's planned maintenance. It uses every resource of the package, and lookups read the result back.
//
// Install the package next to this file (`npm install pulumi-pagerduty-dynamic`), set the
// credentials (see the README) and `pulumi config set escalationPolicyId <id>`, then `pulumi up`.
// `pulumi config set release 2` and another `pulumi up` roll out the setup's second release, which
// changes something on every resource kind (each change is marked "Release 2" below).
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const escalationPolicy = config.require("escalationPolicyId");
const release = config.getNumber("release") ?? 1;
if (release !== 1 && release !== 2) throw new Error(`release: must be 1 or 2 (the setup's releases), not ${release}`);
const r2 = release === 2;

// Release 2: the runbooks moved to the wiki. Services' fields, event rules and orchestration notes link them.
const runbooks = r2 ? "https://wiki.acme.example/sre/runbooks" : "https://runbooks.acme.example";
// Release 2: a second production cluster (prod-eu) sends alerts through the same integrations.
const alertmanager = `Alertmanager (${r2 ? "prod-us, prod-eu" : "prod-us"})`;

// --- The checkout path: customers order through Checkout, which charges through Payments, which
// records orders in the orders database. One escalation policy pages the platform team for all.

const checkout = new pagerduty.Service("checkout", {
  name: "Checkout API",
  // Release 2: checkout reserves stock through Shipping's warehouse API (see the dependencies).
  description: r2 ? "Takes orders; reserves stock through Shipping" : "Takes orders; reserves stock through Inventory",
  escalationPolicy,
  acknowledgementTimeout: 600,
  incidentUrgencyRule: { type: "constant", urgency: "high" },
});

const payments = new pagerduty.Service("payments", {
  name: "Payments API",
  description: "Charges cards for Checkout",
  escalationPolicy,
  incidentUrgencyRule: { type: "constant", urgency: "high" },
});

const ordersDb = new pagerduty.Service("orders-db", {
  name: "Orders database",
  description: "The Postgres cluster behind Checkout and Payments",
  escalationPolicy,
});

// --- How alerts arrive. Alertmanager sends the checkout path's alerts with these integrations'
// routing keys: Pulumi secrets, exported below for Alertmanager's configuration, encrypted in state.

const checkoutAlerts = new pagerduty.ServiceIntegration("checkout-alertmanager", {
  service: checkout.id,
  type: "events_api_v2_inbound_integration",
  name: alertmanager,
});

const paymentsAlerts = new pagerduty.ServiceIntegration("payments-alertmanager", {
  service: payments.id,
  type: "events_api_v2_inbound_integration",
  name: alertmanager,
});

// Customers' complaints to the support mailbox open incidents too, one per new subject.
const supportMailbox = new pagerduty.ServiceIntegration("checkout-support-mailbox", {
  service: checkout.id,
  type: "generic_email_inbound_integration",
  name: "Support mailbox",
  emailIncidentCreation: "on_new_email_subject",
});

// One outage of the checkout path fires alerts on all three services: grouping them by summary
// across the services opens one incident instead of three. (Services belong to one setting each.)
const checkoutPathGrouping = new pagerduty.AlertGroupingSetting("checkout-path", {
  name: "Checkout path", // getAlertGroupingSetting below finds it by this name
  description: "One incident per outage of the checkout path",
  type: "content_based",
  // Release 2: an outage that drags on stays one incident: alerts group within 15 minutes, not 5.
  config: { aggregate: "all", fields: ["summary"], timeWindow: r2 ? 900 : 300 },
  services: [checkout.id, payments.id, ordersDb.id],
});

// --- The orders database routes its events through an orchestration. A cache variable counts
// connection errors; a burst of them is one storm that pages at once, the rest is triaged by rules.

const connectionErrors = new pagerduty.ServiceOrchestrationCacheVariable("orders-db-connection-errors", {
  service: ordersDb.id,
  name: "connection_errors",
  conditions: [{ expression: "event.summary matches part 'connection refused'" }],
  // Release 2: counted over 2 minutes instead of 1 (storms built up slower than the window).
  configuration: { type: "trigger_event_count", ttlSeconds: r2 ? 120 : 60 },
});

const ordersDbRouting = new pagerduty.ServiceOrchestration(
  "orders-db-routing",
  {
    service: ordersDb.id,
    active: true, // events go through these rules from now on
    sets: [
      {
        id: "start",
        rules: [
          {
            label: "Connection storm",
            // The variable's `name` output, not the literal: a rename of the variable follows here.
            conditions: [{ expression: pulumi.interpolate`cache_var.${connectionErrors.name} >= 5` }],
            actions: { severity: "critical", annotate: `Connection storm: ${runbooks}/orders-db#connection-storm` },
          },
          { label: "Replicas", conditions: [{ expression: "event.source matches part 'replica'" }], actions: { routeTo: "replicas" } },
        ],
      },
      {
        id: "replicas",
        rules: [
          {
            label: "Replication lag",
            conditions: [{ expression: "event.summary matches part 'replication lag'" }],
            actions: { severity: "warning", annotate: `${runbooks}/orders-db#replication-lag` },
          },
        ],
      },
    ],
    catchAll: { actions: { severity: "error" } },
  },
  // The variable exists before a rule reads it and is deleted after.
  { dependsOn: [connectionErrors] },
);

// --- The service catalogue: which team owns each service. The field is this program's; tier,
// runbook and pci are fields the account had already.

const owningTeam = new pagerduty.ServiceCustomField("owning-team", {
  name: "owning_team",
  displayName: "Owning team",
  description: "The team that owns the service and staffs its on-call",
  dataType: "string",
  fieldType: "single_value_fixed",
  // Release 2: the logistics team joins the catalogue.
  fieldOptions: r2 ? ["storefront", "payments", "data", "logistics"] : ["storefront", "payments", "data"],
});

// Only the fields named here are managed; destroying the stack puts back what they held before.
// The field is named literally, so the values depend on its resource.
const checkoutFields = new pagerduty.ServiceCustomFieldValues(
  "checkout-fields",
  { service: checkout.id, values: { owning_team: "storefront", tier: "gold", runbook: `${runbooks}/checkout`, pci: true } },
  { dependsOn: [owningTeam] },
);

new pagerduty.ServiceCustomFieldValues(
  "payments-fields",
  { service: payments.id, values: { owning_team: "payments", tier: "gold", runbook: `${runbooks}/payments`, pci: true } },
  { dependsOn: [owningTeam] },
);

// Release 2: AIOps noise reduction on for Checkout, after a month of reviewing its grouped alerts.
// (An account without the AIOps entitlement gets a warning here, not a failure.)
const checkoutAiops = new pagerduty.ServiceEnablement("checkout-aiops", { service: checkout.id, feature: "aiops", enabled: r2 });

// --- Older services, still on event rules (PagerDuty ended them on 2025-01-31: rules keep working
// but cannot be created on converted services). Search keeps its rules this quarter; Inventory and
// Shipping move to orchestrations, one a release.

const search = new pagerduty.Service("search", { name: "Search", description: "Product search and its indexers", escalationPolicy });
const inventory = new pagerduty.Service("inventory", { name: "Inventory", description: "Stock levels (legacy)", escalationPolicy });
const shipping = new pagerduty.Service("shipping", { name: "Shipping", description: "Labels, carriers and the warehouse API", escalationPolicy });

const contains = (path: string, value: string) => ({
  operator: "and" as const,
  subconditions: [{ operator: "contains" as const, parameters: { path, value } }],
});

// First match wins: the rules end at the positions asked for, although they are created in parallel.
const searchRules = [
  new pagerduty.ServiceEventRule("search-disk", {
    service: search.id,
    position: 0,
    conditions: contains("summary", "disk"),
    actions: { severity: { value: "critical" }, annotate: { value: `Disk full: ${runbooks}/search#disk` } },
  }),
  new pagerduty.ServiceEventRule("search-heartbeat", {
    service: search.id,
    position: 1,
    conditions: contains("summary", "heartbeat"),
    actions: { suppress: { value: true } },
  }),
];

const legacyRules = [
  new pagerduty.ServiceEventRule("inventory-sync", {
    service: inventory.id,
    conditions: contains("summary", "stock sync failed"),
    actions: { severity: { value: "error" } },
  }),
  new pagerduty.ServiceEventRule("shipping-labels", {
    service: shipping.id,
    conditions: contains("summary", "label printer"),
    actions: { severity: { value: "warning" } },
  }),
];

// The conversion moves a service's event rules, in order, into its orchestration and makes that
// active; its rules are read-only from then on. Release 1 converts Inventory. Release 2 converts
// Shipping: a conversion's only input is its service, so this replaces it, and Inventory stays
// converted (a conversion cannot be undone; the old resource is only dropped from the state, with
// a warning). docs/orchestrations.md shows how a ServiceOrchestration then takes the rules over.
const conversion = new pagerduty.ServiceEventRulesConversion("legacy-conversion", { service: r2 ? shipping.id : inventory.id }, { dependsOn: legacyRules });

// --- What depends on what, for impact views: Checkout on Payments, Payments on the database.
new pagerduty.ServiceDependency("checkout-on-payments", { supportingService: { id: payments.id }, dependentService: { id: checkout.id } });
new pagerduty.ServiceDependency("payments-on-orders-db", { supportingService: { id: ordersDb.id }, dependentService: { id: payments.id } });
// Release 2: Checkout reserves stock through Shipping instead of Inventory. A dependency is its pair
// of services, so changing a side replaces it.
const stock = new pagerduty.ServiceDependency("checkout-stock", {
  supportingService: { id: r2 ? shipping.id : inventory.id },
  dependentService: { id: checkout.id },
});

// --- Planned maintenance: the orders database moves to Postgres 17 on a Saturday night, written in
// the team's own time zone (PagerDuty answers in the account's: the times compare as instants). While
// the window lasts its services open no incidents from events. The times are fixed: a window computed
// from the clock would change on every run.
// Release 2: the upgrade is planned an hour longer, and Payments, which writes to the database, joins it.
const upgrade = new pagerduty.MaintenanceWindow("orders-db-upgrade", {
  services: r2 ? [ordersDb.id, payments.id] : [ordersDb.id],
  startTime: "2030-03-16T02:00:00+01:00",
  endTime: r2 ? "2030-03-16T05:00:00+01:00" : "2030-03-16T04:00:00+01:00",
  description: "Orders database: upgrade to Postgres 17",
});

// --- Lookups read the live objects back. Their arguments are outputs, so they are named
// explicitly; `dependsOn` makes them read after the writes above, and while those objects do not
// exist yet (the first preview) their results are unknown instead of "not found".
// What writes to Checkout: its lookups read after all of it (a grouping setting, for one, shows on the service).
const checkoutWrites = [checkout, checkoutAlerts, supportMailbox, checkoutPathGrouping, checkoutFields, checkoutAiops, stock];
const found = pagerduty.getService({ name: checkout.name }, { name: "checkout-by-name", dependsOn: checkoutWrites });
// A lookup reads the live object in a preview too: look up by a name this program does not change.
const mailbox = pagerduty.getServiceIntegration(
  { service: checkout.id, name: "Support mailbox" },
  { name: "support-mailbox-lookup", dependsOn: [supportMailbox] },
);
const grouping = pagerduty.getAlertGroupingSetting({ name: "Checkout path" }, { name: "checkout-path-lookup", dependsOn: [checkoutPathGrouping] });
const rules = pagerduty.getServiceEventRules({ service: search.id }, { name: "search-rules", dependsOn: searchRules });
const enablements = pagerduty.getServiceEnablements({ service: checkout.id }, { name: "checkout-enablements", dependsOn: [checkoutAiops] });
const values = pagerduty.getServiceCustomFieldValues({ service: checkout.id }, { name: "checkout-values", dependsOn: [checkoutFields] });
const audit = pagerduty.getServiceAuditRecords({ service: checkout.id, limit: 50 }, { name: "checkout-audit", dependsOn: checkoutWrites });

// For Alertmanager's configuration: `pulumi stack output --show-secrets checkoutRoutingKey`.
export const checkoutRoutingKey = checkoutAlerts.integrationKey;
export const paymentsRoutingKey = paymentsAlerts.integrationKey;
export const supportAddress = supportMailbox.integrationEmail;
export const checkoutUrl = checkout.htmlUrl;
export const ids = {
  checkout: checkout.id,
  payments: payments.id,
  ordersDb: ordersDb.id,
  search: search.id,
  inventory: inventory.id,
  shipping: shipping.id,
  checkoutAlerts: checkoutAlerts.id,
  grouping: checkoutPathGrouping.id,
  connectionErrors: connectionErrors.id,
  owningTeam: owningTeam.id,
  searchDisk: searchRules[0].id,
  searchHeartbeat: searchRules[1].id,
  upgrade: upgrade.id,
};
export const convertedService = conversion.service;
export const stormRule = ordersDbRouting.sets.apply((sets) => sets[0].rules?.[0]?.conditions?.[0]?.expression);
export const foundId = found.id;
export const mailboxAddress = mailbox.integrationEmail;
export const groupedServices = grouping.services;
export const searchRuleOrder = rules.rules.apply((rs) => rs.map((r) => `${r.position}: ${r.id}`));
export const aiopsEnabled = enablements.enablements.apply((es) => es.find((e) => e.feature === "aiops")?.enabled);
export const checkoutTeam = values.values.apply((v) => v.owning_team);
export const previousFieldValues = checkoutFields.previousValues;
export const auditActions = audit.records.apply((rs) => rs.map((r) => r.action));

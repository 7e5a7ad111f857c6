// Routing you can test before it pages anyone: one service whose event orchestration pages the
// database team at high urgency for critical database alerts, suppresses noisy health checks,
// lowers the urgency of events out of hours and annotates repeats from one host through a cache
// variable. cases.yaml says what ten events should become; `npx --no-install pagerduty-routing-test` checks
// them against the emulator the program was deployed to (docs/testing-routing.md).
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const escalationPolicy = config.require("escalationPolicyId");
// The database team's escalation policy (config "dbTeamPolicy", a name) and the priority its pages get.
const dbTeam = pagerduty.getEscalationPolicy({ name: config.get("dbTeamPolicy") ?? "Database team" });
const p1 = pagerduty.getPriority({ name: "P1" });

const platform = new pagerduty.Service("platform", {
  name: "Platform",
  description: "Web, batch and database alerts of the platform",
  escalationPolicy,
  // Urgency follows the alert's severity: critical and error at high urgency, warning and info at low.
  incidentUrgencyRule: { type: "constant", urgency: "severity_based" },
});

// Monitoring sends its events here; the routing key is a Pulumi secret.
const monitoring = new pagerduty.ServiceIntegration("monitoring", {
  service: platform.id,
  type: "events_api_v2_inbound_integration",
  name: "Monitoring",
});

// How many trigger events batch-01 sent in the last 10 minutes, the current one included.
const batchEvents = new pagerduty.ServiceOrchestrationCacheVariable("batch-events", {
  service: platform.id,
  name: "batch_events",
  conditions: [{ expression: "event.source matches 'batch-01'" }],
  configuration: { type: "trigger_event_count", ttlSeconds: 600 },
});

// Every event starts in "start"; within a set the first matching rule applies. Database alerts
// leave "start" before the out-of-hours rule in "hours" can lower them, so a critical one pages at
// night too; everything else goes through "hours".
new pagerduty.ServiceOrchestration(
  "routing",
  {
    service: platform.id,
    active: true,
    sets: [
      {
        id: "start",
        rules: [
          {
            label: "Noisy health checks",
            conditions: [{ expression: "event.summary matches part 'health check'" }, { expression: "event.custom_details.check matches 'healthz'" }],
            actions: { suppress: true },
          },
          { label: "Database alerts", conditions: [{ expression: "event.source matches regex '^db-[0-9]+$'" }], actions: { routeTo: "database" } },
          {
            label: "Repeats from batch-01",
            conditions: [{ expression: pulumi.interpolate`cache_var.${batchEvents.name} >= 3` }],
            actions: { annotate: pulumi.interpolate`batch-01 repeated: {{cache_var.${batchEvents.name}}} events in 10 minutes`, routeTo: "hours" },
          },
          { label: "Everything else", actions: { routeTo: "hours" } },
        ],
      },
      {
        id: "database",
        rules: [
          {
            label: "Critical database alerts",
            conditions: [{ expression: "event.severity matches 'critical'" }],
            actions: { escalationPolicy: dbTeam.id, priority: p1.id, annotate: "Database runbook: https://runbooks.example.com/database" },
          },
          { label: "Other database alerts", actions: { escalationPolicy: dbTeam.id, routeTo: "hours" } },
        ],
      },
      {
        id: "hours",
        rules: [
          {
            label: "Out of hours",
            conditions: [{ expression: "not (now in Mon,Tue,Wed,Thu,Fri 08:00:00 to 18:00:00 Europe/London)" }],
            actions: { severity: "warning" },
          },
        ],
      },
    ],
  },
  { dependsOn: [batchEvents] },
);

// The cases name the integration by this output (or by its resource name, "monitoring").
export const monitoringKey = monitoring.integrationKey;

// The vendor catalogue: fixed, global (the same on every account and start), read by the catalog
// routes and by integrations created by vendor.
export interface Vendor {
  id: string;
  name: string;
  website_url: string;
  description: string;
  /** The integration type an integration created with only `vendor` gets. */
  integrationType: string;
}

const EVENTS_V2 = "events_api_v2_inbound_integration";

/** A fixed catalogue (vendors are global, the same on every account and start). */
export const VENDORS: readonly Vendor[] = [
  {
    id: "PZQ6AUS",
    name: "Amazon CloudWatch",
    website_url: "https://aws.amazon.com/cloudwatch",
    description: "Monitoring and alarms for AWS resources and applications.",
    integrationType: "aws_cloudwatch_inbound_integration",
  },
  { id: "PAM4FGS", name: "Datadog", website_url: "https://www.datadoghq.com", description: "Metrics, traces and log monitoring.", integrationType: EVENTS_V2 },
  {
    id: "PQ8ZQAE",
    name: "Prometheus",
    website_url: "https://prometheus.io",
    description: "Alertmanager notifications from Prometheus.",
    integrationType: EVENTS_V2,
  },
  { id: "PG3M0KD", name: "Grafana", website_url: "https://grafana.com", description: "Alerts from Grafana dashboards.", integrationType: EVENTS_V2 },
  {
    id: "PRQ7T3B",
    name: "New Relic",
    website_url: "https://newrelic.com",
    description: "Application performance monitoring alerts.",
    integrationType: EVENTS_V2,
  },
  { id: "PSPLK01", name: "Splunk", website_url: "https://www.splunk.com", description: "Alerts from Splunk searches.", integrationType: EVENTS_V2 },
  { id: "PSNTR7Y", name: "Sentry", website_url: "https://sentry.io", description: "Application error tracking.", integrationType: EVENTS_V2 },
  { id: "PZBX1X5", name: "Zabbix", website_url: "https://www.zabbix.com", description: "Infrastructure monitoring triggers.", integrationType: EVENTS_V2 },
  { id: "PDYNA7C", name: "Dynatrace", website_url: "https://www.dynatrace.com", description: "Problems detected by Dynatrace.", integrationType: EVENTS_V2 },
  {
    id: "PNAG10S",
    name: "Nagios",
    website_url: "https://www.nagios.org",
    description: "Host and service checks.",
    integrationType: "nagios_inbound_integration",
  },
  { id: "PPNGD0M", name: "Pingdom", website_url: "https://www.pingdom.com", description: "Uptime checks.", integrationType: "pingdom_inbound_integration" },
  {
    id: "PKEYN0T",
    name: "Keynote",
    website_url: "https://www.keynote.com",
    description: "Web performance monitoring.",
    integrationType: "keynote_inbound_integration",
  },
  {
    id: "PSQLM0N",
    name: "SQL Monitor",
    website_url: "https://www.red-gate.com/products/sql-monitor",
    description: "SQL Server monitoring.",
    integrationType: "sql_monitor_inbound_integration",
  },
  {
    id: "PCLDK1K",
    name: "Cloudkick",
    website_url: "https://www.cloudkick.com",
    description: "Server monitoring.",
    integrationType: "cloudkick_inbound_integration",
  },
  {
    id: "PEVAPI2",
    name: "Events API V2",
    website_url: "https://developer.pagerduty.com/docs/events-api-v2/overview/",
    description: "Send events with the Events API v2.",
    integrationType: EVENTS_V2,
  },
  {
    id: "PEVAPI1",
    name: "Events API V1",
    website_url: "https://developer.pagerduty.com/docs/events-api-v1/overview/",
    description: "Send events with the Events API v1.",
    integrationType: "generic_events_api_inbound_integration",
  },
  {
    id: "PCETR4N",
    name: "Custom Event Transformer",
    website_url: "https://developer.pagerduty.com/docs/cet/overview/",
    description: "Transform incoming events with JavaScript.",
    integrationType: "event_transformer_api_inbound_integration",
  },
  {
    id: "PEMA1L0",
    name: "Email",
    website_url: "https://support.pagerduty.com/docs/email-integration-guide",
    description: "Incidents from email.",
    integrationType: "generic_email_inbound_integration",
  },
];

const VENDOR_BY_ID = new Map(VENDORS.map((v) => [v.id, v]));

export const vendorById = (id: string): Vendor | undefined => VENDOR_BY_ID.get(id);

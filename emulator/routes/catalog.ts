// What clients read around services: the account's abilities (the official Terraform provider
// checks credentials with GET /abilities), the vendor catalogue (integrations may be created by
// vendor), the account's priorities (an event rule's `priority` action takes a priority id) and
// the current user of a user credential.
import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../core";
import { invalid, notFound } from "../errors";
import { baseUrl, many, paginate, params, query, rest, single, who } from "../http";
import { SCOPES } from "../oauth/scopes";
import type { Account, Role } from "../store";

/** Every account has these; `event_intelligence` only with the AIOps entitlement. */
const BASE_ABILITIES = [
  "teams", "read_only_users", "service_support_hours", "urgencies", "custom_fields",
  "event_rules", "manage_schedules", "response_plays", "advanced_permissions",
];

export function abilitiesOf(account: Account): string[] {
  return [...BASE_ABILITIES, ...(account.aiopsEntitled ? ["event_intelligence"] : [])].sort();
}

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
  { id: "PZQ6AUS", name: "Amazon CloudWatch", website_url: "https://aws.amazon.com/cloudwatch", description: "Monitoring and alarms for AWS resources and applications.", integrationType: "aws_cloudwatch_inbound_integration" },
  { id: "PAM4FGS", name: "Datadog", website_url: "https://www.datadoghq.com", description: "Metrics, traces and log monitoring.", integrationType: EVENTS_V2 },
  { id: "PQ8ZQAE", name: "Prometheus", website_url: "https://prometheus.io", description: "Alertmanager notifications from Prometheus.", integrationType: EVENTS_V2 },
  { id: "PG3M0KD", name: "Grafana", website_url: "https://grafana.com", description: "Alerts from Grafana dashboards.", integrationType: EVENTS_V2 },
  { id: "PRQ7T3B", name: "New Relic", website_url: "https://newrelic.com", description: "Application performance monitoring alerts.", integrationType: EVENTS_V2 },
  { id: "PSPLK01", name: "Splunk", website_url: "https://www.splunk.com", description: "Alerts from Splunk searches.", integrationType: EVENTS_V2 },
  { id: "PSNTR7Y", name: "Sentry", website_url: "https://sentry.io", description: "Application error tracking.", integrationType: EVENTS_V2 },
  { id: "PZBX1X5", name: "Zabbix", website_url: "https://www.zabbix.com", description: "Infrastructure monitoring triggers.", integrationType: EVENTS_V2 },
  { id: "PDYNA7C", name: "Dynatrace", website_url: "https://www.dynatrace.com", description: "Problems detected by Dynatrace.", integrationType: EVENTS_V2 },
  { id: "PNAG10S", name: "Nagios", website_url: "https://www.nagios.org", description: "Host and service checks.", integrationType: "nagios_inbound_integration" },
  { id: "PPNGD0M", name: "Pingdom", website_url: "https://www.pingdom.com", description: "Uptime checks.", integrationType: "pingdom_inbound_integration" },
  { id: "PKEYN0T", name: "Keynote", website_url: "https://www.keynote.com", description: "Web performance monitoring.", integrationType: "keynote_inbound_integration" },
  { id: "PSQLM0N", name: "SQL Monitor", website_url: "https://www.red-gate.com/products/sql-monitor", description: "SQL Server monitoring.", integrationType: "sql_monitor_inbound_integration" },
  { id: "PCLDK1K", name: "Cloudkick", website_url: "https://www.cloudkick.com", description: "Server monitoring.", integrationType: "cloudkick_inbound_integration" },
  { id: "PEVAPI2", name: "Events API V2", website_url: "https://developer.pagerduty.com/docs/events-api-v2/overview/", description: "Send events with the Events API v2.", integrationType: EVENTS_V2 },
  { id: "PEVAPI1", name: "Events API V1", website_url: "https://developer.pagerduty.com/docs/events-api-v1/overview/", description: "Send events with the Events API v1.", integrationType: "generic_events_api_inbound_integration" },
  { id: "PCETR4N", name: "Custom Event Transformer", website_url: "https://developer.pagerduty.com/docs/cet/overview/", description: "Transform incoming events with JavaScript.", integrationType: "event_transformer_api_inbound_integration" },
  { id: "PEMA1L0", name: "Email", website_url: "https://support.pagerduty.com/docs/email-integration-guide", description: "Incidents from email.", integrationType: "generic_email_inbound_integration" },
];

const VENDOR_BY_ID = new Map(VENDORS.map((v) => [v.id, v]));

export const vendorById = (id: string): Vendor | undefined => VENDOR_BY_ID.get(id);

export function renderVendor(base: string, v: Vendor) {
  const slug = v.name.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  return {
    id: v.id,
    type: "vendor",
    summary: v.name,
    self: `${base}/vendors/${v.id}`,
    html_url: null,
    name: v.name,
    website_url: v.website_url,
    logo_url: `${base}/_emulator/static/vendors/${slug}_large.png`,
    thumbnail_url: `${base}/_emulator/static/vendors/${slug}_thumb.png`,
    description: v.description,
    integration_guide_url: v.website_url,
  };
}

/** The account's priorities, most to least severe (PagerDuty's defaults; ids fixed per account). */
const PRIORITIES: readonly { name: string; description: string }[] = [
  { name: "P1", description: "Critical issue that warrants public notification and liaison with executive teams" },
  { name: "P2", description: "Critical system issue actively impacting many customers' ability to use the product" },
  { name: "P3", description: "Stability or minor customer-impacting issues that require immediate attention from service owners" },
  { name: "P4", description: "Minor issues requiring action, but not affecting customer ability to use the product" },
  { name: "P5", description: "Cosmetic issues or bugs, not affecting customer ability to use the product" },
];

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A stable id derived from the account and the priority's name, so no state is stored for them. */
function priorityId(accountId: string, name: string): string {
  const h = createHash("sha256").update(`priority\0${accountId}\0${name}`).digest();
  return "Q" + [...h.subarray(0, 6)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("");
}

export function prioritiesOf(accountId: string, base: string) {
  return PRIORITIES.map((p) => {
    const id = priorityId(accountId, p.name);
    return { id, type: "priority", summary: p.name, self: `${base}/priorities/${id}`, html_url: null, name: p.name, description: p.description };
  });
}

const ROLE_NAMES: Record<Role, string> = { admin: "admin", user: "user", read_only: "read_only_user" };

export function registerCatalog(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/abilities", SCOPES.abilitiesRead, (req) => ({ abilities: abilitiesOf(core.state.accounts[who(req).accountId]) }));

  // 204 without a body when the account has the ability, 404 otherwise.
  rest(app, "GET", "/abilities/:id", SCOPES.abilitiesRead, (req, reply) => {
    const id = params(req).id;
    if (!abilitiesOf(core.state.accounts[who(req).accountId]).includes(id)) throw notFound(`Ability ${id}`);
    return reply.code(204).send();
  });

  rest(app, "GET", "/vendors", SCOPES.vendorsRead, (req) => {
    const q = query(req);
    const text = single(q.query)?.toLowerCase();
    const list = VENDORS.filter((v) => !text || v.name.toLowerCase().includes(text)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { page, meta } = paginate(list, q);
    const base = baseUrl(core, req);
    return { vendors: page.map((v) => renderVendor(base, v)), ...meta };
  });

  rest(app, "GET", "/vendors/:id", SCOPES.vendorsRead, (req) => {
    const v = vendorById(params(req).id);
    if (!v) throw notFound(`Vendor ${params(req).id}`);
    return { vendor: renderVendor(baseUrl(core, req), v) };
  });

  rest(app, "GET", "/priorities", SCOPES.prioritiesRead, (req) => {
    const q = query(req);
    const { page, meta } = paginate(prioritiesOf(who(req).accountId, baseUrl(core, req)), q);
    return { priorities: page, ...meta };
  });

  // No scope: any user credential may read its own user. Account-level credentials have no user,
  // and the service answers them 400 (clients such as pdpyras tell key kinds apart by that).
  rest(app, "GET", "/users/me", "", (req) => {
    const p = who(req);
    if (!p.userId) throw invalid("GET /users/me needs a user's credential (a user API key or a user token); account-level keys and app tokens have no current user");
    const includes = many(query(req), "include");
    const bad = includes.filter((i) => !["contact_methods", "notification_rules", "teams", "subdomains", "calendar_urls"].includes(i));
    if (bad.length) throw invalid(`"include[]" has unknown values: ${bad.join(", ")}`);
    const u = core.state.users[p.userId];
    const base = baseUrl(core, req);
    return {
      user: {
        id: u.id, type: "user", summary: u.name, self: `${base}/users/${u.id}`, html_url: `${base}/users/${u.id}`,
        name: u.name, email: u.email, time_zone: "Etc/UTC", color: "green", role: ROLE_NAMES[u.role],
        avatar_url: `${base}/_emulator/static/avatar.png`, description: null, invitation_sent: false, job_title: "",
        teams: [], contact_methods: [], notification_rules: [],
      },
    };
  });
}


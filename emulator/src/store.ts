// The emulator's whole state as plain JSON-able records, so persistence is one JSON.stringify
// and a reset is one structuredClone of the seeded snapshot.
import type { JsonWebKey } from "node:crypto";

export type Region = "us" | "eu";
export type Role = "admin" | "user" | "read_only";
export type AppKind = "classic" | "scoped";

export interface Account {
  id: string;
  subdomain: string;
  region: Region;
  name: string;
  /** When false, enablement replies carry a warning (never an error). */
  aiopsEntitled: boolean;
}

export interface User {
  id: string;
  accountId: string;
  email: string;
  name: string;
  password: string;
  role: Role;
  /** A user who left the account: their API keys and user tokens stop working. */
  removed: boolean;
}

export interface App {
  id: string;
  name: string;
  /** The creating account: the only one where client_credentials works. */
  accountId: string;
  kind: AppKind;
  confidential: boolean;
  clientId: string;
  clientSecret: string;
  /** Configured scopes; Classic apps have `read` and/or `write`. */
  scopes: string[];
  redirectUris: string[];
  published: boolean;
  /** Accounts (other than the creating one) whose admin installed the app. */
  installs: string[];
  /** False after "delete OAuth functionality": the client can get no new tokens. */
  oauthEnabled: boolean;
}

export interface ApiKey {
  id: string;
  accountId: string;
  kind: "account" | "user";
  userId?: string;
  name: string;
  /** Kept in clear like client secrets (the data file is the emulator's credential store). */
  token: string;
  readOnly: boolean;
}

export interface EscalationPolicy {
  id: string;
  accountId: string;
  name: string;
}

export interface Enablement {
  enabled: boolean;
  updated_at: string | null;
}

export interface ServiceRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  escalationPolicyId: string;
  /** Name of the policy when last seen, so a reference to a deleted one still has a summary. */
  escalationPolicySummary: string;
  auto_resolve_timeout: number | null;
  acknowledgement_timeout: number | null;
  /**
   * The user's choice only: "active" (enabled) or "disabled". The status a service shows is
   * computed from this, `maintenance` and its open incidents (incidents.ts).
   */
  status: string;
  incident_urgency_rule: unknown;
  support_hours: unknown;
  scheduled_actions: unknown[];
  alert_creation: string;
  alert_grouping_parameters: unknown;
  auto_pause_notifications_parameters: unknown;
  created_at: string;
  updated_at: string;
  integrationIds: string[];
  /** Event rule ids in position order: a rule's position is its index. */
  ruleIds: string[];
  rulesConvertedAt: string | null;
  /** Who converted them (a reference), for include[]=migrated_metadata. */
  rulesConvertedBy?: ActorRef;
  /** Custom field values by field definition id. */
  fieldValues: Record<string, unknown>;
  enablements: Record<string, Enablement>;
  /** Incident ids, oldest first (absent in data files written before incidents existed). */
  incidentIds?: string[];
  /** In maintenance (set through the admin API): events open nothing. */
  maintenance?: boolean;
  /** Its event orchestration (orchestration.ts); absent until first used. */
  orchestration?: OrchestrationRecord;
  /** Alert ids, oldest first (routing/alerts.ts; absent in data files written before alerts existed). */
  alertIds?: string[];
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
  /** Alerts grouped into it (routing/alerts.ts keeps the alerts themselves). */
  alerts: { triggered: number; resolved: number };
  /** What an event orchestration set when it opened (routing/): a priority id, an escalation policy id instead of the service's. */
  priorityId?: string;
  escalationPolicyId?: string;
  /** Notes (`annotate`), oldest first. */
  notes?: { id: string; content: string; created_at: string }[];
  /** Incident custom field values an orchestration set, by field id. */
  customFields?: Record<string, string>;
}

/**
 * An alert: what a trigger event makes on its service (routing/alerts.ts). One is open per
 * integration and dedup key; a suppressed one has no incident, a suspended one has none until
 * `heldUntil`, then opens one with `held`.
 */
export interface AlertRecord {
  id: string;
  accountId: string;
  serviceId: string;
  integrationId: string;
  incidentId: string | null;
  alert_key: string;
  status: "triggered" | "resolved";
  suppressed: boolean;
  severity: string;
  summary: string;
  created_at: string;
  resolved_at: string | null;
  /** The alert body as served (PD-CEF fields, custom details, links and images). */
  body: Record<string, unknown>;
  /** Trigger events deduplicated into it, the first included. */
  triggers: number;
  /** The event (trace id) that made it. */
  eventId: string;
  /** Suspended: epoch ms when it triggers, and the incident it then opens. */
  heldUntil?: number;
  held?: IncidentPlan;
  /** Automation actions and webhooks its orchestration named: recorded, never run or sent. */
  recorded?: Record<string, unknown>[];
}

/** What an orchestration decided for the incident an alert opens. */
export interface IncidentPlan {
  title: string;
  severity: string;
  priorityId?: string;
  escalationPolicyId?: string;
  notes: string[];
  customFields: Record<string, string>;
}

/** What a service orchestration keeps of a cache variable between events (routing/cache-values.ts). */
export interface CacheValueRecord {
  type: string;
  value?: string;
  /** trigger_event_count: when each counted trigger event came (epoch ms), oldest first. */
  hits?: number[];
}

export interface OrchestrationRule {
  id: string;
  label?: string;
  conditions: { expression: string }[];
  actions: Record<string, unknown>;
  disabled: boolean;
}

export interface OrchestrationRecord {
  sets: { id: string; rules: OrchestrationRule[] }[];
  catch_all: { actions: Record<string, unknown> };
  /** Whether events are evaluated by the orchestration (true) or by the service's event rules. */
  active: boolean;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Who made or changed an object, as the API records it (`created_by`, `updated_by`; audit.ts `actorRef`). */
export interface ActorRef {
  id: string;
  type: string;
  self: string;
}

/** A cache variable of a service's event orchestration (`.../cache_variables`): a value kept between events. */
export interface CacheVariableRecord {
  id: string;
  accountId: string;
  serviceId: string;
  /** Unique within the service's orchestration. */
  name: string;
  disabled: boolean;
  conditions: { expression: string }[];
  /** `type` and that type's keys only (routes/cache-variables.ts). */
  configuration: Record<string, unknown>;
  created_at: string;
  created_by: ActorRef;
  updated_at: string;
  updated_by: ActorRef;
}

export interface IntegrationRecord {
  id: string;
  accountId: string;
  serviceId: string;
  type: string;
  name: string;
  vendorId: string | null;
  integration_key: string | null;
  integration_email: string | null;
  /** Email settings and anything else type-specific, stored as given (validated). */
  settings: Record<string, unknown>;
  created_at: string;
}

export interface RuleRecord {
  id: string;
  accountId: string;
  serviceId: string;
  disabled: boolean;
  conditions: unknown;
  time_frame: unknown;
  variables: unknown[];
  actions: unknown;
}

export interface FieldOption {
  id: string;
  data: { data_type: string; value: unknown };
  /** Absent in data files written before options had their own routes. */
  created_at?: string;
  updated_at?: string;
}

export interface CustomFieldDef {
  id: string;
  accountId: string;
  name: string;
  display_name: string;
  description: string | null;
  data_type: string;
  field_type: string;
  default_value: unknown;
  field_options: FieldOption[];
  /** Whether the field shows on services (absent in data files written before it existed: true). */
  enabled?: boolean;
  created_at: string;
  updated_at: string;
}

export interface AuditRecord {
  id: string;
  accountId: string;
  serviceId: string;
  /** Epoch ms, for the since/until window and ordering. */
  at: number;
  seq: number;
  body: Record<string, unknown>;
}

/** An alert grouping setting (`/alert_grouping_settings`): one grouping configuration for its services. */
export interface AlertGroupingSettingRecord {
  id: string;
  accountId: string;
  name: string | null;
  description: string | null;
  type: string;
  /** As validated for `type` (only that type's keys). */
  config: Record<string, unknown>;
  /** Service ids, in the order given; a service belongs to at most one setting. */
  serviceIds: string[];
  created_at: string;
  updated_at: string;
}

/** A business service (`/business_services`): kept minimal, a side of service dependencies. */
export interface BusinessServiceRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  point_of_contact: string | null;
  created_at: string;
}

/** Which table a side of a dependency is in. */
export type DependencySide = { id: string; kind: "service" | "business_service" };

/** One relationship of `/service_dependencies`: `supporting` supports `dependent`. */
export interface ServiceDependencyRecord {
  id: string;
  accountId: string;
  supporting: DependencySide;
  dependent: DependencySide;
}

export interface AccessToken {
  accountId: string;
  appId: string;
  userId?: string;
  /** Granted scopes as shown in the token reply. */
  scopes: string[];
  expiresAt: number;
  kind: "app" | "user";
  /** Last four characters, for audit records (`truncated_token`). */
  tail: string;
}

export interface RefreshToken {
  accountId: string;
  appId: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
  /** When the first token of this refresh chain was issued: the rolling window ends 3 y later. */
  chainStartedAt: number;
}

export interface State {
  version: 1;
  adminToken: string;
  /** Private signing key (JWK) for id_tokens; created on first use so startup stays fast. */
  signingKey: JsonWebKey | null;
  accounts: Record<string, Account>;
  users: Record<string, User>;
  apps: Record<string, App>;
  apiKeys: Record<string, ApiKey>;
  escalationPolicies: Record<string, EscalationPolicy>;
  services: Record<string, ServiceRecord>;
  integrations: Record<string, IntegrationRecord>;
  rules: Record<string, RuleRecord>;
  cacheVariables: Record<string, CacheVariableRecord>;
  customFields: Record<string, CustomFieldDef>;
  alertGroupingSettings: Record<string, AlertGroupingSettingRecord>;
  businessServices: Record<string, BusinessServiceRecord>;
  serviceDependencies: Record<string, ServiceDependencyRecord>;
  auditRecords: AuditRecord[];
  incidents: Record<string, IncidentRecord>;
  alerts: Record<string, AlertRecord>;
  /** Ids of suspended alerts still held (routing/alerts.ts releases them when their time comes). */
  heldAlerts: string[];
  /** Cache variable values by cache variable id. */
  cacheValues: Record<string, CacheValueRecord>;
  /** Last incident number handed out, by account id. */
  incidentNumbers: Record<string, number>;
  accessTokens: Record<string, AccessToken>;
  refreshTokens: Record<string, RefreshToken>;
  /** Every id ever handed out, so none is reused. */
  usedIds: string[];
  auditSeq: number;
}

export function emptyState(adminToken: string): State {
  return {
    version: 1,
    adminToken,
    signingKey: null,
    accounts: {},
    users: {},
    apps: {},
    apiKeys: {},
    escalationPolicies: {},
    services: {},
    integrations: {},
    rules: {},
    cacheVariables: {},
    customFields: {},
    alertGroupingSettings: {},
    businessServices: {},
    serviceDependencies: {},
    auditRecords: [],
    incidents: {},
    alerts: {},
    heldAlerts: [],
    cacheValues: {},
    incidentNumbers: {},
    accessTokens: {},
    refreshTokens: {},
    usedIds: [],
    auditSeq: 0,
  };
}

export const accountBySubdomain = (state: State, subdomain: string): Account | undefined =>
  Object.values(state.accounts).find((a) => a.subdomain === subdomain);

export const appByClientId = (state: State, clientId: string): App | undefined => Object.values(state.apps).find((a) => a.clientId === clientId);

/** Look up an object of one account; objects of other accounts are invisible (404). */
export function owned<T extends { accountId: string }>(table: Record<string, T>, id: string, accountId: string): T | undefined {
  const o = Object.hasOwn(table, id) ? table[id] : undefined;
  return o && o.accountId === accountId ? o : undefined;
}

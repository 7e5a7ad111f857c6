// The emulator's whole state as plain JSON-able records, so persistence is one JSON.stringify
// and a reset is one structuredClone of the seeded snapshot. Here: the core's records, and the
// service's, which every child of a service names and whose record holds the settings kept on it;
// each kind's own records and tables are in its module under kinds/.
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

/**
 * A service (kinds/service/). Besides its own fields it holds what the kinds of its children keep on
 * it: the ids of its integrations, event rules, incidents and alerts in their order, the conversion
 * of its rules, its custom field values, enablements and event orchestration. Those go with the
 * record; what a kind keeps in a table of its own goes by its `serviceDeleted` (kinds/kind.ts).
 */
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
   * computed from this, the maintenance the kinds put it in (`EmulatorCore.maintenanceOf`) and its open incidents (kinds/incident/model.ts).
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
  /** Alert ids, oldest first (kinds/alert/model.ts; absent in data files written before alerts existed). */
  alertIds?: string[];
}

/** Who made or changed an object, as the API records it (`created_by`, `updated_by`; kinds/audit-record/model.ts `actorRef`). */
export interface ActorRef {
  id: string;
  type: string;
  self: string;
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

/**
 * The core's part of the state: the account registry a seed makes (accounts, users, apps, API keys,
 * escalation policies), the tokens issued, and every id ever handed out.
 */
export interface CoreState {
  version: 1;
  adminToken: string;
  /** Private signing key (JWK) for id_tokens; created on first use so startup stays fast. */
  signingKey: JsonWebKey | null;
  accounts: Record<string, Account>;
  users: Record<string, User>;
  apps: Record<string, App>;
  apiKeys: Record<string, ApiKey>;
  escalationPolicies: Record<string, EscalationPolicy>;
  accessTokens: Record<string, AccessToken>;
  refreshTokens: Record<string, RefreshToken>;
  /** Every id ever handed out, so none is reused. */
  usedIds: string[];
}

/**
 * The kinds' tables. Empty here: each kind's module adds its own beside its records
 * (`declare module "<path>/store" { interface KindTables { ... } }`) and brings their empty values
 * (kinds/kind.ts); kinds/index.ts does not compile while a table added here has no listed kind.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the kinds' modules add their tables (declaration merging)
export interface KindTables {}

export interface State extends CoreState, KindTables {}

/** The core's tables, empty (the kinds' come from their modules: core.ts). */
export function emptyCoreState(adminToken: string): CoreState {
  return {
    version: 1,
    adminToken,
    signingKey: null,
    accounts: {},
    users: {},
    apps: {},
    apiKeys: {},
    escalationPolicies: {},
    accessTokens: {},
    refreshTokens: {},
    usedIds: [],
  };
}

/** The core's tables (each keyed by id); the kinds name theirs in their `tables`. */
export const CORE_TABLES = ["accounts", "users", "apps", "apiKeys", "escalationPolicies", "accessTokens", "refreshTokens"] as const;

/**
 * The same state with each of `tables` rebuilt without a prototype, so that an id taken from a
 * request ("__proto__", "constructor") names no row: with Object's prototype it named the prototype
 * itself, and a route that wrote to what it found wrote onto every object of the process.
 */
export function withBareTables(state: State, tables: readonly string[]): State {
  const bare: Record<string, unknown> = { ...state };
  for (const t of tables) bare[t] = Object.assign(Object.create(null), bare[t]);
  return bare as unknown as State;
}

export const accountBySubdomain = (state: State, subdomain: string): Account | undefined =>
  Object.values(state.accounts).find((a) => a.subdomain === subdomain);

export const appByClientId = (state: State, clientId: string): App | undefined => Object.values(state.apps).find((a) => a.clientId === clientId);

/** Look up an object of one account; objects of other accounts are invisible (404). */
export function owned<T extends { accountId: string }>(table: Record<string, T>, id: string, accountId: string): T | undefined {
  const o = Object.hasOwn(table, id) ? table[id] : undefined;
  return o && o.accountId === accountId ? o : undefined;
}

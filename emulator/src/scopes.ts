// Scope names (case sensitive) and what each user role may do with them.
import type { Role } from "./store";

export const SCOPES = {
  servicesRead: "services.read",
  servicesWrite: "services.write",
  fieldsRead: "custom_fields.read",
  fieldsWrite: "custom_fields.write",
  auditRead: "audit_records.read",
  policiesRead: "escalation_policies.read",
  abilitiesRead: "abilities.read",
  vendorsRead: "vendors.read",
  prioritiesRead: "priorities.read",
  incidentsRead: "incidents.read",
  incidentsWrite: "incidents.write",
} as const;

/** Every scope a REST route of the emulator can require. */
export const KNOWN_SCOPES: readonly string[] = Object.values(SCOPES);

/** What the default Scoped OAuth app is configured with (printed by the CLI). */
export const DEFAULT_APP_SCOPES = [
  SCOPES.servicesRead,
  SCOPES.servicesWrite,
  SCOPES.fieldsRead,
  SCOPES.fieldsWrite,
  SCOPES.auditRead,
  // What lookups and other clients (the official Terraform provider checks /abilities) read.
  SCOPES.policiesRead,
  SCOPES.abilitiesRead,
  SCOPES.vendorsRead,
  SCOPES.prioritiesRead,
  // Incidents set a service's status (kinds/incident/).
  SCOPES.incidentsRead,
  SCOPES.incidentsWrite,
];

export const CLASSIC_SCOPES = ["read", "write"] as const;
export const OPENID = "openid";

const isRead = (scope: string): boolean => scope.endsWith(".read");

/**
 * A role's permissions: admins may do everything, full users everything but account-level
 * configuration (custom field definitions), read-only users only reads.
 */
export function roleAllows(role: Role, scope: string): boolean {
  if (role === "admin") return true;
  if (role === "read_only") return isRead(scope);
  return scope !== SCOPES.fieldsWrite;
}

/** Classic `read`/`write` grants mean "read everything" / "read and write everything". */
export function effectiveScopes(granted: readonly string[]): Set<string> {
  const set = new Set(granted);
  if (set.has("write")) KNOWN_SCOPES.forEach((s) => set.add(s));
  else if (set.has("read")) KNOWN_SCOPES.filter(isRead).forEach((s) => set.add(s));
  return set;
}

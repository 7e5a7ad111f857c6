// The OAuth scopes the package asks for, each written once: the REST paths' needs (kernel/api-paths.ts
// re-exports them beside the paths) and what a token asks for by default (config.ts). They are those
// the API description's `x-pd-requires-scope` names for the paths.

/** `services.read`: reading services and everything under them. */
export const READ = ["services.read"];
/** `services.write`: creating, changing and deleting them. */
export const WRITE = ["services.write"];
/** `custom_fields.read`: the account's custom field definitions. */
export const FIELDS_READ = ["custom_fields.read"];
/** `custom_fields.write`: creating, changing and deleting custom field definitions. */
export const FIELDS_WRITE = ["custom_fields.write"];
/** `audit_records.read`: who created what (recovery's searches, the audit-record lookup). */
export const AUDIT_READ = ["audit_records.read"];
/** `escalation_policies.read`: the account's escalation policies (a service's, checked at preview; the lookup). */
export const POLICIES_READ = ["escalation_policies.read"];
/** `vendors.read`: PagerDuty's catalogue of integration vendors. */
export const VENDORS_READ = ["vendors.read"];
/** `priorities.read`: the account's incident priorities. */
export const PRIORITIES_READ = ["priorities.read"];
/** `incidents.read`: incidents, their alerts and notes (what the routing test's record and parity read back). */
export const INCIDENTS_READ = ["incidents.read"];

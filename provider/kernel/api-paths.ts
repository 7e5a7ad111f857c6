// The service's REST paths and the scopes the resources ask for, in one place: every id is encoded
// here; the scopes (../scopes.ts) are those the API description's `x-pd-requires-scope` names for the paths.
const seg = encodeURIComponent;

export { AUDIT_READ, FIELDS_READ, FIELDS_WRITE, INCIDENTS_READ, POLICIES_READ, PRIORITIES_READ, READ, VENDORS_READ, WRITE } from "../scopes";
// Business services and alert grouping settings are listed with `services.read` (READ), as the API
// description says of listBusinessServices and listAlertGroupingSettings: no scope of their own.

/** The user the token acts for: answered without a scope, so it tells whether the REST API takes a token. */
export const CURRENT_USER = "/users/me";

export const SERVICES = "/services";

/** A service, or a path under it. */
export const servicePath = (service: string) => `${SERVICES}/${seg(service)}`;

/** A service's integrations, or one of them. */
export const integrationsPath = (service: string, id?: string) => `${servicePath(service)}/integrations${id === undefined ? "" : `/${seg(id)}`}`;

/** A service's event rules, or one of them. */
export const rulesPath = (service: string, id?: string) => `${servicePath(service)}/rules${id === undefined ? "" : `/${seg(id)}`}`;

/** The verb that converts a service's event rules to event orchestration rules. */
export const rulesConvertPath = (service: string) => `${servicePath(service)}/rules/convert`;

/** The account's custom field definitions for services. */
export const FIELD_DEFINITIONS = `${SERVICES}/custom_fields`;

/** One custom field definition. */
export const fieldPath = (field: string) => `${FIELD_DEFINITIONS}/${seg(field)}`;

/** A service's custom field values. */
export const fieldValuesPath = (service: string) => `${servicePath(service)}/custom_fields/values`;

/** A service's feature enablements, or one of them. */
export const enablementsPath = (service: string, feature?: string) => `${servicePath(service)}/enablements${feature ? `/${seg(feature)}` : ""}`;

/** A service's audit records. */
export const auditRecordsPath = (service: string) => `${servicePath(service)}/audit/records`;

/** A service's event orchestration (every service has one). */
export const orchestrationPath = (service: string) => `/event_orchestrations/services/${seg(service)}`;

/** Whether a service's events go through its event orchestration. */
export const orchestrationActivePath = (service: string) => `${orchestrationPath(service)}/active`;

/** The account's escalation policies, or one of them. */
export const ESCALATION_POLICIES = "/escalation_policies";
export const escalationPolicyPath = (id: string) => `${ESCALATION_POLICIES}/${seg(id)}`;

/** PagerDuty's catalogue of vendors (integration types by product). */
export const VENDORS = "/vendors";

/** The account's incident priorities. */
export const PRIORITIES = "/priorities";

/** The account's business services. */
export const BUSINESS_SERVICES = "/business_services";

/** The account's alert grouping settings, or one of them. */
export const ALERT_GROUPING_SETTINGS = "/alert_grouping_settings";
export const alertGroupingSettingPath = (id: string) => `${ALERT_GROUPING_SETTINGS}/${seg(id)}`;

/** The verbs that make and remove service dependencies. */
export const DEPENDENCIES_ASSOCIATE = "/service_dependencies/associate";
export const DEPENDENCIES_DISASSOCIATE = "/service_dependencies/disassociate";

/** The immediate dependencies of a technical service (a `service`) or of a business service. */
export const dependenciesOfPath = (kind: "service" | "business_service", id: string) =>
  `/service_dependencies/${kind === "service" ? "technical_services" : "business_services"}/${seg(id)}`;

/** A service orchestration's cache variables, or one of them (scopes: services.read/write, as the description says). */
export const cacheVariablesPath = (service: string, id?: string) => `${orchestrationPath(service)}/cache_variables${id === undefined ? "" : `/${seg(id)}`}`;

/** The account's incidents, one of them, and what is under it (alerts, notes). */
export const INCIDENTS = "/incidents";
export const incidentPath = (id: string) => `${INCIDENTS}/${seg(id)}`;
export const incidentAlertsPath = (id: string) => `${incidentPath(id)}/alerts`;
export const incidentNotesPath = (id: string) => `${incidentPath(id)}/notes`;

/**
 * The account's maintenance windows, and one of them (scopes: services.read/write, as PagerDuty's API
 * description says of every maintenance-window path: there is no scope of their own).
 */
export const MAINTENANCE_WINDOWS = "/maintenance_windows";
export const maintenanceWindowPath = (id: string) => `${MAINTENANCE_WINDOWS}/${seg(id)}`;

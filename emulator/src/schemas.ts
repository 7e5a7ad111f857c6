// Request body schemas checked by fastify before a handler runs (compiled once at start), following
// the required properties, types and enums of PagerDuty's API description. What JSON Schema cannot
// say (references that must exist, unique names, values that depend on other fields or on a field
// definition) stays in the handlers. Failures become the service's 400 body, one message per
// problem naming the field (`"auto_resolve_timeout" must be >= 0`), through `schemaErrors`.
import type { ErrorObject } from "ajv";
import { ApiError } from "./errors";

type Schema = Record<string, unknown>;

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: "object", properties, required });
const envelope = (key: string, inner: Schema, extra: Record<string, Schema> = {}, required = [key]): Schema => object({ [key]: inner, ...extra }, required);
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });

const SERVICE_FIELDS: Record<string, Schema> = {
  type: { type: "string", enum: ["service"] },
  name: { type: "string", minLength: 1, maxLength: 255, pattern: "\\S" },
  description: nullable({ type: "string", maxLength: 1024 }),
  auto_resolve_timeout: nullable({ type: "integer", minimum: 0, maximum: 2147483647 }),
  acknowledgement_timeout: nullable({ type: "integer", minimum: 0, maximum: 2147483647 }),
  status: { type: "string", enum: ["active", "warning", "critical", "maintenance", "disabled"] },
  escalation_policy: object({ id: { type: "string", minLength: 1 } }, ["id"]),
  alert_creation: { type: "string", enum: ["create_incidents", "create_alerts_and_incidents"] },
};

/**
 * POST /services: the description requires `type` too, but production clients never send it
 * (PagerDuty's Terraform provider, go-pagerduty: `omitempty` and unset; see REJECTIONS.md).
 */
export const createServiceBody = envelope("service", object(SERVICE_FIELDS, ["name", "escalation_policy"]));
/** PUT /services/{id}: a partial update (absent fields stay). */
export const updateServiceBody = envelope("service", object(SERVICE_FIELDS));
/** PUT /services: update multiple, each item naming its service. */
export const updateServicesBody = envelope("services", {
  type: "array",
  minItems: 1,
  items: object({ id: { type: "string", minLength: 1 }, ...SERVICE_FIELDS }, ["id"]),
});

const reference = object({ id: { type: "string", minLength: 1 } }, ["id"]);

export const integrationBody = envelope(
  "integration",
  object({ name: { type: "string", minLength: 1, maxLength: 255 }, vendor: nullable(reference), type: { type: "string" } }),
);

export const createRuleBody = envelope("rule", { type: "object" });
/**
 * The description requires the body to name the rule again in `rule_id`; the Terraform provider,
 * python `pagerduty` and `@pagerduty/pdjs` send `{"rule": {...}}` only, so it is optional here.
 */
export const updateRuleBody = envelope("rule", { type: "object" }, { rule_id: { type: "string" } });

const FIELD_DEF: Record<string, Schema> = {
  name: { type: "string", pattern: "^[a-z0-9_]{1,50}$" },
  display_name: { type: "string", minLength: 1, maxLength: 50, pattern: "\\S" },
  description: nullable({ type: "string", maxLength: 1000 }),
  data_type: { type: "string", enum: ["boolean", "integer", "float", "string", "datetime", "url"] },
  field_type: { type: "string", enum: ["single_value", "single_value_fixed", "multi_value", "multi_value_fixed"] },
  enabled: { type: "boolean" },
  field_options: { type: "array", items: { type: "object" } },
};
export const createFieldBody = envelope("field", object(FIELD_DEF, ["name", "display_name", "data_type", "field_type"]));
export const updateFieldBody = envelope("field", object(FIELD_DEF));
/** POST/PUT /services/custom_fields/{id}/field_options(/{option}): `{"field_option": {"data": {"data_type", "value"}}}`. */
export const fieldOptionBody = envelope("field_option", object({ data: object({ data_type: { type: "string" }, value: {} }, ["value"]) }, ["data"]));

export const fieldValuesBody = envelope("custom_fields", { type: "array", items: { type: "object" } });

/**
 * PUT /incidents/{id}: `type` is required by the description and sent by clients (go-pagerduty's
 * ManageIncidentsOptions, the python client's and pdjs's documented bodies); other writable fields
 * of the description (priority, assignments, escalation, conference bridge) are accepted and ignored.
 */
export const updateIncidentBody = envelope(
  "incident",
  object(
    {
      type: { type: "string", enum: ["incident", "incident_reference"] },
      status: { type: "string", enum: ["triggered", "acknowledged", "resolved"] },
      title: { type: "string", minLength: 1, maxLength: 1024, pattern: "\\S" },
      urgency: { type: "string", enum: ["high", "low"] },
      resolution: { type: "string" },
    },
    ["type"],
  ),
);

export const enablementBody = envelope("enablement", object({ enabled: { type: "boolean" } }, ["enabled"]));

/** The grouping types of `/alert_grouping_settings` (the description's enum). */
export const GROUPING_SETTING_TYPES = ["content_based", "content_based_intelligent", "intelligent", "time"] as const;
const SETTING_FIELDS: Record<string, Schema> = {
  name: nullable({ type: "string", maxLength: 255 }),
  description: nullable({ type: "string", maxLength: 1024 }),
  type: { type: "string", enum: [...GROUPING_SETTING_TYPES] },
  // Checked per type by the handler (alert-grouping-settings.ts).
  config: nullable({ type: "object" }),
  services: { type: "array", items: reference },
};
/** POST /alert_grouping_settings: the Terraform provider always sends `type`, `config` and `services`. */
export const createSettingBody = envelope("alert_grouping_setting", object(SETTING_FIELDS, ["type", "services"]));
/** PUT /alert_grouping_settings/{id}: absent fields stay, `services` included (the description says so). */
export const updateSettingBody = envelope("alert_grouping_setting", object(SETTING_FIELDS));

const side = object({ id: { type: "string", minLength: 1 }, type: { type: "string" } }, ["id", "type"]);
/** POST /service_dependencies/associate and /disassociate. */
export const relationshipsBody = envelope("relationships", {
  type: "array",
  minItems: 1,
  items: object({ supporting_service: side, dependent_service: side }, ["supporting_service", "dependent_service"]),
});

export const businessServiceBody = envelope(
  "business_service",
  object(
    {
      name: { type: "string", minLength: 1, maxLength: 255, pattern: "\\S" },
      description: nullable({ type: "string" }),
      point_of_contact: nullable({ type: "string" }),
    },
    ["name"],
  ),
);

const ARTICLE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

/** `/service/support_hours/days_of_week/0` → `support_hours.days_of_week[0]` (the envelope key left out). */
function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (extra !== undefined) parts.push(extra);
  // The envelope key is left out, but kept before an index (`services[1].name`).
  const inner = parts.length > 1 && !/^\d+$/.test(parts[1]) ? parts.slice(1) : parts;
  return inner.reduce((s, p) => (/^\d+$/.test(p) ? `${s}[${p}]` : s ? `${s}.${p}` : p), "");
}

function message(e: ErrorObject): string {
  const schema = (e.parentSchema ?? {}) as Schema;
  if (e.keyword === "required") return `"${fieldPath(e.instancePath, (e.params as { missingProperty: string }).missingProperty)}" is required`;
  const at = fieldPath(e.instancePath);
  if (at === "") return `The request body must be a JSON object`;
  const field = `"${at}"`;
  // The service's own wording for these two.
  if (at === "name" && (e.keyword === "minLength" || (e.keyword === "pattern" && schema.pattern === "\\S"))) return "Name can't be blank";
  if (schema.type === "integer" && schema.minimum === 0 && (e.keyword === "type" || e.keyword === "minimum"))
    return `${field} must be a non-negative integer${schema.nullable ? " or null" : ""}`;
  switch (e.keyword) {
    case "minItems":
      return `${field} must not be empty`;
    case "type": {
      const t = String((e.params as { type: string }).type).split(",")[0];
      return `${field} must be ${ARTICLE[t] ?? t}${schema.nullable ? " or null" : ""}`;
    }
    case "enum":
      return `${field} must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
    case "minimum":
      return `${field} must be >= ${(e.params as { limit: number }).limit}`;
    case "minLength":
    case "pattern":
      return schema.pattern === "\\S" || e.keyword === "minLength" ? `${field} can't be blank` : `${field} has an invalid format`;
    case "maxLength":
      return `${field} is too long (maximum is ${(e.params as { limit: number }).limit} characters)`;
    default:
      return `${field} ${e.message ?? "is invalid"}`;
  }
}

/** fastify's `schemaErrorFormatter`: every problem of the body in one INVALID_INPUT error. */
export function schemaErrors(errors: ErrorObject[]): ApiError {
  return new ApiError("INVALID_INPUT", [...new Set(errors.map(message))]);
}

/** Options for fastify's ajv: report every problem, never coerce, add or drop anything. */
export const AJV_OPTIONS = { allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false, verbose: true } as const;

/**
 * POST and PUT of a service orchestration's cache variable: the envelope only. What the description's
 * `oneOf` says per `configuration.type` is checked by the handler (cache-variables.ts), naming each field.
 */
export const cacheVariableBody = envelope("cache_variable", { type: "object" });

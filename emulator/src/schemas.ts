// Request body schemas checked by fastify before a handler runs (compiled once at start), following
// the required properties, types and enums of PagerDuty's API description: the helpers each kind
// writes its bodies' schemas with (kinds/), and the wording of their failures. What JSON Schema
// cannot say (references that must exist, unique names, values that depend on other fields or on a
// field definition) stays in the handlers. Failures become the service's 400 body, one message per
// problem naming the field (`"auto_resolve_timeout" must be >= 0`), through `schemaErrors`.
import type { ErrorObject } from "ajv";
import { ApiError } from "./errors";

export type Schema = Record<string, unknown>;

export const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: "object", properties, required });
export const envelope = (key: string, inner: Schema, extra: Record<string, Schema> = {}, required = [key]): Schema =>
  object({ [key]: inner, ...extra }, required);
export const nullable = (s: Schema): Schema => ({ ...s, nullable: true });

/** An object reference in a body: `{id, ...}`. */
export const reference = object({ id: { type: "string", minLength: 1 } }, ["id"]);

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

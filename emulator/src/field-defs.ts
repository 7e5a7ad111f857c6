// Custom field definitions as data: validation of a definition and of the values it accepts. Used
// by the routes and by seeding, so it stays free of HTTP and of the core (seeding runs inside it).
import { invalid } from "./errors";
import type { IdAllocator } from "./ids";
import type { CustomFieldDef, FieldOption, State } from "./store";
import { isObject, type Json, Validator } from "./validate";

const DATA_TYPES = ["boolean", "integer", "float", "string", "datetime", "url"] as const;
const FIELD_TYPES = ["single_value", "single_value_fixed", "multi_value", "multi_value_fixed"] as const;
const NAME = /^[A-Za-z0-9_]{1,50}$/;

/** Why `value` does not fit `dataType`, or undefined when it does. */
function scalarProblem(dataType: string, value: unknown): string | undefined {
  switch (dataType) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "integer":
      return Number.isSafeInteger(value) ? undefined : "must be an integer";
    case "float":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
    case "string":
      return typeof value === "string" && value.length <= 1000 ? undefined : "must be a string of at most 1000 characters";
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? undefined : "must be an ISO 8601 date-time";
    case "url":
      return typeof value === "string" && /^https?:\/\/[^\s]+$/.test(value) ? undefined : "must be an http(s) URL";
    default:
      return "has an unknown data type";
  }
}

/** Why `value` is not acceptable for the field (null always is: it clears). */
export function valueProblem(def: CustomFieldDef, value: unknown): string | undefined {
  if (value === null) return undefined;
  const multi = def.field_type.startsWith("multi");
  const values = multi ? value : [value];
  if (multi && (!Array.isArray(value) || value.length === 0)) return "must be a non-empty array";
  for (const v of values as unknown[]) {
    const p = scalarProblem(def.data_type, v);
    if (p) return p;
    if (def.field_type.endsWith("_fixed") && !def.field_options.some((o) => o.data.value === v))
      return `must be one of the field's options (${def.field_options.map((o) => JSON.stringify(o.data.value)).join(", ")})`;
  }
  return undefined;
}

export function parseOptions(v: Validator, o: Json, dataType: string | undefined, ids: IdAllocator): FieldOption[] | undefined {
  const list = v.array(o, "field_options");
  if (!list) return undefined;
  return list.map((opt, i) => {
    const data = isObject(opt) && isObject(opt.data) ? opt.data : undefined;
    const p = data ? scalarProblem(dataType ?? "", data.value) : 'must be {"data": {"data_type", "value"}}';
    if (p) v.fail(`"field_options[${i}].data.value" ${p}`);
    return { id: ids.next(), data: { data_type: dataType ?? "", value: data?.value } };
  });
}

/** Validate and store a new definition (also used by seeding). */
export function createFieldDef(state: State, ids: IdAllocator, accountId: string, o: Json, now: string, id?: string): CustomFieldDef {
  const v = new Validator();
  const name = v.string(o, "name", { required: true, pattern: NAME });
  const dataType = v.oneOf(o, "data_type", DATA_TYPES, { required: true });
  const fieldType = v.oneOf(o, "field_type", FIELD_TYPES, { required: true }) ?? "single_value";
  const enabled = v.boolean(o, "enabled") ?? true;
  if (dataType === "boolean" && fieldType !== "single_value") v.fail('"field_type" of a boolean field must be single_value');
  const def: CustomFieldDef = {
    id: "",
    accountId,
    name: name as string,
    display_name: v.string(o, "display_name", { required: true, nonEmpty: true, max: 50 }) as string,
    description: v.string(o, "description", { nullable: true, max: 1000 }) ?? null,
    data_type: dataType as string,
    field_type: fieldType,
    default_value: null,
    field_options: parseOptions(v, o, dataType ?? undefined, ids) ?? [],
    enabled,
    created_at: now,
    updated_at: now,
  };
  if (name && Object.values(state.customFields).some((f) => f.accountId === accountId && f.name === name)) v.fail(`Name has already been taken ("${name}")`);
  v.done();
  setDefault(def, o);
  def.id = id ?? ids.next();
  state.customFields[def.id] = def;
  return def;
}

export function setDefault(def: CustomFieldDef, o: Json): void {
  if (o.default_value === undefined) return;
  const p = valueProblem(def, o.default_value);
  if (p) throw invalid(`"default_value" ${p}`);
  def.default_value = o.default_value;
}

// Custom field definitions as data: their records, validation of a definition, of its options and
// of the values it accepts, and what a change of options does to the values services hold. Used by
// the routes and by seeding, so it stays free of HTTP and of the core (seeding runs inside it).
//
// From the API description: `name` (lowercase letters, digits, underscores; unique; fixed once
// created), `display_name` (unique across the account), options only on the `*_fixed` field types and
// typed `string` only (the option's `data_type` enum, which PagerDuty's Terraform provider validates
// too), an option's value unique within its field and at most 200 characters. A field PUT's
// `field_options` updates the options it names by id, creates those without one, and deletes the
// others unless one is the field's default value.
import { invalid } from "../../errors";
import type { IdAllocator } from "../../ids";
import type { State } from "../../store";
import { isObject, type Json, Validator } from "../../validate";

declare module "../../store" {
  interface KindTables {
    /** Seeded: a reset gives back the seed's definitions. */
    customFields: Record<string, CustomFieldDef>;
  }
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

const DATA_TYPES = ["boolean", "integer", "float", "string", "datetime", "url"] as const;
const FIELD_TYPES = ["single_value", "single_value_fixed", "multi_value", "multi_value_fixed"] as const;
const NAME = /^[a-z0-9_]{1,50}$/;
const OPTION_MAX = 200;

export const isFixed = (fieldType: string): boolean => fieldType.endsWith("_fixed");

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
    if (isFixed(def.field_type) && !def.field_options.some((o) => o.data.value === v))
      return `must be one of the field's options (${def.field_options.map((o) => JSON.stringify(o.data.value)).join(", ")})`;
  }
  return undefined;
}

/** The value of one option body `{data: {data_type, value}}`, checked against the field; undefined when wrong. */
export function optionValue(v: Validator, at: string, opt: unknown, field: Pick<CustomFieldDef, "data_type">): string | undefined {
  const data = isObject(opt) && isObject(opt.data) ? opt.data : undefined;
  if (!data) return v.fail(`"${at}" must be {"data": {"data_type", "value"}}`);
  if (data.data_type !== undefined && data.data_type !== field.data_type)
    v.fail(`"${at}.data.data_type" must be the field's data type ("${field.data_type}"), got ${JSON.stringify(data.data_type)}`);
  const value = data.value;
  if (typeof value !== "string" || value.trim() === "") return v.fail(`"${at}.data.value" must be a non-empty string`);
  if (value.length > OPTION_MAX) return v.fail(`"${at}.data.value" is too long (maximum is ${OPTION_MAX} characters)`);
  return value;
}

/** Fails unless every option value of `options` is distinct. */
function uniqueValues(v: Validator, options: readonly FieldOption[]): void {
  const seen = new Set<unknown>();
  for (const o of options) {
    if (seen.has(o.data.value)) v.fail(`"field_options" lists the value ${JSON.stringify(o.data.value)} twice (values are unique within a field)`);
    seen.add(o.data.value);
  }
}

const newOption = (ids: IdAllocator, dataType: string, value: unknown, now: string): FieldOption => ({
  id: ids.next(),
  data: { data_type: dataType, value },
  created_at: now,
  updated_at: now,
});

/**
 * The options a field PUT's `field_options` leaves: each item with an `id` updates that option, one
 * without creates an option, and options not listed are deleted (not the default value).
 */
function nextOptions(v: Validator, list: unknown[], def: CustomFieldDef, ids: IdAllocator, now: string): FieldOption[] {
  const out: FieldOption[] = [];
  list.forEach((item, i) => {
    const at = `field_options[${i}]`;
    const value = optionValue(v, at, item, def);
    const id = isObject(item) ? item.id : undefined;
    if (id !== undefined && id !== null) {
      const old = def.field_options.find((o) => o.id === id);
      if (!old) return v.fail(`"${at}.id" ${JSON.stringify(id)} is not an option of field "${def.name}"`);
      if (value !== undefined) out.push(old.data.value === value ? old : { ...old, data: { ...old.data, value }, updated_at: now });
    } else if (value !== undefined) out.push(newOption(ids, def.data_type, value, now));
  });
  for (const old of def.field_options) {
    if (!out.some((o) => o.id === old.id) && def.default_value === old.data.value)
      v.fail(`"field_options" leaves out ${JSON.stringify(old.data.value)}, the field's default value: change "default_value" first`);
  }
  uniqueValues(v, out);
  return out;
}

/** Options only on fixed types, and those typed string only (the option's `data_type` enum). */
function typeRules(v: Validator, dataType: string | null | undefined, fieldType: string, hasOptions: boolean): void {
  if (dataType === "boolean" && fieldType !== "single_value") v.fail('"field_type" of a boolean field must be single_value');
  if (isFixed(fieldType) && dataType && dataType !== "string")
    v.fail(`"field_type" ${fieldType} needs "data_type" string (options are strings), got "${dataType}"`);
  if (!isFixed(fieldType) && hasOptions) v.fail(`"field_options" apply only to the field types single_value_fixed and multi_value_fixed, not ${fieldType}`);
}

const displayTaken = (state: State, accountId: string, display: string, except?: string) =>
  Object.values(state.customFields).some((f) => f.accountId === accountId && f.id !== except && f.display_name === display);

/** Validate and store a new definition (also used by seeding). */
export function createFieldDef(state: State, ids: IdAllocator, accountId: string, o: Json, now: string, id?: string): CustomFieldDef {
  const v = new Validator();
  const name = v.string(o, "name", { required: true, pattern: NAME });
  const dataType = v.oneOf(o, "data_type", DATA_TYPES, { required: true });
  const fieldType = v.oneOf(o, "field_type", FIELD_TYPES, { required: true }) ?? "single_value";
  const enabled = v.boolean(o, "enabled") ?? true;
  const display = v.string(o, "display_name", { required: true, nonEmpty: true, max: 50 }) as string;
  const list = v.array(o, "field_options") ?? [];
  typeRules(v, dataType, fieldType, list.length > 0);
  const def: CustomFieldDef = {
    id: "",
    accountId,
    name: name as string,
    display_name: display,
    description: v.string(o, "description", { nullable: true, max: 1000 }) ?? null,
    data_type: dataType as string,
    field_type: fieldType,
    default_value: null,
    field_options: [],
    enabled,
    created_at: now,
    updated_at: now,
  };
  def.field_options = list.map((opt, i) => optionValue(v, `field_options[${i}]`, opt, def)).map((value) => newOption(ids, def.data_type, value, now));
  uniqueValues(v, def.field_options);
  if (name && Object.values(state.customFields).some((f) => f.accountId === accountId && f.name === name)) v.fail(`Name has already been taken ("${name}")`);
  if (display && displayTaken(state, accountId, display)) v.fail(`Display name has already been taken ("${display}")`);
  v.done();
  setDefault(def, o);
  def.id = id ?? ids.next();
  state.customFields[def.id] = def;
  return def;
}

/**
 * The definition a field PUT leaves (not stored): `name`, `data_type` and `field_type` cannot change
 * (the description's update body has none of them; the same value is accepted).
 */
export function updatedFieldDef(state: State, ids: IdAllocator, f: CustomFieldDef, o: Json, now: string): CustomFieldDef {
  const v = new Validator();
  for (const k of ["name", "data_type", "field_type"] as const) {
    if (o[k] !== undefined && o[k] !== f[k]) v.fail(`"${k}" cannot be changed (is ${JSON.stringify(f[k])}); create another field instead`);
  }
  const display = v.string(o, "display_name", { nonEmpty: true, max: 50 });
  const description = v.string(o, "description", { nullable: true, max: 1000 });
  const enabled = v.boolean(o, "enabled");
  const list = v.array(o, "field_options");
  if (list?.length && !isFixed(f.field_type)) typeRules(v, f.data_type, f.field_type, true);
  if (display && displayTaken(state, f.accountId, display, f.id)) v.fail(`Display name has already been taken ("${display}")`);
  const next: CustomFieldDef = { ...f, updated_at: now };
  // The default may change in the same PUT, and options are judged against the new one.
  if (o.default_value !== undefined) next.default_value = o.default_value;
  if (list) next.field_options = nextOptions(v, list, next, ids, now);
  v.done();
  next.default_value = f.default_value;
  setDefault(next, o);
  if (display) next.display_name = display;
  if (description !== undefined) next.description = description;
  if (enabled !== undefined && enabled !== null) next.enabled = enabled;
  return next;
}

export function setDefault(def: CustomFieldDef, o: Json): void {
  if (o.default_value === undefined) return;
  const p = valueProblem(def, o.default_value);
  if (p) throw invalid(`"default_value" ${p}`);
  def.default_value = o.default_value;
}

/**
 * Services' values after a field's options changed from `before` to `after`: a renamed option's
 * value follows it (options are referred to by id), a deleted option's value is dropped.
 */
export function carryValues(state: State, before: CustomFieldDef, after: CustomFieldDef): void {
  const renamed = new Map<unknown, unknown>();
  for (const o of before.field_options) {
    const now = after.field_options.find((n) => n.id === o.id);
    if (now && now.data.value !== o.data.value) renamed.set(o.data.value, now.data.value);
  }
  const fits = (x: unknown) => !valueProblem(after, after.field_type.startsWith("multi") ? [x] : x);
  for (const s of Object.values(state.services)) {
    if (s.accountId !== after.accountId || !(after.id in s.fieldValues)) continue;
    const old = s.fieldValues[after.id];
    const moved = Array.isArray(old) ? old.map((x) => (renamed.has(x) ? renamed.get(x) : x)).filter(fits) : renamed.has(old) ? renamed.get(old) : old;
    if (Array.isArray(moved) ? moved.length === 0 : !fits(moved)) delete s.fieldValues[after.id];
    else s.fieldValues[after.id] = moved;
  }
}

// pagerduty:ServiceCustomFieldValues — values of custom fields on one service
// (`/services/{id}/custom_fields/values`), keyed by field name.
//
// Only the fields named in `values` are managed. Before the first write the resource records what
// those fields held (`previousValues`); removing a field from `values`, and deleting the resource,
// puts that value back (null where it was empty). Every write is one PUT, which the API applies
// atomically. Adoption needs no id: creating the resource over existing values simply starts
// managing them, and their current values become the ones restored on delete.
import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { PagerDutyError, ScopeError } from "../errors";
import { getClient } from "../runtime";
import { checkInputs, deleteOrGone, readOrGone, toFailure, UNKNOWN, userInputs, type Json } from "./fields";

const READ = ["services.read"];
const WRITE = ["services.write"];

const scalar = z.union([z.boolean(), z.number(), z.string()]);
const fieldValue = z.union([z.null(), scalar, z.array(scalar).min(1, "must not be empty (use null to clear the field)")]);

export const customFieldValuesInputs = z
  .object({
    service: z.string().min(1, "must be a service id"),
    values: z
      .record(z.string().min(1, "field names must not be empty"), fieldValue)
      .refine((v) => Object.keys(v).length > 0, "must name at least one custom field"),
  })
  .strict();

export type CustomFieldValuesInputs = z.infer<typeof customFieldValuesInputs>;
type Values = Record<string, Json>;

/** One item of the API's `custom_fields` list. */
export interface ApiFieldValue {
  id: string;
  name: string;
  value?: unknown;
  display_name?: string;
  data_type?: string;
  field_type?: string;
}

const valuesPath = (service: string) => `/services/${encodeURIComponent(service)}/custom_fields/values`;

export async function getFieldValues(service: string): Promise<ApiFieldValue[]> {
  const res = await getClient().request<{ custom_fields?: ApiFieldValue[] }>("GET", valuesPath(service), { scopes: READ });
  return res?.custom_fields ?? [];
}

/** One atomic PUT naming each field by id and name. Returns the service's values after it. */
async function putFieldValues(service: string, items: Array<{ field: ApiFieldValue; value: Json }>): Promise<ApiFieldValue[]> {
  const body = { custom_fields: items.map(({ field, value }) => ({ id: field.id, name: field.name, value })) };
  const res = await getClient().request<{ custom_fields?: ApiFieldValue[] }>("PUT", valuesPath(service), { body, scopes: WRITE });
  return res?.custom_fields ?? [];
}

/** The values of `names` in a live list; a field without a value (or without a definition) is null. */
export function pick(live: readonly ApiFieldValue[], names: readonly string[]): Values {
  const byName = new Map(live.map((f) => [f.name, f]));
  return Object.fromEntries(names.map((n) => [n, (byName.get(n)?.value ?? null) as Json]));
}

/** The definitions of `names`; fails naming every field the account does not have. */
export function definitions(live: readonly ApiFieldValue[], names: readonly string[]): Map<string, ApiFieldValue> {
  const byName = new Map(live.map((f) => [f.name, f]));
  const missing = names.filter((n) => !byName.has(n));
  if (missing.length) {
    const known = live.map((f) => f.name).join(", ") || "none";
    throw new PagerDutyError(
      "ERR_INPUT",
      `"values" names ${missing.map((n) => `"${n}"`).join(", ")}, which the account has no custom field for (fields: ${known})`,
    );
  }
  return new Map(names.map((n) => [n, byName.get(n)!]));
}

/** Outputs. `values` holds the live values of the managed fields only. */
function outputs(service: string, live: readonly ApiFieldValue[], names: readonly string[], previousValues: Values) {
  return { service, values: pick(live, names), previousValues };
}

const managed = (news: Record<string, unknown>) => userInputs(news) as CustomFieldValuesInputs;
const namesOf = (v: unknown) => Object.keys((v ?? {}) as object);

/**
 * The PUT items for one change: every desired value, plus the pre-management value of every field
 * that is no longer managed (skipped when its definition is gone: nothing is left to restore).
 */
export function planWrite(live: readonly ApiFieldValue[], desired: Values, previous: Values, released: readonly string[]) {
  const defs = definitions(live, Object.keys(desired));
  const present = new Set(live.map((f) => f.name));
  const restore = released.filter((n) => present.has(n));
  const restoreDefs = definitions(live, restore);
  return [
    ...Object.entries(desired).map(([n, value]) => ({ field: defs.get(n)!, value })),
    ...restore.map((n) => ({ field: restoreDefs.get(n)!, value: (previous[n] ?? null) as Json })),
  ];
}

/** Field names each account defines, read once per process and client (they rarely change mid-run). */
const accountFields = new WeakMap<object, Promise<string[] | undefined>>();
function definedFieldNames(): Promise<string[] | undefined> {
  const client = getClient();
  let names = accountFields.get(client);
  if (!names) {
    names = client
      .request<{ fields?: Array<{ name: string }> }>("GET", "/services/custom_fields", { scopes: ["custom_fields.read"] })
      .then((r) => (r?.fields ?? []).map((f) => f.name))
      .catch((e) => {
        accountFields.delete(client);
        // Without custom_fields.read the names are checked by the write instead (it lists the known ones).
        if (e instanceof ScopeError) return undefined;
        throw e;
      });
    accountFields.set(client, names);
  }
  return names;
}

export const provider: dynamic.ResourceProvider = {
  async check(_olds, news) {
    const checked = checkInputs(customFieldValuesInputs, news);
    const values = userInputs(news).values;
    if (checked.failures?.length || values === UNKNOWN || typeof values !== "object" || values === null) return checked;
    // Unknown field names fail at preview, not halfway through an update.
    const known = await definedFieldNames();
    const missing = known ? Object.keys(values).filter((n) => !known.includes(n)) : [];
    if (!missing.length) return checked;
    return {
      inputs: news,
      failures: missing.map((n) => toFailure(["values", n], `the account has no custom field named "${n}" (fields: ${known!.join(", ") || "none"})`)),
    };
  },

  async diff(_id, olds, news) {
    const inputs = userInputs(news) as Partial<CustomFieldValuesInputs>;
    const changed: string[] = [];
    if (inputs.service !== olds.service) changed.push("service");
    const desired = (inputs.values ?? {}) as Values;
    const current = (olds.values ?? {}) as Values;
    const sameNames = isDeepStrictEqual(namesOf(desired).sort(), namesOf(current).sort());
    if (!sameNames || Object.keys(desired).some((n) => !isDeepStrictEqual(desired[n], current[n]))) changed.push("values");
    return { changes: changed.length > 0, replaces: changed.filter((k) => k === "service"), deleteBeforeReplace: false };
  },

  async create(news) {
    const { service, values } = managed(news);
    const live = await getFieldValues(service);
    const names = Object.keys(values);
    const previousValues = pick(live, names);
    const after = await putFieldValues(service, planWrite(live, values as Values, {}, []));
    return { id: service, outs: outputs(service, after, names, previousValues) };
  },

  async read(id, props) {
    const service = (props.service as string | undefined) ?? id;
    return readOrGone(async () => {
      const live = await getFieldValues(service);
      return { id, props: outputs(service, live, namesOf(props.values), (props.previousValues ?? {}) as Values) };
    });
  },

  async update(_id, olds, news) {
    const { service, values } = managed(news);
    const previous = (olds.previousValues ?? {}) as Values;
    const oldNames = namesOf(olds.values);
    const names = Object.keys(values);
    const released = oldNames.filter((n) => !names.includes(n));
    const live = await getFieldValues(service);
    // Newly managed fields remember what they hold now; released ones forget theirs once restored.
    const previousValues: Values = { ...pick(live, names.filter((n) => !oldNames.includes(n))) };
    for (const n of names) if (oldNames.includes(n)) previousValues[n] = previous[n] ?? null;
    const after = await putFieldValues(service, planWrite(live, values as Values, previous, released));
    return { outs: outputs(service, after, names, previousValues) };
  },

  async delete(id, props) {
    const service = (props.service as string | undefined) ?? id;
    const previous = (props.previousValues ?? {}) as Values;
    // A 404 means the service is gone, and its values with it.
    await deleteOrGone(async () => {
      const items = planWrite(await getFieldValues(service), {}, previous, Object.keys(previous));
      if (!items.length) return; // every managed field's definition was deleted: nothing left to restore
      const after = pick(await putFieldValues(service, items), items.map((i) => i.field.name));
      const wrong = items.filter(({ field, value }) => !isDeepStrictEqual(after[field.name], value));
      if (wrong.length) {
        throw new PagerDutyError(
          "ERR_API",
          `restoring custom field values of service ${service} did not take effect: ` +
            wrong.map(({ field, value }) => `"${field.name}" is ${JSON.stringify(after[field.name])}, expected ${JSON.stringify(value)}`).join("; "),
        );
      }
    });
  },
};

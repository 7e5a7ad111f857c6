// pagerduty:ServiceCustomFieldValues — values of custom fields on one service
// (`/services/{id}/custom_fields/values`), keyed by field name.
//
// Only the fields named in `values` are managed. Before the first write the resource records what
// those fields held (`previousValues`); removing a field from `values`, and deleting the resource,
// puts that value back (null where it was empty). Every write is one PUT, which the API applies
// atomically. Adoption needs no id: creating the resource over existing values simply starts
// managing them, and their current values become the ones restored on delete.
//
// A field may be defined by the same program (ServiceCustomField): the preview judges values by the
// declared definition (account/field-definitions.ts), and a write waits until a field this process
// just created shows on the service.
import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { valueProblem } from "../account/field-definitions";
import { PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import type { Json } from "../kernel/case";
import { satisfies } from "../kernel/diff";
import { holdsUnknown, toFailure, UNKNOWN } from "../kernel/check";
import { defineResource, named, type OutputsOf } from "../kernel/define";
import type { Resource } from "../operations/resource";
import { fieldValuesPath, READ, WRITE } from "../kernel/api-paths";

const scalar = z.union([z.boolean(), z.number(), z.string()]);
const fieldValue = named(
  "CustomFieldValue",
  z
    .union([z.null(), scalar, z.array(scalar).min(1, "must not be empty (use null to clear the field)")])
    .describe("A custom field value: a scalar of the field's data type, an array for multi-value fields, or null (empty)."),
);

export const customFieldValuesInputs = z
  .object({
    service: z.string().min(1, "must be a service id").describe("Id of the service; changing it replaces the resource."),
    values: z
      .record(z.string().min(1, "field names must not be empty"), fieldValue)
      .refine((v) => Object.keys(v).length > 0, "must name at least one custom field")
      .describe("Values by custom field NAME. Only these fields are managed; the service's other fields are left alone."),
  })
  .strict();

export const definition = defineResource({
  kind: "ServiceCustomFieldValues",
  description:
    "Custom field values of a service. Create records what the named fields held before\n" +
    "(`previousValues`); removing a field from `values`, or deleting the resource, restores that value.\n" +
    "There is no `adoptId`: creating this resource over existing values adopts them, and their values\n" +
    "at that moment are what delete restores.",
  notes:
    "Only the named fields are managed. The values they held before are recorded (`previousValues`); " +
    "delete, or removing a field from `values`, puts them back in one atomic PUT.",
  inputs: customFieldValuesInputs,
  outputs: z.object({
    service: z.string(),
    values: z.record(fieldValue).describe("Live values of the managed fields."),
    previousValues: z.record(fieldValue).describe("What the managed fields held before this resource first set them; restored on delete."),
  }),
  replaceOn: ["service"],
  creates: false,
  importId: "<service id>",
});

export type CustomFieldValuesInputs = z.infer<typeof customFieldValuesInputs>;
type CustomFieldValues = OutputsOf<typeof definition>["values"];
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

const valuesPath = fieldValuesPath;

export async function getFieldValues(client: ApiClient, service: string): Promise<ApiFieldValue[]> {
  const res = await client.request<{ custom_fields?: ApiFieldValue[] }>("GET", valuesPath(service), { scopes: READ });
  return res?.custom_fields ?? [];
}

/** One atomic PUT naming each field by id and name. Returns the service's values after it. */
async function putFieldValues(client: ApiClient, service: string, items: Array<{ field: ApiFieldValue; value: Json }>): Promise<ApiFieldValue[]> {
  const body = { custom_fields: items.map(({ field, value }) => ({ id: field.id, name: field.name, value })) };
  const res = await client.request<{ custom_fields?: ApiFieldValue[] }>("PUT", valuesPath(service), { body, scopes: WRITE });
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
function outputs(service: string, live: readonly ApiFieldValue[], names: readonly string[], previousValues: Values): OutputsOf<typeof definition> {
  return { service, values: pick(live, names) as CustomFieldValues, previousValues: previousValues as CustomFieldValues };
}

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

/**
 * The service's values once every named field this process created is visible there: a field made a
 * moment ago may be missing for a while (kernel/consistency.ts), and naming it would fail.
 */
async function liveValues(ctx: AccountContext, service: string, names: readonly string[]): Promise<ApiFieldValue[]> {
  const young = names.map((n) => ctx.fields.createdAt(n)).filter((t): t is number => t !== undefined);
  if (!young.length) return getFieldValues(ctx.client, service);
  const all = async () => {
    const live = await getFieldValues(ctx.client, service);
    return names.every((n) => live.some((f) => f.name === n)) ? [live] : [];
  };
  // After the window the service's list is what it is: the write names what is missing.
  return (await ctx.consistency.search(Math.min(...young), all))[0] ?? getFieldValues(ctx.client, service);
}

const serviceOf = (id: string, props: { service?: string }) => props.service ?? id;

/**
 * An import's read, which has recorded no fields: the fields holding a value are managed, and what
 * they hold is what delete restores, as for a create over them.
 */
function imported(service: string, live: readonly ApiFieldValue[]) {
  const names = live.filter((f) => f.value !== null && f.value !== undefined).map((f) => f.name);
  if (!names.length)
    throw new PagerDutyError(
      "ERR_INPUT",
      `service ${service} holds no custom field value, so there is nothing to import: declare the values and \`up\` sets them`,
    );
  return { id: service, props: outputs(service, live, names, pick(live, names)) };
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `service ${serviceOf(id, props)} (custom field values)`,

  // Unknown field names and values of the wrong kind fail at preview, not halfway through an update.
  // A field the program defines is judged by its declaration (ctx.fields), before it exists.
  async verify(ctx, news) {
    const { values } = news;
    if (values === UNKNOWN) return [];
    const byName = await ctx.fields.byName();
    if (!byName) return [];
    const failures: dynamic.CheckFailure[] = [];
    for (const [name, value] of Object.entries(values)) {
      const def = byName.get(name);
      // A value another resource computes is judged once known; the field's name is known now.
      const problem = def
        ? !holdsUnknown(value) && valueProblem(def, value)
        : `the account has no custom field named "${name}" (fields: ${[...byName.keys()].join(", ") || "none"})`;
      if (problem) failures.push(toFailure(["values", name], problem));
    }
    return failures;
  },

  diff(olds, news) {
    const changed: string[] = [];
    if (news.service !== olds.service) changed.push("service");
    const desired = news.values;
    const current = olds.values ?? {};
    // Values not known yet (preview) are a change.
    const sameNames = desired !== UNKNOWN && isDeepStrictEqual(namesOf(desired).sort(), namesOf(current).sort());
    if (!sameNames || Object.keys(desired).some((n) => !isDeepStrictEqual(desired[n], current[n]))) changed.push("values");
    return { changes: changed.length > 0, replaces: changed.filter((k) => definition.replaceOn.includes(k)), deleteBeforeReplace: false };
  },

  async create(ctx, news) {
    const { service, values } = news;
    // A service made moments ago may answer 404 for a while: a read and a PUT, safe to ask again.
    return ctx.consistency.untilVisible(ctx.consistency.createdAt("Service", service), async () => {
      const names = Object.keys(values);
      const live = await liveValues(ctx, service, names);
      const previousValues = pick(live, names);
      // Values already as declared (an existing service adopted, say) are not written again.
      const after = satisfies(values, previousValues) ? live : await putFieldValues(ctx.client, service, planWrite(live, values, {}, []));
      return { id: service, outs: outputs(service, after, names, previousValues) };
    });
  },

  async read(ctx, id, props) {
    const service = serviceOf(id, props);
    const live = await getFieldValues(ctx.client, service);
    if (props.values === undefined) return imported(service, live);
    return { id, props: outputs(service, live, namesOf(props.values), props.previousValues ?? {}) };
  },

  async update(ctx, _id, olds, news) {
    const { service, values } = news;
    const previous = olds.previousValues ?? {};
    const oldNames = namesOf(olds.values);
    const names = Object.keys(values);
    const released = oldNames.filter((n) => !names.includes(n));
    const live = await liveValues(ctx, service, names);
    // Newly managed fields remember what they hold now; released ones forget theirs once restored.
    const previousValues: Values = {
      ...pick(
        live,
        names.filter((n) => !oldNames.includes(n)),
      ),
    };
    for (const n of names) if (oldNames.includes(n)) previousValues[n] = previous[n] ?? null;
    const after = await putFieldValues(ctx.client, service, planWrite(live, values, previous, released));
    return { outs: outputs(service, after, names, previousValues) };
  },

  // A 404 means the service is gone, and its values with it.
  async delete(ctx, id, props) {
    const service = serviceOf(id, props);
    const previous = props.previousValues ?? {};
    const items = planWrite(await getFieldValues(ctx.client, service), {}, previous, Object.keys(previous));
    if (!items.length) return; // every managed field's definition was deleted: nothing left to restore
    const after = pick(
      await putFieldValues(ctx.client, service, items),
      items.map((i) => i.field.name),
    );
    const wrong = items.filter(({ field, value }) => !isDeepStrictEqual(after[field.name], value));
    if (wrong.length) {
      throw new PagerDutyError(
        "ERR_API",
        `restoring custom field values of service ${service} did not take effect: ` +
          wrong.map(({ field, value }) => `"${field.name}" is ${JSON.stringify(after[field.name])}, expected ${JSON.stringify(value)}`).join("; "),
      );
    }
  },
};

// pagerduty:ServiceCustomField — a custom field definition for services (`/services/custom_fields`,
// scopes custom_fields.*). `name`, `dataType` and `fieldType` cannot change once created (the API's
// update takes none of them; PagerDuty's Terraform provider replaces on each): a change replaces the
// field, deleting the old one first when the new one keeps its unique name or display name.
//
// `fieldOptions` (fixed field types) is managed as a whole, by value: one field PUT lists each
// declared value, with the id of the live option that has it, so the API updates, creates and deletes
// options to match in one atomic request, as the Terraform provider does. Order is not compared (the
// API reports its own), so a reordered list is no change.
//
// Its check records the declaration in the account's field definitions (account/field-definitions.ts),
// so ServiceCustomFieldValues of the same program are judged against it before the field exists.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { type FieldDefinition, valueProblem } from "../account/field-definitions";
import { ApiError, PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import { FIELD_DEFINITIONS, FIELDS_READ, FIELDS_WRITE, fieldPath } from "../kernel/api-paths";
import { UNKNOWN, userInputs } from "../kernel/check";
import { defineResource, diffRules, named, type OutputsOf } from "../kernel/define";
import { diffManaged } from "../kernel/diff";
import { orGone } from "../kernel/gone";
import type { Candidate } from "../operations/recovery";
import { createOnce, RECOVER_COMMAND } from "../operations/recovery";
import type { Resource } from "../operations/resource";

export const DATA_TYPES = ["boolean", "integer", "float", "string", "datetime", "url"] as const;
export const FIELD_TYPES = ["single_value", "single_value_fixed", "multi_value", "multi_value_fixed"] as const;
const isFixed = (t: string) => t.endsWith("_fixed");

const scalar = z.union([z.boolean(), z.number(), z.string()]);
const defaultValue = named(
  "CustomFieldDefault",
  z
    .union([z.null(), scalar, z.array(scalar).min(1, "must not be empty (use null for no default)")])
    .describe("A value of the field's data type (a list for multi-value fields), or null for none."),
);

export const customFieldInputs = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9_]+$/, 'must be lowercase letters, digits and "_"')
      .max(50)
      .describe("The field's name, unique in the account (lowercase letters, digits and `_`, at most 50). Changing it replaces the field."),
    displayName: z.string().trim().min(1, "must not be empty").max(50).describe("The name people see, unique in the account (at most 50 characters)."),
    description: z
      .string()
      .min(1, "must not be empty (null clears it)")
      .max(1000)
      .nullable()
      .optional()
      .describe("What the field holds. Unset: not managed; null clears it."),
    dataType: z.enum(DATA_TYPES).describe("The kind of data the field holds. Changing it replaces the field."),
    fieldType: z
      .enum(FIELD_TYPES)
      .describe("One value or a list (`multi_*`), free or chosen from `fieldOptions` (`*_fixed`, string fields only). Changing it replaces the field."),
    defaultValue: defaultValue.optional().describe("The value services get when none is set. Unset: not managed."),
    enabled: z.boolean().optional().describe("Whether the field shows on services. Unset: not managed (the API enables new fields)."),
    fieldOptions: z
      .array(z.string().trim().min(1, "must not be empty").max(200))
      .optional()
      .describe("The values a `*_fixed` field allows, managed as a whole (order is not compared). Unset: not managed."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing field with this id instead of creating one; its managed settings are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (v.dataType === "boolean" && v.fieldType !== "single_value") fail(["fieldType"], 'a boolean field must be "single_value"');
    if (isFixed(v.fieldType) && v.dataType !== "string") fail(["dataType"], `must be "string" for field type "${v.fieldType}" (options are strings)`);
    if (v.fieldOptions !== undefined && !isFixed(v.fieldType))
      fail(["fieldOptions"], `apply only to the field types "single_value_fixed" and "multi_value_fixed", not "${v.fieldType}"`);
    v.fieldOptions?.forEach((o, i) => {
      if (v.fieldOptions!.indexOf(o) !== i) fail(["fieldOptions", i], `${JSON.stringify(o)} is listed twice (options are unique within a field)`);
    });
    const problem = v.defaultValue === undefined ? undefined : valueProblem(declaredDefinition(v), v.defaultValue);
    if (problem) fail(["defaultValue"], problem);
  });

export type CustomFieldInputs = z.infer<typeof customFieldInputs>;

const shape = customFieldInputs.innerType().shape;
export const definition = defineResource({
  kind: "ServiceCustomField",
  description:
    "A custom field definition for services: its values are set per service with\n" +
    "ServiceCustomFieldValues, which may name a field the same program defines. `name`, `dataType` and\n" +
    "`fieldType` cannot change: a change replaces the field, and deleting a field deletes its value on\n" +
    "every service. Needs the scope `custom_fields.write`.",
  notes:
    "Needs `custom_fields.write`. `fieldOptions` is managed as a whole, in one atomic PUT. Changing `name`, `dataType` or `fieldType` replaces " +
    "the field (its values on every service go with the old one).",
  inputs: customFieldInputs,
  outputs: z.object({
    name: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    dataType: shape.dataType,
    fieldType: shape.fieldType,
    defaultValue: defaultValue.describe("The value services get when none is set; unset when none."),
    enabled: z.boolean(),
    fieldOptions: z.array(z.string()).describe("The values the field allows, in the API's order (empty unless the field type is fixed)."),
    fieldOptionIds: z.record(z.string()).describe("Each option's id, by value."),
    summary: z.string().describe("A short text the API gives the field (its display name)."),
    createdAt: z.string().describe("When the field was created (ISO 8601)."),
  }),
  replaceOn: ["name", "dataType", "fieldType"],
  diffIgnore: ["adoptId"],
  writeScopes: FIELDS_WRITE,
  creates: true,
  uniqueInAccount: "name",
});

type FieldOutputs = OutputsOf<typeof definition>;
const rules = diffRules(definition);

interface ApiOption {
  id: string;
  data?: { data_type?: string; value?: unknown };
}

export interface ApiField {
  id: string;
  name: string;
  display_name?: string;
  description?: string | null;
  data_type: string;
  field_type: string;
  default_value?: unknown;
  enabled?: boolean;
  field_options?: ApiOption[];
  summary?: string;
  created_at?: string;
}

/** The definition the program declares, as the values' checks read it (unknown parts left out). */
export function declaredDefinition(v: { name: string; dataType?: unknown; fieldType?: unknown; fieldOptions?: unknown }): FieldDefinition {
  const known = (x: unknown) => (typeof x === "string" && x !== UNKNOWN ? x : undefined);
  const options = Array.isArray(v.fieldOptions) && !v.fieldOptions.includes(UNKNOWN) ? v.fieldOptions : undefined;
  return {
    name: v.name,
    ...(known(v.dataType) ? { data_type: known(v.dataType) } : {}),
    ...(known(v.fieldType) ? { field_type: known(v.fieldType) } : {}),
    ...(options ? { field_options: options.map((value) => ({ data: { value } })) } : {}),
  };
}

const optionValue = (o: ApiOption) => String(o.data?.value ?? "");

/** Live field -> Pulumi outputs. */
export function toOutputs(f: ApiField): FieldOutputs {
  const options = f.field_options ?? [];
  return {
    name: f.name,
    displayName: f.display_name ?? f.summary ?? "",
    description: f.description ?? null,
    dataType: f.data_type as FieldOutputs["dataType"],
    fieldType: f.field_type as FieldOutputs["fieldType"],
    defaultValue: (f.default_value ?? null) as FieldOutputs["defaultValue"],
    enabled: f.enabled ?? true,
    fieldOptions: options.map(optionValue),
    fieldOptionIds: Object.fromEntries(options.map((o) => [optionValue(o), o.id])),
    summary: f.summary ?? f.display_name ?? "",
    createdAt: f.created_at ?? "",
  };
}

/**
 * The declared options as the API's `field_options`: each value with the id of the live option that
 * has it (kept), the others without (created); live options not listed are deleted by the API.
 */
export function optionsBody(values: readonly string[], live: readonly ApiOption[], dataType: string) {
  return values.map((value) => {
    const id = live.find((o) => optionValue(o) === value)?.id;
    return { ...(id ? { id } : {}), data: { data_type: dataType, value } };
  });
}

/** Managed inputs -> request body. `name`, `data_type` and `field_type` only on create. */
export function toBody(inputs: Partial<CustomFieldInputs>, liveOptions: readonly ApiOption[] | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (liveOptions === undefined) {
    body.name = inputs.name;
    body.data_type = inputs.dataType;
    body.field_type = inputs.fieldType;
  }
  if (inputs.displayName !== undefined) body.display_name = inputs.displayName;
  if (inputs.description !== undefined) body.description = inputs.description;
  if (inputs.enabled !== undefined) body.enabled = inputs.enabled;
  if (inputs.defaultValue !== undefined) body.default_value = inputs.defaultValue;
  if (inputs.fieldOptions !== undefined) body.field_options = optionsBody(inputs.fieldOptions, liveOptions ?? [], inputs.dataType ?? "string");
  return body;
}

const WITH_OPTIONS = { include: ["field_options"] };

async function get(client: ApiClient, id: string): Promise<ApiField> {
  return (await client.request<{ field: ApiField }>("GET", fieldPath(id), { query: WITH_OPTIONS, scopes: FIELDS_READ })).field;
}

async function listed(client: ApiClient): Promise<ApiField[]> {
  return (await client.request<{ fields?: ApiField[] }>("GET", FIELD_DEFINITIONS, { scopes: FIELDS_READ }))?.fields ?? [];
}

/** Ids of the account's fields named `name` (at most one: names are unique). */
export async function fieldsNamed(client: ApiClient, name: string): Promise<string[]> {
  return (await listed(client)).filter((f) => f.name === name).map((f) => f.id);
}

/**
 * Fields named `name` created since `since`. The API keeps no audit record of definitions, so no
 * credential is known: a journal's search never proves one is this resource's (recovery.ts), and the
 * stack's state is what recovers an interrupted create.
 */
async function fieldsNamedSince(client: ApiClient, name: string, since: number): Promise<Candidate[]> {
  return (await listed(client))
    .filter((f) => f.name === name)
    .map((f) => ({ id: f.id, createdAt: Date.parse(f.created_at ?? "") || 0 }))
    .filter((c) => c.createdAt >= since);
}

/** Brings field `id` to the declared values (the live options give the ids to keep). */
async function put(ctx: AccountContext, id: string, inputs: CustomFieldInputs): Promise<FieldOutputs> {
  const live = inputs.fieldOptions === undefined ? [] : ((await get(ctx.client, id)).field_options ?? []);
  const res = await ctx.client.request<{ field: ApiField }>("PUT", fieldPath(id), { body: { field: toBody(inputs, live) }, scopes: FIELDS_WRITE });
  ctx.fields.changed();
  return toOutputs(res.field);
}

const isTaken = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 400 && /already been taken/i.test(e.message);

/** "has already been taken", saying which field holds the name and the way out. */
async function nameTaken(ctx: AccountContext, inputs: CustomFieldInputs, cause: ApiError): Promise<PagerDutyError> {
  const holder = (await fieldsNamed(ctx.client, inputs.name).catch(() => []))[0];
  const resource = holder ? await ctx.stack?.holder("ServiceCustomField", holder).catch(() => undefined) : undefined;
  const what = `custom field "${inputs.name}": ${cause.message}`;
  return new PagerDutyError(
    "ERR_CONFLICT",
    resource
      ? `${what}; field ${holder} is managed by resource ${resource} of this stack. Names and display names are unique in an account: change one of them`
      : `${what}${holder ? ` (field ${holder})` : ""}. Rename the field, adopt the existing one with \`adoptId\`, or, if an interrupted deployment of ` +
          `this stack created it, run \`${RECOVER_COMMAND}\``,
    { cause },
  );
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `custom field ${id}${props.name ? ` ("${props.name}")` : ""}`,

  describe: (inputs) => `custom field "${String(inputs.name ?? "")}"`,

  findExisting: (client, inputs) => fieldsNamed(client, String(inputs.name ?? "")),

  // Values of this program may name the field before it exists: they are judged by this declaration.
  async verify(ctx, news) {
    if (typeof news.name === "string" && news.name !== UNKNOWN) ctx.fields.declare(declaredDefinition(news as { name: string }));
    return [];
  },

  diff(olds, news) {
    // Options are a set: the API's order is not the program's.
    const options = news.fieldOptions;
    const sameOptions = Array.isArray(options) && Array.isArray(olds.fieldOptions) && isDeepStrictEqual([...options].sort(), [...olds.fieldOptions].sort());
    const result = diffManaged(olds, sameOptions ? { ...news, fieldOptions: olds.fieldOptions } : news, rules);
    // Names and display names are unique: a replacement keeping one must delete the old field first.
    const keepsUnique = news.name === olds.name || news.displayName === olds.displayName;
    return result.replaces?.length && keepsUnique ? { ...result, deleteBeforeReplace: true } : result;
  },

  async adopt(ctx, id, news) {
    const inputs = userInputs(news);
    const found = await get(ctx.client, id);
    const declared = { name: inputs.name, data_type: inputs.dataType, field_type: inputs.fieldType };
    const fixed = (["name", "data_type", "field_type"] as const).filter((k) => found[k] !== declared[k]);
    if (fixed.length) {
      throw new PagerDutyError(
        "ERR_INPUT",
        `cannot adopt custom field ${id}: its ${fixed.map((k) => `${k} is "${found[k]}"`).join(", ")}, which cannot change; ` +
          "declare the same, or create another field",
      );
    }
    return { id, outs: await put(ctx, id, inputs) };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what: `custom field "${inputs.name}"`,
      post: async () => {
        try {
          const res = await client.request<{ field: ApiField }>("POST", FIELD_DEFINITIONS, {
            body: { field: toBody(inputs, undefined) },
            scopes: FIELDS_WRITE,
          });
          return { id: res.field.id, value: res.field };
        } catch (e) {
          throw isTaken(e) ? await nameTaken(ctx, inputs, e) : e;
        }
      },
      exists: async (id) => (await orGone(() => get(client, id))) !== undefined,
      find: (since) => fieldsNamedSince(client, inputs.name, since),
      findExisting: () => fieldsNamed(client, inputs.name),
    });
    // Values written in this deployment wait for the new field to show on their service.
    ctx.fields.created(inputs.name, ctx.consistency.createdAt("ServiceCustomField", outcome.id) ?? Date.now());
    if ("adopted" in outcome) return this.adopt!(ctx, outcome.id, news);
    return { id: outcome.id, outs: toOutputs(outcome.created) };
  },

  async read(ctx, id) {
    const found = await get(ctx.client, id);
    return { id: found.id, props: toOutputs(found) };
  },

  async update(ctx, id, _olds, news) {
    return { outs: await put(ctx, id, userInputs(news)) };
  },

  // Deleting a field deletes its value on every service.
  async delete(ctx, id) {
    await ctx.client.request("DELETE", fieldPath(id), { scopes: FIELDS_WRITE });
    ctx.fields.changed();
  },
};

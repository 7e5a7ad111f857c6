// The representation of custom field definitions and their options, and the definitions a request
// sees: a field created a moment ago is hidden while its consistency-lag window lasts (lag.ts), as
// services are, so clients must wait for a new field before naming it in a service's values.
import type { FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { many, query } from "../../http";
import { owned } from "../../store";
import type { CustomFieldDef, FieldOption } from "./model";

export function renderOption(f: CustomFieldDef, o: FieldOption) {
  return {
    id: o.id,
    type: "field_option",
    data: o.data,
    created_at: o.created_at ?? f.created_at,
    updated_at: o.updated_at ?? f.updated_at,
  };
}

/** A definition; its options only when asked for (`include[]=field_options`, as the description says) and in write replies. */
export function renderDef(base: string, f: CustomFieldDef, withOptions: boolean) {
  return {
    id: f.id,
    type: "field",
    summary: f.display_name,
    self: `${base}/services/custom_fields/${f.id}`,
    html_url: null,
    name: f.name,
    display_name: f.display_name,
    description: f.description,
    data_type: f.data_type,
    field_type: f.field_type,
    default_value: f.default_value,
    ...(withOptions ? { field_options: f.field_options.map((o) => renderOption(f, o)) } : {}),
    enabled: f.enabled ?? true,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

export const withOptions = (req: FastifyRequest): boolean => many(query(req), "include").includes("field_options");

/** The account's definitions a request sees (none in their lag window), by name. */
export const visibleDefs = (core: EmulatorCore, accountId: string): CustomFieldDef[] =>
  core.lag
    .visible(
      Object.values(core.state.customFields).filter((f) => f.accountId === accountId),
      (f) => f.id,
    )
    .sort((a, b) => (a.name < b.name ? -1 : 1));

/** The definition `id` of the account, or 404 (another account's; one in its lag window is answered before: the kind's `lag`). */
export function findDef(core: EmulatorCore, accountId: string, id: string): CustomFieldDef {
  const f = owned(core.state.customFields, id, accountId);
  if (!f) throw notFound(`Custom field ${id}`);
  return f;
}

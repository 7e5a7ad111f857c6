// A custom field's options one at a time (`/services/custom_fields/{field_id}/field_options`, scopes
// custom_fields.*): the same rules as `field_options` inside a field PUT (model.ts), for fixed
// field types only. A changed option's value moves with it on services; a deleted one's is dropped.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../../core";
import { invalid, notFound } from "../../errors";
import { params, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, object } from "../../schemas";
import { type Json, Validator } from "../../validate";
import { type CustomFieldDef, carryValues, type FieldOption, isFixed, optionValue } from "./model";
import { findDef, renderOption } from "./view";

const OPTIONS = "/services/custom_fields/:field_id/field_options";

/** POST/PUT of an option: `{"field_option": {"data": {"data_type", "value"}}}`. */
const fieldOptionBody = envelope("field_option", object({ data: object({ data_type: { type: "string" }, value: {} }, ["value"]) }, ["data"]));

function fixedDef(core: EmulatorCore, accountId: string, id: string): CustomFieldDef {
  const f = findDef(core, accountId, id);
  if (!isFixed(f.field_type)) throw invalid(`Field "${f.name}" is ${f.field_type}: only single_value_fixed and multi_value_fixed fields have options`);
  return f;
}

function findOption(f: CustomFieldDef, id: string): FieldOption {
  const o = f.field_options.find((x) => x.id === id);
  if (!o) throw notFound(`Field option ${id} of field ${f.id}`);
  return o;
}

/** The option body's value, unique within the field (`except`: the option being changed). */
function bodyValue(f: CustomFieldDef, body: unknown, except?: string): string {
  const v = new Validator();
  const value = optionValue(v, "field_option", (body as { field_option: Json }).field_option, f);
  if (value !== undefined && f.field_options.some((o) => o.id !== except && o.data.value === value))
    v.fail(`"field_option.data.value" ${JSON.stringify(value)} is already an option of field "${f.name}"`);
  v.done();
  return value as string;
}

/** Stores `next` in place of `f` and carries services' values over. */
function replace(core: EmulatorCore, f: CustomFieldDef, options: FieldOption[]): void {
  const next: CustomFieldDef = { ...f, field_options: options, updated_at: core.clock.iso() };
  core.state.customFields[f.id] = next;
  carryValues(core.state, f, next);
}

/** The option routes (the custom field kind registers them with its own). */
export function optionRoutes(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", OPTIONS, SCOPES.fieldsRead, (req) => {
    const f = findDef(core, who(req).accountId, params(req).field_id);
    return { field_options: f.field_options.map((o) => renderOption(f, o)) };
  });

  rest(
    app,
    "POST",
    OPTIONS,
    SCOPES.fieldsWrite,
    (req, reply) => {
      const f = fixedDef(core, who(req).accountId, params(req).field_id);
      const now = core.clock.iso();
      const option: FieldOption = { id: core.ids.next(), data: { data_type: f.data_type, value: bodyValue(f, req.body) }, created_at: now, updated_at: now };
      replace(core, f, [...f.field_options, option]);
      reply.code(201);
      return { field_option: renderOption(f, option) };
    },
    fieldOptionBody,
  );

  rest(app, "GET", `${OPTIONS}/:field_option_id`, SCOPES.fieldsRead, (req) => {
    const f = findDef(core, who(req).accountId, params(req).field_id);
    return { field_option: renderOption(f, findOption(f, params(req).field_option_id)) };
  });

  rest(
    app,
    "PUT",
    `${OPTIONS}/:field_option_id`,
    SCOPES.fieldsWrite,
    (req) => {
      const f = fixedDef(core, who(req).accountId, params(req).field_id);
      const old = findOption(f, params(req).field_option_id);
      const value = bodyValue(f, req.body, old.id);
      if (f.default_value === old.data.value && value !== old.data.value)
        throw invalid(`Option ${JSON.stringify(old.data.value)} is the default value of field "${f.name}": change "default_value" first`);
      const option: FieldOption = { ...old, data: { ...old.data, value }, updated_at: core.clock.iso() };
      replace(
        core,
        f,
        f.field_options.map((o) => (o.id === old.id ? option : o)),
      );
      return { field_option: renderOption(f, option) };
    },
    fieldOptionBody,
  );

  rest(app, "DELETE", `${OPTIONS}/:field_option_id`, SCOPES.fieldsWrite, (req, reply) => {
    const f = findDef(core, who(req).accountId, params(req).field_id);
    const old = findOption(f, params(req).field_option_id);
    if (f.default_value === old.data.value)
      throw invalid(`Option ${JSON.stringify(old.data.value)} is the default value of field "${f.name}": change "default_value" first`);
    replace(
      core,
      f,
      f.field_options.filter((o) => o.id !== old.id),
    );
    return reply.code(204).send();
  });
}

// Custom fields: account-level definitions at /services/custom_fields (scopes custom_fields.*)
// and per-service values at /services/{id}/custom_fields/values (scopes services.*). A values
// PUT names fields by id or name, leaves unlisted fields alone, clears with null, and is atomic.
import type { FastifyInstance } from "fastify";
import { audit, changes } from "../audit";
import type { EmulatorCore } from "../core";
import { ApiError, notFound } from "../errors";
import { baseUrl, params, reference, rest, who } from "../http";
import { SCOPES } from "../oauth/scopes";
import { type CustomFieldDef, owned } from "../store";
import { createFieldBody, fieldValuesBody, updateFieldBody } from "../schemas";
import { isObject, type Json, Validator } from "../validate";
import { createFieldDef, parseOptions, setDefault, valueProblem } from "../field-defs";
import { findService, serviceRef } from "../service-lookup";

function renderDef(base: string, f: CustomFieldDef) {
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
    field_options: f.field_options.map((o) => ({ id: o.id, type: "field_option", data: o.data })),
    enabled: f.enabled ?? true,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

const defsOf = (core: EmulatorCore, accountId: string): CustomFieldDef[] =>
  Object.values(core.state.customFields)
    .filter((f) => f.accountId === accountId)
    .sort((a, b) => (a.name < b.name ? -1 : 1));

function findDef(core: EmulatorCore, accountId: string, id: string): CustomFieldDef {
  const f = owned(core.state.customFields, id, accountId);
  if (!f) throw notFound(`Custom field ${id}`);
  return f;
}

export function registerCustomFields(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/services/custom_fields", SCOPES.fieldsRead, (req) => {
    const base = baseUrl(core, req);
    return { fields: defsOf(core, who(req).accountId).map((f) => renderDef(base, f)) };
  });

  rest(
    app,
    "POST",
    "/services/custom_fields",
    SCOPES.fieldsWrite,
    (req, reply) => {
      const f = createFieldDef(core.state, core.ids, who(req).accountId, (req.body as { field: Json }).field, core.clock.iso());
      reply.code(201);
      return { field: renderDef(baseUrl(core, req), f) };
    },
    createFieldBody,
  );

  rest(app, "GET", "/services/custom_fields/:field_id", SCOPES.fieldsRead, (req) => ({
    field: renderDef(baseUrl(core, req), findDef(core, who(req).accountId, params(req).field_id)),
  }));

  // Name, data type and field type are fixed once created; options may be replaced.
  rest(
    app,
    "PUT",
    "/services/custom_fields/:field_id",
    SCOPES.fieldsWrite,
    (req) => {
      const f = findDef(core, who(req).accountId, params(req).field_id);
      const o = (req.body as { field: Json }).field;
      const v = new Validator();
      for (const k of ["name", "data_type", "field_type"] as const) {
        if (o[k] !== undefined && o[k] !== f[k]) v.fail(`"${k}" cannot be changed (is ${JSON.stringify(f[k])})`);
      }
      const display = v.string(o, "display_name", { nonEmpty: true, max: 50 });
      const description = v.string(o, "description", { nullable: true, max: 1000 });
      const options = parseOptions(v, o, f.data_type, core.ids);
      const enabled = v.boolean(o, "enabled");
      v.done();
      const next: CustomFieldDef = { ...f, field_options: options ?? f.field_options };
      if (enabled !== undefined && enabled !== null) next.enabled = enabled;
      setDefault(next, o);
      if (display) next.display_name = display;
      if (description !== undefined) next.description = description;
      next.updated_at = core.clock.iso();
      core.state.customFields[f.id] = next;
      // Values that no longer fit the options are cleared.
      for (const s of Object.values(core.state.services)) {
        if (s.accountId === f.accountId && f.id in s.fieldValues && valueProblem(next, s.fieldValues[f.id])) delete s.fieldValues[f.id];
      }
      return { field: renderDef(baseUrl(core, req), next) };
    },
    updateFieldBody,
  );

  rest(app, "DELETE", "/services/custom_fields/:field_id", SCOPES.fieldsWrite, (req, reply) => {
    const f = findDef(core, who(req).accountId, params(req).field_id);
    delete core.state.customFields[f.id];
    for (const s of Object.values(core.state.services)) delete s.fieldValues[f.id];
    return reply.code(204).send();
  });

  const renderValues = (accountId: string, values: Record<string, unknown>) =>
    defsOf(core, accountId).map((f) => ({
      id: f.id,
      name: f.name,
      display_name: f.display_name,
      description: f.description,
      data_type: f.data_type,
      field_type: f.field_type,
      type: "field_value",
      value: f.id in values ? values[f.id] : null,
    }));

  rest(app, "GET", "/services/:id/custom_fields/values", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { custom_fields: renderValues(s.accountId, s.fieldValues) };
  });

  rest(
    app,
    "PUT",
    "/services/:id/custom_fields/values",
    SCOPES.servicesWrite,
    (req, reply) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const items = (req.body as { custom_fields: unknown[] }).custom_fields;
      const errors: string[] = [];
      const next = { ...s.fieldValues };
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const at = `"custom_fields[${i}]"`;
        if (!isObject(item)) return errors.push(`${at} must be an object`);
        const defs = defsOf(core, p.accountId);
        const def =
          typeof item.id === "string" ? defs.find((f) => f.id === item.id) : typeof item.name === "string" ? defs.find((f) => f.name === item.name) : undefined;
        if (!def) return errors.push(`${at} names no custom field (give "id" or "name" of a field definition)`);
        if (typeof item.name === "string" && item.name !== def.name) return errors.push(`${at}: id ${def.id} is the field "${def.name}", not "${item.name}"`);
        if (seen.has(def.id)) return errors.push(`${at}: field "${def.name}" is listed twice`);
        seen.add(def.id);
        if (!("value" in item)) return errors.push(`${at}.value is required (null clears the field)`);
        const problem = valueProblem(def, item.value);
        if (problem) return errors.push(`${at}.value for "${def.name}" ${problem}`);
        if (item.value === null) delete next[def.id];
        else next[def.id] = item.value;
      });
      if (errors.length) throw new ApiError("INVALID_INPUT", errors);
      const named = (vals: Record<string, unknown>) => Object.fromEntries(defsOf(core, p.accountId).map((f) => [f.name, f.id in vals ? vals[f.id] : null]));
      const before = named(s.fieldValues);
      s.fieldValues = next;
      const base = baseUrl(core, req);
      audit(
        core,
        p,
        serviceRef(base, s),
        "update",
        reference("custom_field_values", s.id, s.name, `${base}/services/${s.id}/custom_fields/values`),
        changes(before, named(next)),
      );
      // 201 is the description's only success status for this PUT.
      reply.code(201);
      return { custom_fields: renderValues(s.accountId, next) };
    },
    fieldValuesBody,
  );
}

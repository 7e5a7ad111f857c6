// Custom fields: account-level definitions at /services/custom_fields (scopes custom_fields.*)
// and per-service values at /services/{id}/custom_fields/values (scopes services.*). A values
// PUT names fields by id or name, leaves unlisted fields alone, clears with null, and is atomic.
import type { FastifyInstance } from "fastify";
import { audit, changes } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { ApiError } from "../../errors";
import { baseUrl, params, reference, rest, who } from "../../http";
import { SCOPES } from "../../oauth/scopes";
import { createFieldBody, fieldValuesBody, updateFieldBody } from "../../schemas";
import { isObject, type Json } from "../../validate";
import { carryValues, createFieldDef, updatedFieldDef, valueProblem } from "./model";
import { fieldCreated, findDef, renderDef, visibleDefs, withOptions } from "./view";
import { findService, serviceRef } from "../service/model";

export function registerCustomFields(app: FastifyInstance, core: EmulatorCore): void {
  rest(app, "GET", "/services/custom_fields", SCOPES.fieldsRead, (req) => {
    const base = baseUrl(core, req);
    return { fields: visibleDefs(core, who(req).accountId).map((f) => renderDef(base, f, withOptions(req))) };
  });

  rest(
    app,
    "POST",
    "/services/custom_fields",
    SCOPES.fieldsWrite,
    (req, reply) => {
      const f = createFieldDef(core.state, core.ids, who(req).accountId, (req.body as { field: Json }).field, core.clock.iso());
      fieldCreated(core, f);
      reply.code(201);
      return { field: renderDef(baseUrl(core, req), f, true) };
    },
    createFieldBody,
  );

  rest(app, "GET", "/services/custom_fields/:field_id", SCOPES.fieldsRead, (req) => ({
    field: renderDef(baseUrl(core, req), findDef(core, who(req).accountId, params(req).field_id), withOptions(req)),
  }));

  rest(
    app,
    "PUT",
    "/services/custom_fields/:field_id",
    SCOPES.fieldsWrite,
    (req) => {
      const f = findDef(core, who(req).accountId, params(req).field_id);
      const next = updatedFieldDef(core.state, core.ids, f, (req.body as { field: Json }).field, core.clock.iso());
      core.state.customFields[f.id] = next;
      carryValues(core.state, f, next);
      return { field: renderDef(baseUrl(core, req), next, true) };
    },
    updateFieldBody,
  );

  // Deleting a field deletes every service's value of it.
  rest(app, "DELETE", "/services/custom_fields/:field_id", SCOPES.fieldsWrite, (req, reply) => {
    const f = findDef(core, who(req).accountId, params(req).field_id, "DELETE");
    delete core.state.customFields[f.id];
    for (const s of Object.values(core.state.services)) delete s.fieldValues[f.id];
    return reply.code(204).send();
  });

  const renderValues = (accountId: string, values: Record<string, unknown>) =>
    visibleDefs(core, accountId).map((f) => ({
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
        const defs = visibleDefs(core, p.accountId);
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
      const named = (vals: Record<string, unknown>) =>
        Object.fromEntries(visibleDefs(core, p.accountId).map((f) => [f.name, f.id in vals ? vals[f.id] : null]));
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

// The custom field values kind: a service's values at /services/{id}/custom_fields/values (scopes
// services.*), kept on its record (ServiceRecord.fieldValues), so they go with it. A PUT names fields
// by id or name, leaves unlisted fields alone, clears with null, and is atomic.
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import { baseUrl, params, reference, rest, who } from "../http";
import { SCOPES } from "../scopes";
import { envelope } from "../schemas";
import { isObject } from "../validate";
import { audit, changes } from "./audit-record/model";
import { valueProblem } from "./custom-field/model";
import { visibleDefs } from "./custom-field/view";
import { defineKind, type KindOptions } from "./kind";
import { findService, serviceRef } from "./service/model";

export const kind = defineKind({
  name: "custom field values",
  tables: {},
  routes,
  lag: { never: "a service's values are its fields: hidden with the service, whose paths hold them" },
  example: {
    create: (ids) => ({ method: "PUT", path: `/services/${ids.service}/custom_fields/values`, body: { custom_fields: [{ name: "tier", value: "gold" }] } }),
    found: (_made, ids) => ({ get: `/services/${ids.service}/custom_fields/values` }),
  },
});

const fieldValuesBody = envelope("custom_fields", { type: "array", items: { type: "object" } });

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
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

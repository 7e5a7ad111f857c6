// The custom field kind: the account's field definitions at /services/custom_fields and their options
// (scopes custom_fields.*). The seed makes some, which a reset gives back. A deleted definition's
// values go from every service; the values themselves are their own kind (kinds/custom-field-values.ts).
import type { FastifyInstance } from "fastify";
import { baseUrl, params, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, nullable, object, type Schema } from "../../schemas";
import type { Json } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { carryValues, createFieldDef, updatedFieldDef } from "./model";
import { optionRoutes } from "./options";
import { findDef, renderDef, visibleDefs, withOptions } from "./view";

const ONE = "/services/custom_fields/:field_id";

export const kind = defineKind({
  name: "custom field",
  tables: { customFields: {} },
  seeded: ["customFields"],
  // The seed's `customFields`: definitions each account starts with.
  seed: { key: "customFields", add: (state, ids, accountId, fields, now, id) => createFieldDef(state, ids, accountId, fields, now, id).id },
  routes,
  lag: {
    // A field made a moment ago is hidden as services are: clients wait for it before naming it in values.
    paths: [ONE],
    find: ownedFind((core) => core.state.customFields, "field_id", "Custom field"),
  },
  example: {
    create: () => ({
      method: "POST",
      path: "/services/custom_fields",
      body: { field: { name: "example", display_name: "Example", data_type: "string", field_type: "single_value" } },
    }),
    found: ({ id }) => ({ get: `/services/custom_fields/${id}` }),
  },
});

const FIELD_DEF: Record<string, Schema> = {
  name: { type: "string", pattern: "^[a-z0-9_]{1,50}$" },
  display_name: { type: "string", minLength: 1, maxLength: 50, pattern: "\\S" },
  description: nullable({ type: "string", maxLength: 1000 }),
  data_type: { type: "string", enum: ["boolean", "integer", "float", "string", "datetime", "url"] },
  field_type: { type: "string", enum: ["single_value", "single_value_fixed", "multi_value", "multi_value_fixed"] },
  enabled: { type: "boolean" },
  field_options: { type: "array", items: { type: "object" } },
};
const createFieldBody = envelope("field", object(FIELD_DEF, ["name", "display_name", "data_type", "field_type"]));
const updateFieldBody = envelope("field", object(FIELD_DEF));

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
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
      core.startLag(f.accountId, f.id);
      reply.code(201);
      return { field: renderDef(baseUrl(core, req), f, true) };
    },
    createFieldBody,
  );

  rest(app, "GET", ONE, SCOPES.fieldsRead, (req) => ({
    field: renderDef(baseUrl(core, req), findDef(core, who(req).accountId, params(req).field_id), withOptions(req)),
  }));

  rest(
    app,
    "PUT",
    ONE,
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
  rest(app, "DELETE", ONE, SCOPES.fieldsWrite, (req, reply) => {
    const f = findDef(core, who(req).accountId, params(req).field_id);
    delete core.state.customFields[f.id];
    for (const s of Object.values(core.state.services)) delete s.fieldValues[f.id];
    return reply.code(204).send();
  });

  optionRoutes(app, core);
}

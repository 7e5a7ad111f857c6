// The event orchestration kind: `GET/PUT /event_orchestrations/services/{id}` (a service's whole
// orchestration; PUT replaces it) and `GET/PUT .../active` (whether events go through it: true
// unless set to false, as event rules are gone; false makes them bypass it). Scopes as the description's x-pd-requires-scope: services.read/write.
// Every service has one, kept on its record (ServiceRecord.orchestration), so it goes with it.
import type { FastifyInstance } from "fastify";
import { audit } from "../audit-record/model";
import { baseUrl, many, params, query, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { orchestrationOf, parseOrchestration, renderOrchestration } from "./model";
import { orchestrationWarnings } from "./warnings";
import { findService, serviceRef } from "../service/model";
import { isObject, Validator } from "../../validate";
import { defineKind, type KindOptions } from "../kind";

const ORCHESTRATION_PATH = "/event_orchestrations/services/:id";

export const kind = defineKind({
  name: "event orchestration",
  tables: {},
  routes,
  lag: { never: "every service has one from its create: it is hidden with its service, whose paths hold it" },
  example: {
    create: (ids) => ({
      method: "PUT",
      path: `/event_orchestrations/services/${ids.service}`,
      body: { orchestration_path: { sets: [{ id: "start", rules: [{ label: "example", actions: { annotate: "example" } }] }], catch_all: { actions: {} } } },
    }),
    found: (_made, ids) => ({ get: `/event_orchestrations/services/${ids.service}` }),
  },
});

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", ORCHESTRATION_PATH, SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    const base = baseUrl(core, req);
    // include[]=migrated_metadata: how the service's event rules came here, once they were converted.
    const migrated =
      many(query(req), "include").includes("migrated_metadata") && s.rulesConvertedAt
        ? {
            migrated_at: s.rulesConvertedAt,
            migrated_by: s.rulesConvertedBy ?? null,
            migrated_from: { id: s.id, type: "service_event_rules_reference", self: `${base}/services/${s.id}/rules` },
            migrated_status: "completed",
            migrated_via: "API",
          }
        : {};
    return { orchestration_path: { ...renderOrchestration(base, s, orchestrationOf(s)), ...migrated } };
  });

  rest(app, "PUT", ORCHESTRATION_PATH, SCOPES.servicesWrite, (req) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    const parsed = parseOrchestration(req.body);
    const o = orchestrationOf(s);
    const before = JSON.stringify({ sets: o.sets, catch_all: o.catch_all });
    Object.assign(o, parsed, { updated_at: core.clock.iso(), version: o.version + 1 });
    const base = baseUrl(core, req);
    const after = JSON.stringify(parsed);
    if (before !== after)
      audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), [{ name: "event_orchestration", value: after, before_value: before }]);
    return { orchestration_path: renderOrchestration(base, s, o), warnings: orchestrationWarnings(core, s, o) };
  });

  rest(app, "GET", `${ORCHESTRATION_PATH}/active`, SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { active: orchestrationOf(s).active };
  });

  rest(app, "PUT", `${ORCHESTRATION_PATH}/active`, SCOPES.servicesWrite, (req) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    const v = new Validator();
    const active = v.boolean(isObject(req.body) ? req.body : {}, "active", { required: true });
    v.done();
    const o = orchestrationOf(s);
    if (o.active !== active) {
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), [
        { name: "event_orchestration_active", value: String(active), before_value: String(o.active) },
      ]);
    }
    o.active = active as boolean;
    return { active: o.active };
  });
}

// The cache variable kind: the variables of a service's event orchestration, list, create, show,
// update (partial), delete, under `/event_orchestrations/services/:id` (a hidden service, or a hidden
// variable, is a 404). Scopes as the description's x-pd-requires-scope: services.read/write. Create
// answers 200, as the description lists (no 201). Their values between events (kinds/cache-variable/values.ts)
// are the kind's table too, and go with them.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorRef } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { baseUrl, params, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope } from "../../schemas";
import type { ServiceRecord } from "../../store";
import type { Json } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { findService } from "../service/model";
import { type CacheVariableRecord, cacheVariablesOf, dropCacheVariables, newCacheVariable, parseCacheVariable, renderCacheVariable } from "./model";

const LIST = "/event_orchestrations/services/:id/cache_variables";
const ONE = `${LIST}/:cache_variable_id`;

export const kind = defineKind({
  name: "cache variable",
  tables: { cacheVariables: {}, cacheValues: {} },
  routes,
  lag: {
    paths: [ONE],
    find: ownedFind((core) => core.state.cacheVariables, "cache_variable_id", "Cache variable", "id"),
  },
  serviceDeleted: (core, s) => dropCacheVariables(core, s.id),
  example: {
    create: (ids) => ({
      method: "POST",
      path: `/event_orchestrations/services/${ids.service}/cache_variables`,
      body: { cache_variable: { name: "example", configuration: { type: "trigger_event_count", ttl_seconds: 60 } } },
    }),
    found: ({ id }, ids) => ({ get: `/event_orchestrations/services/${ids.service}/cache_variables/${id}` }),
  },
});

/**
 * POST and PUT: the envelope only. What the description's `oneOf` says per `configuration.type` is
 * checked by the handler (model.ts), naming each field.
 */
const cacheVariableBody = envelope("cache_variable", { type: "object" });

const bodyOf = (req: FastifyRequest) => (req.body as { cache_variable: Json }).cache_variable;

function find(core: EmulatorCore, req: FastifyRequest): { s: ServiceRecord; c: CacheVariableRecord } {
  const s = findService(core, who(req), params(req).id);
  const id = params(req).cache_variable_id;
  const c = core.state.cacheVariables[id];
  if (!c || c.serviceId !== s.id) throw notFound(`Cache variable ${id} of service ${s.id}`);
  return { s, c };
}

/** Whether another variable of the service (not `self`) has `name`: hidden ones too, as uniqueness is the primary's. */
const nameTaken = (core: EmulatorCore, serviceId: string, self?: string) => (name: string) =>
  cacheVariablesOf(core, serviceId).some((c) => c.name === name && c.id !== self);

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", LIST, SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    const list = core.lag.visible(cacheVariablesOf(core, s.id), (c) => c.id);
    const base = baseUrl(core, req);
    // No pagination in the description; `total` as its example (and go-pagerduty) has it.
    return { cache_variables: list.map((c) => renderCacheVariable(base, c)), total: list.length };
  });

  rest(
    app,
    "POST",
    LIST,
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const fields = parseCacheVariable(bodyOf(req), undefined, nameTaken(core, s.id));
      const base = baseUrl(core, req);
      const c = newCacheVariable(core, p, base, s.id, fields);
      core.state.cacheVariables[c.id] = c;
      core.startLag(p.accountId, c.id);
      return { cache_variable: renderCacheVariable(base, c) };
    },
    cacheVariableBody,
  );

  rest(app, "GET", ONE, SCOPES.servicesRead, (req) => ({ cache_variable: renderCacheVariable(baseUrl(core, req), find(core, req).c) }));

  rest(
    app,
    "PUT",
    ONE,
    SCOPES.servicesWrite,
    (req) => {
      const { s, c } = find(core, req);
      const fields = parseCacheVariable(bodyOf(req), c, nameTaken(core, s.id, c.id));
      const base = baseUrl(core, req);
      Object.assign(c, fields, { updated_at: core.clock.iso(), updated_by: actorRef(base, who(req)) });
      return { cache_variable: renderCacheVariable(base, c) };
    },
    cacheVariableBody,
  );

  rest(app, "DELETE", ONE, SCOPES.servicesWrite, (req, reply) => {
    const { c } = find(core, req);
    delete core.state.cacheVariables[c.id];
    delete core.state.cacheValues[c.id];
    return reply.code(204).send();
  });
}

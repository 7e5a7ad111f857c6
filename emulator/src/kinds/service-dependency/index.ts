// The service dependency kind: associate and disassociate relationships between (technical or
// business) services, and the immediate dependencies of one service. A pair has one relationship:
// associating it again answers the one there is, so a client that lost the reply can ask again. A
// deleted service or business service takes its relationships along.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { params, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, object } from "../../schemas";
import { Validator } from "../../validate";
import { findBusinessService } from "../business-service/model";
import { defineKind, type KindOptions } from "../kind";
import { findService } from "../service/model";
import { type DependencySide, dropDependencies, renderDependency, type ServiceDependencyRecord } from "./model";

export const kind = defineKind({
  name: "service dependency",
  tables: { serviceDependencies: {} },
  routes,
  lag: { listedOnly: "no path names a relationship: the listings of its sides leave a new one out" },
  serviceDeleted: (core, s) => dropDependencies(core, s.id),
  // A deleted business service takes its relationships along.
  objectDeleted: dropDependencies,
  example: {
    create: (ids) => ({
      method: "POST",
      path: "/service_dependencies/associate",
      body: { relationships: [{ supporting_service: { id: ids.service, type: "service" }, dependent_service: { id: ids.other, type: "service" } }] },
    }),
    found: ({ id }, ids) => ({ list: `/service_dependencies/technical_services/${ids.service}`, key: "relationships", id }),
  },
});

const sideSchema = object({ id: { type: "string", minLength: 1 }, type: { type: "string" } }, ["id", "type"]);
/** POST /service_dependencies/associate and /disassociate. */
const relationshipsBody = envelope("relationships", {
  type: "array",
  minItems: 1,
  items: object({ supporting_service: sideSchema, dependent_service: sideSchema }, ["supporting_service", "dependent_service"]),
});

/** The side types clients send: the Terraform provider sends `service`/`business_service` and accepts the reply's `*_reference` forms back. */
const SIDE_KINDS: Record<string, DependencySide["kind"]> = {
  service: "service",
  technical_service: "service",
  technical_service_reference: "service",
  business_service: "business_service",
  business_service_reference: "business_service",
};

type Side = { id: string; type: string };
type Pair = { supporting_service: Side; dependent_service: Side };

/** A side that exists in the caller's account (404 otherwise: it may be one created moments ago). */
function side(core: EmulatorCore, req: FastifyRequest, v: Validator, s: Side, at: string): DependencySide | undefined {
  const kind = SIDE_KINDS[s.type];
  if (!kind) return v.fail(`"${at}.type" must be one of: ${Object.keys(SIDE_KINDS).join(", ")}`);
  if (kind === "service") {
    const found = findService(core, who(req), s.id);
    core.lag.notFoundIfHidden(found.id, `Service ${s.id}`);
  } else findBusinessService(core, req, s.id);
  return { id: s.id, kind };
}

const mine = (core: EmulatorCore, req: FastifyRequest) => Object.values(core.state.serviceDependencies).filter((d) => d.accountId === who(req).accountId);
const samePair = (d: ServiceDependencyRecord, sup: DependencySide, dep: DependencySide) => d.supporting.id === sup.id && d.dependent.id === dep.id;

/** Whether `from` supports `to`, directly or through others (a new edge the other way would close a loop). */
function supports(edges: ServiceDependencyRecord[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const at = stack.pop()!;
    if (at === to) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const e of edges) if (e.supporting.id === at) stack.push(e.dependent.id);
  }
  return false;
}

/** The pairs of a body, checked; every problem of every item in one 400. */
function pairs(core: EmulatorCore, req: FastifyRequest): { sup: DependencySide; dep: DependencySide }[] {
  const v = new Validator();
  const out: { sup: DependencySide; dep: DependencySide }[] = [];
  (req.body as { relationships: Pair[] }).relationships.forEach((r, i) => {
    const sup = side(core, req, v, r.supporting_service, `relationships[${i}].supporting_service`);
    const dep = side(core, req, v, r.dependent_service, `relationships[${i}].dependent_service`);
    if (sup && dep && sup.id === dep.id) return v.fail(`"relationships[${i}]": a service cannot depend on itself`);
    if (sup && dep) out.push({ sup, dep });
  });
  v.done();
  return out;
}

function listFor(core: EmulatorCore, req: FastifyRequest, id: string) {
  const related = mine(core, req).filter((d) => d.supporting.id === id || d.dependent.id === id);
  return { relationships: core.lag.visible(related, (d) => d.id).map(renderDependency) };
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(
    app,
    "POST",
    "/service_dependencies/associate",
    SCOPES.servicesWrite,
    (req) => {
      const wanted = pairs(core, req);
      const edges = mine(core, req);
      const v = new Validator();
      const made: ServiceDependencyRecord[] = [];
      wanted.forEach(({ sup, dep }, i) => {
        const known = [...edges, ...made].find((d) => samePair(d, sup, dep));
        if (known) return made.push(known);
        if (supports([...edges, ...made], dep.id, sup.id))
          return v.fail(`"relationships[${i}]": ${dep.id} already supports ${sup.id}; this dependency would close a loop`);
        made.push({ id: core.ids.next(), accountId: who(req).accountId, supporting: sup, dependent: dep });
      });
      v.done();
      for (const d of made) {
        if (core.state.serviceDependencies[d.id]) continue;
        core.state.serviceDependencies[d.id] = d;
        core.startLag(d.accountId, d.id);
      }
      return { relationships: made.map(renderDependency) };
    },
    relationshipsBody,
  );

  rest(
    app,
    "POST",
    "/service_dependencies/disassociate",
    SCOPES.servicesWrite,
    (req) => {
      const edges = mine(core, req);
      const found = pairs(core, req).map(({ sup, dep }) => {
        const d = edges.find((e) => samePair(e, sup, dep));
        if (!d) throw notFound(`Service dependency of ${dep.id} on ${sup.id}`);
        return d;
      });
      for (const d of found) delete core.state.serviceDependencies[d.id];
      return { relationships: found.map(renderDependency) };
    },
    relationshipsBody,
  );

  rest(app, "GET", "/service_dependencies/technical_services/:id", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    core.lag.notFoundIfHidden(s.id, `Service ${s.id}`);
    return listFor(core, req, s.id);
  });

  rest(app, "GET", "/service_dependencies/business_services/:id", SCOPES.servicesRead, (req) => {
    const b = findBusinessService(core, req, params(req).id);
    return listFor(core, req, b.id);
  });
}

// The business service kind, minimal: enough to be a side of a service dependency (create, list,
// show, delete). Teams and subscribers are not modelled. A deleted one takes its dependencies along
// (the service dependencies' `objectDeleted`).
import type { FastifyInstance } from "fastify";
import { notFound } from "../../errors";
import { baseUrl, paginate, params, query, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, nullable, object } from "../../schemas";
import { owned } from "../../store";
import type { Json } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { type BusinessServiceRecord, findBusinessService } from "./model";

const ONE = "/business_services/:id";

export const kind = defineKind({
  name: "business service",
  tables: { businessServices: {} },
  routes,
  lag: {
    paths: [ONE],
    find: ownedFind((core) => core.state.businessServices, "id", "Business service"),
  },
  example: {
    create: () => ({ method: "POST", path: "/business_services", body: { business_service: { name: "Example" } } }),
    found: ({ id }) => ({ get: `/business_services/${id}` }),
  },
});

const businessServiceBody = envelope(
  "business_service",
  object(
    {
      name: { type: "string", minLength: 1, maxLength: 255, pattern: "\\S" },
      description: nullable({ type: "string" }),
      point_of_contact: nullable({ type: "string" }),
    },
    ["name"],
  ),
);

function render(base: string, b: BusinessServiceRecord) {
  return {
    id: b.id,
    type: "business_service",
    summary: b.name,
    self: `${base}/business_services/${b.id}`,
    html_url: null,
    name: b.name,
    description: b.description,
    point_of_contact: b.point_of_contact,
    team: null,
  };
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/business_services", SCOPES.servicesRead, (req) => {
    const mine = Object.values(core.state.businessServices).filter((b) => b.accountId === who(req).accountId);
    const list = core.lag.visible(mine, (b) => b.id).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    const { page, meta } = paginate(list, query(req));
    return { business_services: page.map((b) => render(baseUrl(core, req), b)), ...meta };
  });

  rest(
    app,
    "POST",
    "/business_services",
    SCOPES.servicesWrite,
    (req) => {
      const input = (req.body as { business_service: Json }).business_service;
      const b: BusinessServiceRecord = {
        id: core.ids.next(),
        accountId: who(req).accountId,
        name: input.name as string,
        description: (input.description as string | null | undefined) ?? null,
        point_of_contact: (input.point_of_contact as string | null | undefined) ?? null,
        created_at: core.clock.iso(),
      };
      core.state.businessServices[b.id] = b;
      core.startLag(b.accountId, b.id);
      // The description answers this create with 200, not 201.
      return { business_service: render(baseUrl(core, req), b) };
    },
    businessServiceBody,
  );

  rest(app, "GET", ONE, SCOPES.servicesRead, (req) => ({
    business_service: render(baseUrl(core, req), findBusinessService(core, req, params(req).id)),
  }));

  rest(app, "DELETE", ONE, SCOPES.servicesWrite, (req, reply) => {
    const b = owned(core.state.businessServices, params(req).id, who(req).accountId);
    if (!b) throw notFound(`Business service ${params(req).id}`);
    core.objectDeleted(b.id);
    delete core.state.businessServices[b.id];
    return reply.code(204).send();
  });
}

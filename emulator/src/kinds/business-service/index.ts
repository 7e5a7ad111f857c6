// Business services, minimal: enough to be a side of a service dependency (create, list, show,
// delete). Teams and subscribers are not modelled.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../../core";
import { dropDependencies } from "../service-dependency/model";
import { notFound } from "../../errors";
import { baseUrl, paginate, params, query, rest, who } from "../../http";
import { SCOPES } from "../../oauth/scopes";
import { businessServiceBody } from "../../schemas";
import { findBusinessService } from "./model";
import { startLag } from "../service/model";
import { type BusinessServiceRecord, owned } from "../../store";
import type { Json } from "../../validate";

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

export function registerBusinessServices(app: FastifyInstance, core: EmulatorCore): void {
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
      startLag(core, b.accountId, b.id);
      // The description answers this create with 200, not 201.
      return { business_service: render(baseUrl(core, req), b) };
    },
    businessServiceBody,
  );

  rest(app, "GET", "/business_services/:id", SCOPES.servicesRead, (req) => ({
    business_service: render(baseUrl(core, req), findBusinessService(core, req, params(req).id)),
  }));

  rest(app, "DELETE", "/business_services/:id", SCOPES.servicesWrite, (req, reply) => {
    const b = owned(core.state.businessServices, params(req).id, who(req).accountId);
    if (!b) throw notFound(`Business service ${params(req).id}`);
    dropDependencies(core, b.id);
    delete core.state.businessServices[b.id];
    return reply.code(204).send();
  });
}

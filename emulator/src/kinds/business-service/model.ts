// Finding a business service in the caller's account: for its own routes and for service
// dependencies, whose sides may be business services.
import type { FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { who } from "../../http";
import { type BusinessServiceRecord, owned } from "../../store";

/** The business service `id` of the caller's account (hidden while lagging), or 404. */
export function findBusinessService(core: EmulatorCore, req: FastifyRequest, id: string): BusinessServiceRecord {
  const b = owned(core.state.businessServices, id, who(req).accountId);
  if (!b || core.lag.isHidden(b.id)) throw notFound(`Business service ${id}`);
  return b;
}

// A business service as the state keeps it, and finding one in the caller's account: for its own
// routes and for service dependencies, whose sides may be business services (a side named in a body
// is in no path the lag gate reads, so finding one asks the lag itself).
import type { FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { who } from "../../http";
import { owned } from "../../store";

declare module "../../store" {
  interface KindTables {
    businessServices: Record<string, BusinessServiceRecord>;
  }
}

/** A business service (`/business_services`): kept minimal, a side of service dependencies. */
export interface BusinessServiceRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  point_of_contact: string | null;
  created_at: string;
}

/** The business service `id` of the caller's account (hidden while lagging), or 404. */
export function findBusinessService(core: EmulatorCore, req: FastifyRequest, id: string): BusinessServiceRecord {
  const b = owned(core.state.businessServices, id, who(req).accountId);
  if (!b) throw notFound(`Business service ${id}`);
  core.lag.notFoundIfHidden(b.id, `Business service ${id}`);
  return b;
}

// getBusinessService: the business service with exactly this name. The listing takes no `query`:
// every page is read and the name matched here, exactly (as Terraform's data source does).
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { BUSINESS_SERVICES, READ } from "../kernel/api-paths";
import { defineLookup, named } from "../kernel/define";
import { listOffset } from "../kernel/pages";
import { idOf, nameArg } from "./fields";
import { byName, type Named, nameOf } from "./find";

export const definition = defineLookup({
  functionName: "getBusinessService",
  query: "businessService",
  description:
    "The business service with exactly this name (case-sensitive, as Terraform's data source), e.g. for a `ServiceDependency` side: " +
    '`{ id: getBusinessService({ name: "Checkout" }).id, type: "business_service" }`.',
  args: z.object({ name: nameArg("The business service's name, exactly (case-sensitive).") }).strict(),
  result: named(
    "BusinessServiceLookupResult",
    z.object({
      id: idOf("business service"),
      type: z.literal("business_service").describe('Always "business_service": with `id`, a `ServiceDependency` side.'),
      name: z.string().describe("The business service's name."),
      summary: z.string().describe("A short text the API gives the business service."),
      description: z.string().nullable().describe("The business service's description, if it has one."),
      pointOfContact: z.string().nullable().describe("Who to contact about it, if it names someone."),
      team: z.string().nullable().describe("Id of the team that owns it, if one does."),
    }),
  ),
});

interface ApiBusinessService extends Named {
  description?: string | null;
  point_of_contact?: string | null;
  team?: { id?: string } | null;
}

export const lookup: Lookup<typeof definition> = {
  definition,
  async run({ client }, { name }) {
    // listBusinessServices needs only `services.read` (READ), as the API description says.
    const b = byName(await listOffset<ApiBusinessService>(client, BUSINESS_SERVICES, "business_services", READ), name, "business service");
    return {
      id: b.id,
      type: "business_service",
      name: nameOf(b),
      summary: b.summary ?? nameOf(b),
      description: b.description ?? null,
      pointOfContact: b.point_of_contact ?? null,
      team: b.team?.id ?? null,
    };
  },
};

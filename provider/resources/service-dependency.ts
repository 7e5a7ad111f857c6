// pagerduty:ServiceDependency — one relationship "supporting service supports dependent service"
// (`/service_dependencies`). Made by associate, removed by disassociate, read back from the dependent
// side's list of immediate dependencies (PagerDuty's Terraform provider reads it the same way). Either
// side may be a business service, given by id with `type: "business_service"`.
import { z } from "zod";
import { PagerDutyError } from "../errors";
import { reads } from "../kernel/check";
import { defineResource, type OutputsOf } from "../kernel/define";
import type { Resource } from "../operations/resource";
import { DEPENDENCIES_ASSOCIATE, DEPENDENCIES_DISASSOCIATE, dependenciesOfPath, READ, WRITE } from "../kernel/api-paths";

export const SIDE_TYPES = ["service", "business_service"] as const;
type SideType = (typeof SIDE_TYPES)[number];

const side = (role: string) =>
  z
    .object({
      id: z.string().min(1, "must be a service id").describe(`Id of the ${role} service (a technical service, or a business service with \`type\`).`),
      type: z.enum(SIDE_TYPES).default("service").describe('"service" (a technical service, the default) or "business_service".'),
    })
    .strict();

export const dependencyInputs = z
  .object({
    supportingService: side("supporting").describe("The service the dependent one relies on. Changing it replaces the dependency."),
    dependentService: side("dependent").describe("The service that relies on the supporting one. Changing it replaces the dependency."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.supportingService.id === v.dependentService.id)
      ctx.addIssue({
        code: "custom",
        path: ["dependentService", "id"],
        message: "must differ from supportingService.id: a service cannot depend on itself",
        params: reads(["supportingService", "id"]),
      });
  });

export type DependencyInputs = z.infer<typeof dependencyInputs>;

const sideOut = z.object({
  id: z.string().describe("Id of the service."),
  type: z.enum(SIDE_TYPES).describe('"service" (a technical service) or "business_service".'),
});

export const definition = defineResource({
  kind: "ServiceDependency",
  description:
    "One dependency between two services: `dependentService` relies on `supportingService`. Either side\n" +
    'may be a business service (its id with `type: "business_service"`; `getBusinessService` finds it by name).\n' +
    "Both sides replace the dependency when they change; it has nothing else to update.",
  notes:
    "Made by associate, removed by disassociate; read back from the dependent service's dependencies. " +
    "Either side may be a business service by id (`getBusinessService`).",
  inputs: dependencyInputs,
  outputs: z.object({ supportingService: sideOut, dependentService: sideOut }),
  replaceOn: ["supportingService", "dependentService"],
  creates: false,
  importId: null,
});

type DependencyOutputs = OutputsOf<typeof definition>;

interface ApiSide {
  id: string;
  type?: string;
}
export interface ApiRelationship {
  id: string;
  type?: string;
  supporting_service: ApiSide;
  dependent_service: ApiSide;
}

/** The API answers `technical_service_reference` / `business_service_reference`; programs say `service` / `business_service`. */
export const sideType = (t: string | undefined): SideType => (t?.startsWith("business_service") ? "business_service" : "service");

const toSide = (s: ApiSide) => ({ id: s.id, type: sideType(s.type) });

export const toOutputs = (r: ApiRelationship): DependencyOutputs => ({
  supportingService: toSide(r.supporting_service),
  dependentService: toSide(r.dependent_service),
});

/** One relationship as the verbs take it. */
const relationships = (d: Pick<DependencyInputs, "supportingService" | "dependentService">) => ({
  relationships: [{ supporting_service: { ...d.supportingService }, dependent_service: { ...d.dependentService } }],
});

/** The services among a dependency's sides: associate may answer 404 for one this process just made. */
const serviceSides = (d: DependencyInputs): string[] => [d.supportingService, d.dependentService].filter((s) => s.type === "service").map((s) => s.id);

/** What the state records of a dependency's sides (a state written by this provider has both). */
function sidesOf(state: Partial<DependencyOutputs>, id: string): Pick<DependencyInputs, "supportingService" | "dependentService"> {
  if (!state.supportingService?.id || !state.dependentService?.id)
    throw new PagerDutyError("ERR_INPUT", `service dependency ${id} has no sides in its state, so it cannot be located`);
  return { supportingService: state.supportingService, dependentService: state.dependentService };
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id) => `service dependency ${id}`,

  async create(ctx, news) {
    const d: DependencyInputs = { supportingService: news.supportingService, dependentService: news.dependentService };
    const res = await ctx.consistency.untilVisible(ctx.consistency.youngest("Service", serviceSides(d)), () =>
      ctx.client.request<{ relationships?: ApiRelationship[] }>("POST", DEPENDENCIES_ASSOCIATE, { body: relationships(d), scopes: WRITE }),
    );
    const made = res.relationships?.find((r) => r.supporting_service?.id === d.supportingService.id && r.dependent_service?.id === d.dependentService.id);
    if (!made?.id) throw new PagerDutyError("ERR_API", `associate answered no relationship of ${d.dependentService.id} on ${d.supportingService.id}`);
    // Recorded so a read right after (this run or the state's stamp) waits out a relationship not yet listed.
    ctx.consistency.created("ServiceDependency", made.id);
    return { id: made.id, outs: toOutputs(made) };
  },

  async read(ctx, id, state) {
    const { dependentService } = sidesOf(state, id);
    const res = await ctx.client.request<{ relationships?: ApiRelationship[] }>("GET", dependenciesOfPath(dependentService.type, dependentService.id), {
      scopes: READ,
    });
    const found = res.relationships?.find((r) => r.id === id);
    // No longer listed: gone, as a 404 is (and, like one, believed only once the dependency is old enough to be listed).
    if (!found) throw new PagerDutyError("ERR_NOT_FOUND", `service dependency ${id} is not among the dependencies of ${dependentService.id}`);
    return { id, props: toOutputs(found) };
  },

  async delete(ctx, id, state) {
    await ctx.client.request("POST", DEPENDENCIES_DISASSOCIATE, { body: relationships(sidesOf(state, id)), scopes: WRITE });
  },
};

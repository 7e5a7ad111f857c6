// ServiceDependency: both sides replace it and nothing updates in place. A person removes it by
// hand (there is nothing else to change); a create over a pair that exists takes its relationship
// over (associate answers it again). It has no import id.
import { definition } from "../../../../provider/resources/service-dependency";
import { expectStatus, liveOf } from "../env";
import { notApplicable, type Row } from "../row";

const pair = (supporting: string, dependent: string) => ({
  relationships: [{ supporting_service: { id: supporting, type: "service" }, dependent_service: { id: dependent, type: "service" } }],
});

type Side = { id: string };

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ supportingService: { id: await env.service() }, dependentService: { id: await env.service() } }),
  // The relationship as the dependent service lists it (left out while it is young).
  live: (env, r) => {
    const dependent = (r.outs.dependentService as Side).id;
    return liveOf(env.api.get(`/service_dependencies/technical_services/${dependent}`), (body) => {
      const found = body.relationships.find((x: { id: string }) => x.id === r.id);
      return found && { supporting: found.supporting_service.id, dependent: found.dependent_service.id };
    });
  },
  handChange: {
    make: (env, r) =>
      expectStatus(
        env.api.post("/service_dependencies/disassociate", pair((r.outs.supportingService as Side).id, (r.outs.dependentService as Side).id)),
        200,
        "disassociate",
      ),
    removes: true,
  },
  update: notApplicable("both inputs replace it: a dependency has nothing to update"),
  replace: { inputs: async (env, d) => ({ ...d, supportingService: { id: await env.service() } }) },
  async handMade(env) {
    const [supporting, dependent] = [await env.handService(), await env.handService()];
    const made = await expectStatus(env.api.post("/service_dependencies/associate", pair(supporting, dependent)), 200, "associate");
    return { id: made.relationships[0].id, declared: { supportingService: { id: supporting }, dependentService: { id: dependent } } };
  },
  adopt: { by: "create", inputs: (d) => d, live: { supporting: expect.any(String) } },
  import: notApplicable("its id alone does not locate it (the API lists a dependency only under one of its services): the definition's importId is null"),
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

// ServiceEventRulesConversion: a one-way verb. Nothing to change by hand or in place; delete only
// forgets it (the service stays converted), so it is gone once its service is.
import { definition } from "../../../../provider/resources/service-event-rules-conversion";
import { expectStatus, liveOf } from "../env";
import { notApplicable, type Row } from "../row";

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ service: await env.service() }),
  // The listing's migrated_metadata says whether (and how) the rules were converted.
  live: (env, r) =>
    liveOf(env.api.get(`/services/${r.outs.service}/rules?include[]=migrated_metadata`), (body) => ({ migrated: body.migrated_status ?? "not converted" })),
  handChange: notApplicable("the conversion cannot be changed or undone: the API has no write for it, and the service stays converted"),
  update: notApplicable("its one input, `service`, replaces it: it has nothing to update"),
  replace: { inputs: async (env) => ({ service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    await expectStatus(env.api.post(`/services/${service}/rules/convert`), 200, "POST convert");
    return { id: service, declared: { service } };
  },
  // Converting a converted service is a no-op that reports its state.
  adopt: { by: "create", inputs: (d) => d, live: { migrated: "completed" } },
  import: { by: "import id" },
  // Delete only forgets it, and says so: the rules stay converted.
  async deleted(env, r) {
    expect(await row.live(env, r)).toEqual({ migrated: "completed" });
    expect(env.warnings).toContainEqual(expect.stringMatching(new RegExp(`conversion of service ${r.outs.service}'s event rules .*cannot be undone`)));
  },
  gone: { by: "its service deleted by hand", service: (r) => r.outs.service as string },
  lag: { hidden: "service", service: (d) => d.service },
};

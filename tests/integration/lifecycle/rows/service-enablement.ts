// ServiceEnablement: a feature switch of its service. A create over a switch set by hand takes it
// over; delete writes back the value found before, so it is gone once its service is. Imported as
// `<service id>/<feature>`.
import { definition } from "../../../../provider/resources/service-enablement";
import { expectStatus, liveOf } from "../env";
import type { Row } from "../row";

const path = (service: unknown) => `/services/${service}/enablements`;

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ service: await env.service(), feature: "aiops", enabled: false }),
  live: (env, r) =>
    liveOf(env.api.get(path(r.outs.service)), (body) => ({ enabled: body.enablements.find((e: { feature: string }) => e.feature === "aiops").enabled })),
  handChange: {
    make: (env, r) => expectStatus(env.api.put(`${path(r.outs.service)}/aiops`, { enablement: { enabled: true } }), 200, "PUT enablement"),
  },
  update: { inputs: async (_env, d) => ({ ...d, enabled: true }), live: () => ({ enabled: true }) },
  replace: { inputs: async (env, d) => ({ ...d, service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    await expectStatus(env.api.put(`${path(service)}/aiops`, { enablement: { enabled: false } }), 200, "PUT enablement");
    return { id: `${service}/aiops`, declared: { service, feature: "aiops", enabled: false } };
  },
  adopt: { by: "create", inputs: (d) => ({ ...d, enabled: true }), live: { enabled: true } },
  import: { by: "import id" },
  // Delete writes back the value found before the first write.
  deleted: async (env, r) => expect(await row.live(env, r)).toEqual({ enabled: r.outs.previousEnabled }),
  gone: { by: "its service deleted by hand", service: (r) => r.outs.service as string },
  lag: { hidden: "service", service: (d) => d.service },
};

// ServiceIntegration: its type replaces it; adopted by `adoptId`, imported as `<service id>/<id>`.
import { definition } from "../../../../provider/resources/service-integration";
import { expectStatus, liveOf } from "../env";
import type { Deployed } from "../engine";
import type { Env, Row } from "../row";

const path = (r: Deployed) => `/services/${r.outs.service}/integrations/${r.id}`;

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ service: await env.service(), type: "events_api_v2_inbound_integration", name: "Alerts" }),
  live: (env: Env, r) => liveOf(env.api.get(path(r)), ({ integration: i }) => ({ type: i.type, name: i.name })),
  handChange: { make: (env, r) => expectStatus(env.api.put(path(r), { integration: { name: "renamed by hand" } }), 200, "PUT integration") },
  update: { inputs: async (_env, d) => ({ ...d, name: "Paging" }), live: () => ({ name: "Paging" }) },
  replace: { inputs: async (_env, d) => ({ ...d, type: "generic_events_api_inbound_integration" }) },
  async handMade(env) {
    const service = await env.handService();
    const body = { integration: { type: "events_api_v2_inbound_integration", name: "Made by hand" } };
    const made = await expectStatus(env.api.post(`/services/${service}/integrations`, body), 201, "POST integration");
    return { id: made.integration.id, declared: { service, type: "events_api_v2_inbound_integration", name: "Made by hand" } };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, name: "Adopted" }), live: { name: "Adopted" } },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

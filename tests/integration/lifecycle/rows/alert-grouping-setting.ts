// AlertGroupingSetting: every input updates in place, its services included (a setting groups
// several). Adopted by `adoptId`, imported by its id.
import { definition } from "../../../../provider/resources/alert-grouping-setting";
import { expectStatus, liveOf } from "../env";
import { notApplicable, type Row } from "../row";

const path = (id: string) => `/alert_grouping_settings/${id}`;

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({
    name: env.unique("grouping"),
    type: "content_based",
    config: { aggregate: "all", fields: ["summary"], timeWindow: 300 },
    services: [await env.service()],
  }),
  live: (env, r) =>
    liveOf(env.api.get(path(r.id)), ({ alert_grouping_setting: s }) => ({
      name: s.name,
      config: s.config,
      services: s.services.map((x: { id: string }) => x.id).sort(),
    })),
  handChange: {
    make: (env, r) =>
      expectStatus(env.api.put(path(r.id), { alert_grouping_setting: { config: { aggregate: "any", fields: ["summary"] } } }), 200, "PUT setting"),
  },
  // A second service joins the setting.
  update: {
    inputs: async (env, d) => ({ ...d, config: { aggregate: "any", fields: ["summary", "component"] }, services: [...d.services, await env.service()] }),
    live: (d) => ({ config: expect.objectContaining({ aggregate: "any", fields: ["summary", "component"] }), services: [...d.services].sort() }),
  },
  replace: notApplicable("every input updates in place: the definition replaces on nothing"),
  async handMade(env) {
    const service = await env.handService();
    const config = { aggregate: "any" as const, fields: ["summary"] };
    const body = { alert_grouping_setting: { name: "By hand", type: "content_based", config, services: [{ id: service }] } };
    const made = await expectStatus(env.api.post("/alert_grouping_settings", body), 201, "POST setting");
    return { id: made.alert_grouping_setting.id, declared: { name: "By hand", type: "content_based", config, services: [service] } };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, name: "Adopted" }), live: { name: "Adopted" } },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

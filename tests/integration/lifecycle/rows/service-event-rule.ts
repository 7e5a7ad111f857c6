// ServiceEventRule: moving it to another service replaces it; adopted by `adoptId`, imported as
// `<service id>/<id>`.
import { definition } from "../../../../provider/resources/service-event-rule";
import { expectStatus, liveOf } from "../env";
import type { Deployed } from "../engine";
import type { Row } from "../row";

const path = (r: Deployed) => `/services/${r.outs.service}/rules/${r.id}`;

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({
    service: await env.service(),
    position: 0,
    disabled: false,
    conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "payload.summary", value: "db" } }] },
    actions: { annotate: { value: "db alert" } },
  }),
  live: (env, r) => liveOf(env.api.get(path(r)), ({ rule }) => ({ disabled: rule.disabled, actions: rule.actions, position: rule.position })),
  handChange: { make: (env, r) => expectStatus(env.api.put(path(r), { rule: { disabled: true } }), 200, "PUT rule") },
  update: {
    inputs: async (_env, d) => ({ ...d, actions: { severity: { value: "critical" } } }),
    live: () => ({ actions: { severity: { value: "critical" } } }),
  },
  replace: { inputs: async (env, d) => ({ ...d, service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    const body = { rule: { disabled: false, actions: { annotate: { value: "by hand" } } } };
    const made = await expectStatus(env.api.post(`/services/${service}/rules`, body), 201, "POST rule");
    return { id: made.rule.id, declared: { service, disabled: false, actions: { annotate: { value: "by hand" } } } };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, disabled: true }), live: { disabled: true } },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

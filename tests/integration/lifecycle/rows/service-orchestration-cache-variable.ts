// ServiceOrchestrationCacheVariable: renamed and reconfigured in place, replaced when it moves to
// another service; adopted by `adoptId`, imported as `<service id>/<id>`.
import { definition } from "../../../../provider/resources/service-orchestration-cache-variable";
import { expectStatus, liveOf } from "../env";
import type { Deployed } from "../engine";
import type { Row } from "../row";

const path = (r: Deployed) => `/event_orchestrations/services/${r.outs.service}/cache_variables/${r.id}`;
const CONDITIONS = [{ expression: "event.summary matches part 'database'" }];

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({
    service: await env.service(),
    name: "db_triggers",
    conditions: CONDITIONS,
    configuration: { type: "trigger_event_count", ttlSeconds: 60 },
  }),
  live: (env, r) => liveOf(env.api.get(path(r)), ({ cache_variable: v }) => ({ name: v.name, conditions: v.conditions, configuration: v.configuration })),
  handChange: {
    make: (env, r) =>
      expectStatus(
        env.api.put(path(r), { cache_variable: { configuration: { type: "recent_value", source: "event.summary", regex: "(.*)" } } }),
        200,
        "PUT cache variable",
      ),
  },
  update: {
    inputs: async (_env, d) => ({ ...d, name: "database_triggers", configuration: { type: "trigger_event_count", ttlSeconds: 120 } }),
    live: () => ({ name: "database_triggers", configuration: { type: "trigger_event_count", ttl_seconds: 120 } }),
  },
  replace: { inputs: async (env, d) => ({ ...d, service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    const body = { cache_variable: { name: "by_hand", conditions: CONDITIONS, configuration: { type: "trigger_event_count", ttl_seconds: 30 } } };
    const made = await expectStatus(env.api.post(`/event_orchestrations/services/${service}/cache_variables`, body), 200, "POST cache variable");
    return {
      id: made.cache_variable.id,
      declared: { service, name: "by_hand", conditions: CONDITIONS, configuration: { type: "trigger_event_count", ttlSeconds: 30 } },
    };
  },
  adopt: {
    by: "adoptId",
    inputs: (d) => ({ ...d, configuration: { type: "trigger_event_count", ttlSeconds: 90 } }),
    live: { configuration: { type: "trigger_event_count", ttl_seconds: 90 } },
  },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

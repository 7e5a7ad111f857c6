// ServiceOrchestration: a setting of its service. A create takes the service's orchestration over;
// delete empties it, so it is gone once its service is. Imported as `<service id>`.
import { definition } from "../../../../provider/resources/service-orchestration";
import { expectStatus, liveOf } from "../env";
import type { Env, Row } from "../row";

const path = (service: unknown) => `/event_orchestrations/services/${service}`;

const TRIAGE = {
  label: "critical to triage",
  conditions: [{ expression: "event.severity matches 'critical'" }],
  actions: { routeTo: "triage" },
};
const sets = (label: string) => [
  { id: "start", rules: [TRIAGE] },
  { id: "triage", rules: [{ label, conditions: [], actions: { priority: "P1", annotate: "see the runbook" } }] },
];

/** The orchestration without the ids the API gives rules, and whether it handles the service's events. */
async function orchestration(env: Env, service: unknown) {
  const o = await liveOf(env.api.get(path(service)), ({ orchestration_path: o }) => ({
    sets: o.sets.map((s: { id: string; rules: { id: string }[] }) => ({ id: s.id, rules: s.rules.map(({ id: _id, ...r }) => r) })),
    catch_all: o.catch_all,
  }));
  return o && { ...o, active: (await expectStatus(env.api.get(`${path(service)}/active`), 200, "GET active")).active };
}

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ service: await env.service(), active: true, sets: sets("p1"), catchAll: { actions: { severity: "warning" } } }),
  live: (env, r) => orchestration(env, r.outs.service),
  handChange: {
    async make(env, r) {
      const { orchestration_path: o } = await expectStatus(env.api.get(path(r.outs.service)), 200, "GET orchestration");
      o.sets[1].rules[0].conditions = [{ expression: "event.source matches 'by hand'" }];
      await expectStatus(env.api.put(path(r.outs.service), { orchestration_path: o }), 200, "PUT orchestration");
    },
  },
  update: {
    inputs: async (_env, d) => ({ ...d, sets: sets("p1 incidents") }),
    live: () => ({ sets: [expect.anything(), { id: "triage", rules: [expect.objectContaining({ label: "p1 incidents" })] }] }),
  },
  replace: { inputs: async (env, d) => ({ ...d, service: await env.service() }) },
  async handMade(env) {
    const service = await env.handService();
    const hand = { sets: [{ id: "start", rules: [{ label: "by hand", conditions: [], actions: { suppress: true } }] }] };
    await expectStatus(env.api.put(path(service), { orchestration_path: hand }), 200, "PUT orchestration");
    return { id: service, declared: { service, sets: [{ id: "start", rules: [{ label: "by hand", conditions: [], actions: { suppress: true } }] }] } };
  },
  adopt: {
    by: "create",
    inputs: (d) => ({ ...d, sets: sets("p1") }),
    live: { sets: [{ id: "start", rules: [expect.objectContaining({ label: TRIAGE.label })] }, expect.anything()] },
  },
  import: { by: "import id" },
  // Delete puts back PagerDuty's empty orchestration.
  deleted: async (env, r) => expect(await row.live(env, r)).toMatchObject({ sets: [{ id: "start", rules: [] }], catch_all: { actions: {} } }),
  gone: { by: "its service deleted by hand", service: (r) => r.outs.service as string },
  lag: { hidden: "service", service: (d) => d.service },
};

// MaintenanceWindow: the row's window is under way from its create (its start has passed, so PagerDuty
// starts it at once), which shows what only such a window does: its start is history (no diff), its
// end, services and description update in place, a start moved into the future replaces it, and the
// delete of the old one ends it rather than removing it. Windows still to come (the hand-made ones,
// the replacement) are deleted. Adopted by `adoptId`, imported by its id. What goes beyond the row:
// tests/integration/kinds/maintenance-window.test.ts.
import { definition } from "../../../../provider/resources/maintenance-window";
import { expectStatus, liveOf } from "../env";
import type { Deployed } from "../engine";
import type { Env, Row } from "../row";

const path = (id: string) => `/maintenance_windows/${id}`;

/** A window the REST API shows: its services as a set, its times as instants. */
const shown = (w: { services: { id: string }[]; start_time: string; end_time: string; description: string | null }) => ({
  services: w.services.map((s) => s.id).sort(),
  start: Date.parse(w.start_time),
  end: Date.parse(w.end_time),
  description: w.description,
});

const live = (env: Env, r: Deployed) => liveOf(env.api.get(path(r.id)), ({ maintenance_window: w }) => shown(w));

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({
    services: [await env.service(), await env.service()],
    startTime: "2020-01-01T00:00:00Z",
    endTime: "2031-01-01T00:00:00Z",
    description: env.unique("upgrade"),
  }),
  live,
  handChange: {
    async make(env, r) {
      const body = { maintenance_window: { description: "changed by hand", services: [{ id: (r.outs.services as string[])[0], type: "service_reference" }] } };
      await expectStatus(env.api.put(path(r.id), body), 200, "PUT maintenance window");
    },
  },
  update: {
    // The services in another order, the end as another offset writes it, a later end and a new description.
    inputs: async (_env, d) => ({
      ...d,
      services: [...d.services].reverse(),
      endTime: "2031-06-01T02:00:00+02:00",
      description: `${d.description} (extended)`,
    }),
    live: (d) => ({ end: Date.parse("2031-06-01T00:00:00Z"), description: d.description }),
  },
  replace: { inputs: async (_env, d) => ({ ...d, startTime: "2032-01-01T00:00:00Z", endTime: "2032-01-01T04:00:00Z" }) },
  async handMade(env) {
    const services = [await env.handService()];
    const body = {
      maintenance_window: {
        type: "maintenance_window",
        start_time: "2033-01-01T00:00:00Z",
        end_time: "2033-01-01T01:00:00Z",
        description: "made by hand",
        services: services.map((id) => ({ id, type: "service_reference" })),
      },
    };
    const made = await expectStatus(env.api.post("/maintenance_windows", body), 201, "POST maintenance window");
    return {
      id: made.maintenance_window.id,
      // As a program would declare it: the same instants in another zone's writing.
      declared: { services, startTime: "2032-12-31T19:00:00-05:00", endTime: "2032-12-31T20:00:00-05:00", description: "made by hand" },
    };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, description: "adopted" }), live: { description: "adopted" } },
  import: { by: "import id" },
  // A window still to come is deleted; one that had begun is ended, and stays as history.
  async deleted(env, r) {
    const found = await live(env, r);
    if (Date.parse(String(r.outs.startTime)) > Date.now()) expect(found).toBeUndefined();
    else expect(found?.end).toBeLessThanOrEqual(Date.now());
  },
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

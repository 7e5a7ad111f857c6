// Service: every input updates in place; adopted by `adoptId`, imported by its id.
import { definition } from "../../../../provider/resources/service";
import { expectStatus, liveOf } from "../env";
import { notApplicable, type Row } from "../row";

export const row: Row<typeof definition> = {
  definition,
  create: async (env) => ({ name: env.unique("checkout"), escalationPolicy: env.policy, description: "Takes orders" }),
  live: (env, r) =>
    liveOf(env.api.get(`/services/${r.id}`), ({ service: s }) => ({
      name: s.name,
      description: s.description,
      acknowledgement_timeout: s.acknowledgement_timeout,
      status: s.status,
      support_hours: s.support_hours,
      scheduled_actions: s.scheduled_actions,
      alert_grouping_parameters: s.alert_grouping_parameters,
      auto_pause_notifications_parameters: s.auto_pause_notifications_parameters,
    })),
  handChange: { make: (env, r) => expectStatus(env.api.put(`/services/${r.id}`, { service: { description: "edited by hand" } }), 200, "PUT service") },
  // Nested, list and null-able fields too, and a status that is a second request.
  update: {
    inputs: async (_env, d) => ({
      ...d,
      acknowledgementTimeout: 600,
      status: "disabled",
      incidentUrgencyRule: {
        type: "use_support_hours",
        duringSupportHours: { type: "constant", urgency: "high" },
        outsideSupportHours: { type: "constant", urgency: "low" },
      },
      supportHours: { type: "fixed_time_per_day", timeZone: "Europe/Berlin", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1, 2, 3, 4, 5] },
      scheduledActions: [{ type: "urgency_change", at: { type: "named_time", name: "support_hours_start" }, toUrgency: "high" }],
      alertGroupingParameters: { type: "time", config: { timeout: 15 } },
      autoPauseNotificationsParameters: { enabled: true, timeout: 300 },
    }),
    live: () => ({
      acknowledgement_timeout: 600,
      status: "disabled",
      support_hours: expect.objectContaining({ time_zone: "Europe/Berlin", days_of_week: [1, 2, 3, 4, 5] }),
      scheduled_actions: [expect.objectContaining({ to_urgency: "high" })],
      alert_grouping_parameters: { type: "time", config: { timeout: 15 } },
      auto_pause_notifications_parameters: { enabled: true, timeout: 300 },
    }),
  },
  replace: notApplicable("every input updates in place: the definition replaces on nothing"),
  async handMade(env) {
    const name = env.unique("by_hand");
    const body = { service: { name, description: "made by hand", escalation_policy: { id: env.policy, type: "escalation_policy_reference" } } };
    const made = await expectStatus(env.api.post("/services", body), 201, "POST /services");
    return { id: made.service.id, declared: { name, escalationPolicy: env.policy, description: "made by hand" } };
  },
  adopt: { by: "adoptId", inputs: (d) => ({ ...d, description: "now managed" }), live: { description: "now managed" } },
  import: { by: "import id" },
  deleted: async (env, r) => expect(await row.live(env, r)).toBeUndefined(),
  gone: { by: "its delete" },
  lag: { hidden: "object" },
};

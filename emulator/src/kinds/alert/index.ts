// The alert kind: what events make. `POST /v2/enqueue` (the Events API v2, checked in
// events-api.ts) runs an event through its service (process.ts: the event pipeline, which evaluates
// the service's orchestration with the condition language of pcl/), which keeps alerts as PagerDuty
// does (model.ts) and opens incidents (kinds/incident/); the REST API shows an incident's alerts.
// Before any request, suspended alerts whose hold has ended trigger. A deleted service's alerts go
// with it; its admin routes (admin-routes.ts) give events' traces, dry runs and a service's every alert.
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../../core";
import { invalid, notFound } from "../../errors";
import { baseUrl, many, paginate, params, query, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { alertAdminRoutes } from "./admin-routes";
import { EVENTS_PATH, parseEvent } from "./events-api";
import { EVENT_ID_HEADER, processEvent } from "./process";
import type { Json } from "../../validate";
import { findIncident, type IncidentRecord } from "../incident/model";
import { integrationByKey } from "../integration/model";
import { defineKind, type KindOptions } from "../kind";
import { type AlertRecord, alertStatus, alertsOf, dropAlerts, releaseHeld, renderAlert } from "./model";

export const kind = defineKind({
  name: "alert",
  tables: { alerts: {}, heldAlerts: [] },
  routes,
  lag: { never: "alerts are made by events, which read no REST replica; the lag hides what REST clients create" },
  serviceDeleted: dropAlerts,
  beforeRequest: releaseHeld,
  adminRoutes: alertAdminRoutes,
  example: {
    create: (ids) => ({
      method: "POST",
      path: EVENTS_PATH,
      body: { routing_key: ids.routingKey, event_action: "trigger", payload: { summary: "example", source: "example", severity: "critical" } },
    }),
    found: (_made, ids) => ({ list: `/_emulator/services/${ids.service}/alerts`, key: "alerts" }),
  },
});

const ALERT_STATUSES = ["triggered", "resolved"];

function alertsOfIncident(core: EmulatorCore, i: IncidentRecord): AlertRecord[] {
  const s = core.state.services[i.serviceId];
  return s ? alertsOf(core, s).filter((a) => a.incidentId === i.id) : [];
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  app.route({
    method: "POST",
    url: EVENTS_PATH,
    config: { area: "events" },
    handler: (req, reply) => {
      const e = parseEvent(req.body);
      // An integration still in its consistency-lag window works: the events pipeline does not read
      // the REST API's replicas, and the key was in the create's reply.
      const integration = integrationByKey(core, e.routing_key);
      const s = core.state.services[integration.serviceId];
      const dedupKey = e.dedup_key ?? randomUUID().replace(/-/g, "");
      core.stats.events.accepted++;
      const trace = processEvent(core, s, integration, { body: req.body as Json, eventAction: e.event_action, dedupKey });
      reply.code(202).header(EVENT_ID_HEADER, trace.id);
      return { status: "success", message: "Event processed", dedup_key: dedupKey };
    },
  });

  rest(app, "GET", "/incidents/:id/alerts", SCOPES.incidentsRead, (req) => {
    const q = query(req);
    const statuses = many(q, "statuses");
    const bad = statuses.find((s) => !ALERT_STATUSES.includes(s));
    if (bad !== undefined) throw invalid(`"statuses[]" must be one of: ${ALERT_STATUSES.join(", ")} (got ${JSON.stringify(bad.slice(0, 40))})`);
    const i = findIncident(core, who(req), params(req).id);
    const base = baseUrl(core, req);
    const list = alertsOfIncident(core, i).filter((a) => !statuses.length || statuses.includes(alertStatus(core, a)));
    const { page, meta } = paginate(list, q);
    return { alerts: page.map((a) => renderAlert(core, base, a)), ...meta };
  });

  rest(app, "GET", "/incidents/:id/alerts/:alert_id", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    const a = alertsOfIncident(core, i).find((x) => x.id === params(req).alert_id);
    if (!a) throw notFound(`Alert ${params(req).alert_id} of incident ${i.id}`);
    return { alert: renderAlert(core, baseUrl(core, req), a) };
  });
}

// What routing serves. REST, as PagerDuty does: an incident's alerts (`GET /incidents/{id}/alerts`,
// `.../alerts/{alert_id}`), its notes (annotations) and its custom field values. Admin (under
// /_emulator, with the admin token): the traces of recent events, a dry run, and every alert of a
// service, suppressed and suspended ones included (they belong to no incident, so the REST API
// has no place for them). Before any request, suspended alerts whose hold has ended trigger.
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../core";
import { EventError, invalid, notFound } from "../errors";
import { baseUrl, type Handler, intParam, many, paginate, params, query, rest, single, who } from "../http";
import { SCOPES } from "../oauth/scopes";
import { cacheVariablesOf } from "../kinds/cache-variable/model";
import { restBase } from "../region";
import { parseEvent } from "./events-api";
import { findIncident } from "../kinds/incident";
import type { AlertRecord, IncidentRecord } from "../store";
import { alertStatus, alertsOf, forgetEvents, releaseHeld, renderAlert } from "../kinds/alert/model";
import { processEvent } from "./process";
import { findTrace, memoryOf } from "./trace";

const ALERT_STATUSES = ["triggered", "resolved"];

function alertsOfIncident(core: EmulatorCore, i: IncidentRecord): AlertRecord[] {
  const s = core.state.services[i.serviceId];
  return s ? alertsOf(core, s).filter((a) => a.incidentId === i.id) : [];
}

export function registerRouting(app: FastifyInstance, core: EmulatorCore): void {
  app.addHook("onRequest", async () => releaseHeld(core));

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

  rest(app, "GET", "/incidents/:id/notes", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    return {
      notes: (i.notes ?? []).map((n) => ({ id: n.id, user: null, channel: { summary: "Event Orchestration" }, content: n.content, created_at: n.created_at })),
    };
  });

  rest(app, "GET", "/incidents/:id/custom_fields/values", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    return { custom_fields: Object.entries(i.customFields ?? {}).map(([id, value]) => ({ id, type: "field_value", value })) };
  });
}

type AdminRoute = (method: "GET" | "POST", url: string, handler: Handler) => void;

const serviceBase = (core: EmulatorCore, req: FastifyRequest, accountId: string) => restBase(core, req, core.state.accounts[accountId]?.region ?? "us");

/** The admin routes (registered inside the admin plugin, which checks the admin token). */
export function registerRoutingAdmin(route: AdminRoute, core: EmulatorCore): void {
  route("GET", "/events", (req) => {
    const q = query(req);
    const serviceId = single(q.service_id);
    const key = single(q.dedup_key);
    const limit = intParam(q, "limit", 100, 1);
    const list = memoryOf(core.state)
      .traces.filter((t) => (!serviceId || t.service.id === serviceId) && (!key || t.dedup_key === key || t.result.dedup_key === key))
      .slice(-limit)
      .reverse();
    return { events: list };
  });

  route("GET", "/events/:key/trace", (req) => {
    const t = findTrace(core.state, params(req).key, single(query(req).service_id));
    if (!t) throw notFound(`Event ${params(req).key.slice(0, 255)}`);
    return t;
  });

  route("POST", "/events/dry-run", (req) => {
    const serviceId = single(query(req).service_id);
    const e = parseEvent(req.body, { routingKey: serviceId === undefined });
    const integration = e.routing_key ? Object.values(core.state.integrations).find((i) => i.integration_key === e.routing_key) : undefined;
    if (e.routing_key && !integration) throw new EventError("invalid_event", ["Invalid routing key"]);
    const s = core.state.services[integration?.serviceId ?? serviceId ?? ""];
    if (!s) throw notFound(`Service ${serviceId}`);
    const dedupKey = e.dedup_key ?? randomUUID().replace(/-/g, "");
    return processEvent(core, s, integration ?? null, { body: req.body as Record<string, unknown>, eventAction: e.event_action, dedupKey }, true);
  });

  route("POST", "/services/:id/events/reset", (req) => {
    const s = core.state.services[params(req).id];
    if (!s) throw notFound(`Service ${params(req).id}`);
    const gone = forgetEvents(
      core,
      s,
      cacheVariablesOf(core, s.id).map((c) => c.id),
    );
    return { service_id: s.id, removed: gone };
  });

  route("GET", "/services/:id/alerts", (req) => {
    const s = core.state.services[params(req).id];
    if (!s) throw notFound(`Service ${params(req).id}`);
    const suppressed = single(query(req).suppressed);
    const base = serviceBase(core, req, s.accountId);
    const list = alertsOf(core, s).filter((a) => suppressed === undefined || String(a.suppressed) === suppressed);
    return {
      alerts: list.map((a) => ({
        ...renderAlert(core, base, a),
        triggers: a.triggers,
        held_until: a.heldUntil === undefined ? null : new Date(a.heldUntil).toISOString(),
        recorded_actions: a.recorded ?? [],
        event_id: a.eventId,
      })),
    };
  });
}

// The alert kind's admin routes (under /_emulator, registered inside the admin plugin, which checks
// the admin token): the traces of recent events, a dry run, and every alert of a service, suppressed and
// suspended ones included (they belong to no incident, so the REST API has no place for them).
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { notFound } from "../../errors";
import { type AdminRoute, intParam, params, query, single } from "../../http";
import { alertsOf, forgetEvents, renderAlert } from "./model";
import { integrationByKey } from "../integration/model";
import { restBase } from "../../region";
import { parseEvent } from "./events-api";
import { processEvent } from "./process";
import { findTrace, memoryOf, traceMatches } from "../../pcl/trace";

const serviceBase = (core: EmulatorCore, req: FastifyRequest, accountId: string) => restBase(core, req, core.state.accounts[accountId]?.region ?? "us");

/** The admin routes (registered inside the admin plugin, which checks the admin token). */
export function alertAdminRoutes(route: AdminRoute, core: EmulatorCore): void {
  route("GET", "/events", (req) => {
    const q = query(req);
    const serviceId = single(q.service_id);
    // An empty dedup_key filters nothing.
    const key = single(q.dedup_key) || undefined;
    const limit = intParam(q, "limit", 100, 1);
    const list = memoryOf(core.state)
      .traces.filter((t) => traceMatches(t, key, serviceId))
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
    const integration = e.routing_key ? integrationByKey(core, e.routing_key) : undefined;
    const s = core.state.services[integration?.serviceId ?? serviceId ?? ""];
    if (!s) throw notFound(`Service ${serviceId}`);
    const dedupKey = e.dedup_key ?? randomUUID().replace(/-/g, "");
    return processEvent(core, s, integration ?? null, { body: req.body as Record<string, unknown>, eventAction: e.event_action, dedupKey }, true);
  });

  route("POST", "/services/:id/events/reset", (req) => {
    const s = core.state.services[params(req).id];
    if (!s) throw notFound(`Service ${params(req).id}`);
    const gone = forgetEvents(core, s);
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

// The consistency lag at the door of every route under a service (lag.ts): a request naming a
// hidden service, integration, event rule or cache variable is answered as if the object did not
// exist, before its handler runs. One hook rather than a check in each handler, so every child
// route (integrations, rules and their reorder, custom field values, enablements, audit records,
// convert, and the service's event orchestration and its cache variables under
// /event_orchestrations/services/:id) is covered, including those added later. Listings leave
// hidden objects out in their own handlers.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "./core";
import { notFound } from "./errors";
import { params, who } from "./http";
import { owned } from "./store";

/** Route prefixes whose `:id` is a service: its own routes and its event orchestration's. */
const SERVICE_ROUTES = ["/services/:id", "/event_orchestrations/services/:id"];
/** Alert grouping settings are new objects too (not under a service). */
const SETTING_ROUTE = "/alert_grouping_settings/:id";

export function registerLagGate(app: FastifyInstance, core: EmulatorCore): void {
  // preHandler: after authentication, scope and body checks, as for a service that does not exist.
  app.addHook("preHandler", async (req) => {
    const lag = core.lag;
    if (!lag.active || req.routeOptions.config.area !== "rest") return;
    const url = req.routeOptions.url ?? "";
    if (url === SETTING_ROUTE) {
      if (req.method === "DELETE" && !lag.settings.deletes) return;
      const g = owned(core.state.alertGroupingSettings, params(req).id, who(req).accountId);
      if (!g || !lag.isHidden(g.id)) return;
      lag.countHidden404();
      throw notFound(`Alert grouping setting ${g.id}`);
    }
    if (!SERVICE_ROUTES.some((r) => url === r || url.startsWith(`${r}/`))) return;
    // Deletes reach the primary unless deletes lag too.
    if (req.method === "DELETE" && !lag.settings.deletes) return;
    const { id, integration_id: integrationId, rule_id: ruleId, cache_variable_id: variableId } = params(req);
    const s = owned(core.state.services, id, who(req).accountId);
    if (!s) return;
    let missing: string | undefined;
    if (lag.isHidden(s.id)) missing = `Service ${s.id}`;
    else if (integrationId !== undefined && s.integrationIds.includes(integrationId) && lag.isHidden(integrationId))
      missing = `Integration ${integrationId} of service ${s.id}`;
    else if (ruleId !== undefined && s.ruleIds.includes(ruleId) && lag.isHidden(ruleId)) missing = `Event rule ${ruleId} of service ${s.id}`;
    else if (variableId !== undefined && core.state.cacheVariables[variableId]?.serviceId === s.id && lag.isHidden(variableId))
      missing = `Cache variable ${variableId} of service ${s.id}`;
    if (missing === undefined) return;
    lag.countHidden404();
    throw notFound(missing);
  });
}

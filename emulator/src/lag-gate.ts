// The consistency lag (lag.ts) at the door of every REST route: a request whose path names a hidden
// object is answered as if the object did not exist, before its handler runs. The gate asks each
// kind (its `lag`, kinds/kind.ts) which object a route's parameters name, so a kind added later is
// covered by what it declares; the service kind's paths cover every route under a service, its
// children's and its event orchestration's. Listings leave hidden objects out in their own handlers.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "./core";
import { params, who } from "./http";
import { type AnyKind, type LagPaths, lagPaths } from "./kinds/kind";

export function registerLagGate(app: FastifyInstance, core: EmulatorCore, kinds: readonly AnyKind[]): void {
  const entries = kinds.flatMap((k) => lagPaths(k.lag) ?? []);
  /** The entries covering each route pattern, in the kinds' order (found once per pattern). */
  const byRoute = new Map<string, LagPaths[]>();
  const covering = (url: string): LagPaths[] => {
    let found = byRoute.get(url);
    if (!found) byRoute.set(url, (found = entries.filter((e) => e.paths.some((p) => url === p || url.startsWith(`${p}/`)))));
    return found;
  };
  // preHandler: after authentication, scope and body checks, as for an object that does not exist.
  app.addHook("preHandler", async (req) => {
    const lag = core.lag;
    if (!lag.active || req.routeOptions.config.area !== "rest") return;
    // Deletes reach the primary unless deletes lag too.
    if (req.method === "DELETE" && !lag.settings.deletes) return;
    const p = params(req);
    for (const entry of covering(req.routeOptions.url ?? "")) {
      const o = entry.find(core, p, who(req).accountId);
      if (o) lag.notFoundIfHidden(o.id, o.missing);
    }
  });
}

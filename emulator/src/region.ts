// Service regions. PagerDuty keeps an account's data in one region and serves its REST API from
// that region's host (api.pagerduty.com for US, api.eu.pagerduty.com for EU); identity is one host
// for all. The emulator has one origin, so the EU REST host is the path prefix /eu of it.
import type { IncomingMessage } from "node:http";
import type { FastifyRequest } from "fastify";
import type { Principal } from "./auth";
import type { EmulatorCore } from "./core";
import { ApiError } from "./errors";
import type { Region } from "./store";

export const EU_PREFIX = "/eu";

/** `/eu`, `/eu/...` or `/eu?...`; not `/europe`. */
const EU_PATH = /^\/eu(?=[/?]|$)/;

/**
 * fastify's `rewriteUrl` option: `/eu/services` is routed as `/services`. Rewriting (instead of
 * registering the REST routes a second time in a plugin prefixed /eu) keeps one route table: the
 * route pattern, hence statistics keys, fault routes and `core.routes`, is the same through either
 * base. Which base a request used is read back from `originalUrl` (see `isEu`).
 */
export function stripEuPrefix(raw: IncomingMessage): string {
  const url = raw.url ?? "/";
  if (!EU_PATH.test(url)) return url;
  const rest = url.slice(EU_PREFIX.length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** Whether the request came through the EU base (fastify keeps the URL before rewriting). */
export const isEu = (req: FastifyRequest): boolean => EU_PATH.test(req.originalUrl);

/** The identity origin (also the US REST base): configured, or the origin the client used. */
export function origin(core: EmulatorCore, req: FastifyRequest): string {
  return core.opts.publicUrl ?? `${req.protocol}://${req.host}`;
}

/** The REST base URL of `region`. */
export function restBase(core: EmulatorCore, req: FastifyRequest, region: Region): string {
  const o = origin(core, req);
  return region === "eu" ? `${o.replace(/\/+$/, "")}${EU_PREFIX}` : o;
}

const REGION_NAMES: Record<Region, string> = { us: "US", eu: "EU" };

/**
 * 401 unless the request came through the REST base of the principal's region. Checked right
 * after authentication, before the rate limiter: like a credential the region's host does not
 * know, a refused request spends none of the account's budget.
 */
export function requireRegion(core: EmulatorCore, req: FastifyRequest, p: Principal): void {
  const region = core.state.accounts[p.accountId]?.region ?? "us";
  if ((region === "eu") === isEu(req)) return;
  throw new ApiError("WRONG_SERVICE_REGION", [`This account's data is in the ${REGION_NAMES[region]} service region; use ${restBase(core, req, region)}`]);
}

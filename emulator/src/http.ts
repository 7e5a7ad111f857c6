// HTTP helpers shared by the route modules: route registration with auth metadata, base URLs,
// references and offset pagination.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { Principal } from "./auth";
import type { EmulatorCore } from "./core";
import { invalid } from "./errors";
import { isEu, restBase } from "./region";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * Which error format and checks apply: REST (auth, Accept, rate limit), OAuth, admin, or the
     * Events API (no credential but the body's routing key; its own error body).
     */
    area?: "rest" | "oauth" | "admin" | "events";
    /** Scope a REST route needs. */
    scope?: string;
  }
}

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

/** Registers a control route under /_emulator, inside the admin plugin (admin.ts), which checks the admin token. */
export type AdminRoute = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, handler: Handler) => void;

/** Register an authenticated REST route needing `scope`; `body` is its request body's JSON schema (schemas.ts). */
export function rest(app: FastifyInstance, method: HTTPMethods, url: string, scope: string, handler: Handler, body?: object): void {
  app.route({ method, url, config: { area: "rest", scope }, handler, ...(body ? { schema: { body } } : {}) });
}

/** The principal of an authenticated REST request (set by the onRequest hook). */
export const who = (req: FastifyRequest): Principal => req.principal as Principal;

/** Path parameters (every route's params are strings). */
export const params = (req: FastifyRequest): Record<string, string> => req.params as Record<string, string>;

export const query = (req: FastifyRequest): Record<string, string | string[] | undefined> => req.query as Record<string, string | string[] | undefined>;

/** Base URL for `self`/`html_url` links: the REST base the request came through (region.ts). */
export function baseUrl(core: EmulatorCore, req: FastifyRequest): string {
  return restBase(core, req, isEu(req) ? "eu" : "us");
}

export interface Reference {
  id: string;
  type: string;
  summary: string;
  self: string | null;
  html_url: string | null;
}

export function reference(type: string, id: string, summary: string, self: string | null, html_url: string | null = null): Reference {
  return { id, type: `${type}_reference`, summary, self, html_url };
}

/** A single query parameter (the last one when repeated). */
export function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A repeated query parameter given as `key[]=a&key[]=b` or `key=a`. */
export function many(q: Record<string, string | string[] | undefined>, key: string): string[] {
  const v = q[`${key}[]`] ?? q[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * A non-negative integer query parameter. Past Number.MAX_SAFE_INTEGER digits stop being exact
 * (and 400 digits are Infinity, which JSON writes as null), so such a value is refused too.
 */
export function intParam(q: Record<string, string | string[] | undefined>, key: string, dflt: number, min: number): number {
  const raw = single(q[key]);
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min)
    throw invalid(
      `"${key}" must be an integer from ${min} to ${Number.MAX_SAFE_INTEGER}, got ${raw.length > 20 ? `${raw.slice(0, 20)}… (${raw.length} characters)` : JSON.stringify(raw)}`,
    );
  return n;
}

export const MAX_LIMIT = 100;

/** Offset pagination: `limit` (default 25, capped at 100), `offset`, `more`, `total` on request. */
export function paginate<T>(items: T[], q: Record<string, string | string[] | undefined>) {
  const limit = Math.min(intParam(q, "limit", 25, 1), MAX_LIMIT);
  const offset = intParam(q, "offset", 0, 0);
  const wantTotal = single(q.total) === "true";
  return {
    page: items.slice(offset, offset + limit),
    meta: { limit, offset, more: offset + limit < items.length, total: wantTotal ? items.length : null },
  };
}

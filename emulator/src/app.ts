// The fastify application: parsers, the request pipeline (faults → Accept → auth → rate limit
// → scope; `after` faults when the reply leaves), error mapping to the registry, statistics and
// persistence hooks, the lag gate, and the routes: each kind's plugin (kinds/), then the catalogue,
// identity and admin areas every kind shares.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { registerAdmin } from "./admin";
import { authenticate, requireScope } from "./auth";
import type { EmulatorCore } from "./core";
import { tooDeep } from "./depth";
import { ApiError, type ApiErrorName, EventError, OAuthError } from "./errors";
import type { FaultAction } from "./faults";
import { registerLagGate } from "./lag-gate";
import { registerOAuth } from "./oauth";
import { isEu, requireRegion, stripEuPrefix } from "./region";
import { registerCatalog } from "./catalog";
import { registerEscalationPolicies } from "./escalation-policies";
import type { AnyKind } from "./kinds/kind";
import { AJV_OPTIONS, schemaErrors } from "./schemas";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const FAULT_ERRORS: Record<number, ApiErrorName> = {
  // A transient 404: what a lagging read replica answers for an object created moments ago (lag.ts).
  404: "NOT_FOUND",
  429: "RATE_LIMITED",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** 406 when the Accept header asks for a vendor media type with an API version other than 2. */
function checkAccept(accept: string | undefined): void {
  if (!accept?.includes("vnd.")) return;
  for (const range of accept.split(",")) {
    const [type, ...ps] = range.split(";").map((s) => s.trim());
    if (!/^application\/vnd\.[^+]+\+json$/i.test(type)) continue;
    const v = ps.find((p) => /^version\s*=/i.test(p));
    const version = v?.split("=")[1].trim().replace(/^"|"$/g, "");
    if (version !== undefined && version !== "2") {
      throw new ApiError("UNSUPPORTED_VERSION", [
        `The Accept header asks for API version ${version}; this server serves version 2 (application/vnd.pagerduty+json;version=2)`,
      ]);
    }
  }
}

/**
 * Statistics key of a request: its route pattern, the same through the root and /eu. Identity and
 * admin routes are not served under /eu, so such a request matched no route.
 */
function routeKey(req: FastifyRequest): string {
  const area = req.routeOptions.config.area;
  const served = !isEu(req) || area === "rest" || area === "events";
  return `${req.method} ${(served && req.routeOptions.url) || "(unmatched)"}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Returns true when the connection was dropped (the request is over). */
async function applyFault(core: EmulatorCore, req: FastifyRequest, reply: FastifyReply, f: FaultAction): Promise<boolean> {
  core.stats.faultsInjected++;
  if (f.latencyMs) await sleep(f.latencyMs);
  if (f.drop) {
    core.stats.count(routeKey(req), "dropped");
    reply.hijack();
    req.raw.socket?.destroy();
    return true;
  }
  if (f.status) {
    if (f.status === 429) reply.header("ratelimit-limit", core.limiter.perMinute).header("ratelimit-remaining", 0).header("ratelimit-reset", 1);
    throw new ApiError(FAULT_ERRORS[f.status], ["Injected by the emulator's fault controls"]);
  }
  return false;
}

/** Faults that act once the request was handled (`after`), by request. */
const afterFaults = new WeakMap<FastifyRequest, FaultAction>();

/**
 * An `after` fault, applied when the reply is about to leave (the change is made and saved): the
 * reply is delayed, the connection dropped instead of replying, or the reply replaced by an error.
 */
async function applyAfterFault(core: EmulatorCore, req: FastifyRequest, reply: FastifyReply, f: FaultAction, payload: unknown): Promise<unknown> {
  core.stats.faultsInjected++;
  if (f.latencyMs) await sleep(f.latencyMs);
  if (f.drop) {
    core.stats.count(routeKey(req), "dropped");
    dropped.add(req);
    req.raw.socket?.destroy();
    return payload;
  }
  if (f.status) {
    if (f.status === 429) reply.header("ratelimit-limit", core.limiter.perMinute).header("ratelimit-remaining", 0).header("ratelimit-reset", 1);
    const e = new ApiError(FAULT_ERRORS[f.status], ["Injected by the emulator's fault controls after the request was carried out"]);
    reply.code(e.status).header("content-type", "application/json; charset=utf-8");
    return JSON.stringify(e.body());
  }
  return payload;
}

/** Requests whose connection an `after` fault dropped: counted as "dropped", not by status. */
const dropped = new WeakSet<FastifyRequest>();

/** Map anything thrown to a registry error; the OAuth area and the Events API answer in their own formats. */
function known(err: FastifyError | Error, area: string | undefined): ApiError | OAuthError | EventError {
  if (err instanceof EventError || err instanceof OAuthError) return err;
  if (err instanceof ApiError) return area === "events" ? asEventError(err) : err;
  const e = err as FastifyError;
  let api: ApiError;
  if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") api = new ApiError("PAYLOAD_TOO_LARGE");
  else if (e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") api = new ApiError("UNSUPPORTED_MEDIA_TYPE", ["Send bodies as application/json"]);
  else if (e instanceof SyntaxError || e.code?.startsWith("FST_ERR_CTP_")) api = new ApiError("MALFORMED_BODY", [`Malformed request body: ${e.message}`]);
  else if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) api = new ApiError("INVALID_INPUT", [e.message]);
  else {
    process.stderr.write(`pagerduty-emulator: internal error: ${e.stack ?? e.message}\n`);
    api = new ApiError("INTERNAL");
  }
  if (area === "events") return asEventError(api);
  return area === "oauth" && api.status < 500 ? new OAuthError("invalid_request", api.errors?.[0] ?? api.message) : api;
}

/**
 * The Events API's body for a 400 (malformed JSON, ...) or 429 (a fault); other statuses (413, 5xx
 * faults) keep the REST error body, as a proxy in front of the events host would answer.
 */
function asEventError(e: ApiError): ApiError | EventError {
  if (e.status === 400) return new EventError("invalid_event", e.errors);
  if (e.status === 429) return new EventError("throttle_event");
  return e;
}

/** 404 naming the path as the client sent it (before the /eu rewrite). */
const notServed = (req: FastifyRequest): ApiError => new ApiError("ROUTE_NOT_FOUND", [`No route ${req.method} ${req.originalUrl.split("?")[0]}`]);

/** `kinds`: the kinds served (kinds/index.ts); `https`: PEM certificate and key to serve HTTPS with (see tls.ts). */
export function buildApp(core: EmulatorCore, kinds: readonly AnyKind[], https?: { cert: string; key: string }): FastifyInstance {
  const app = Fastify({
    ...(https ? { https } : {}),
    // Route body schemas (schemas.ts): every problem reported, nothing coerced; the service's error body.
    ajv: { customOptions: AJV_OPTIONS },
    schemaErrorFormatter: (errors) => schemaErrors(errors),
    logger: core.opts.logger ?? false,
    bodyLimit: core.opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    forceCloseConnections: true,
    // /eu/... is routed as /...: one route table for both REST bases (why: region.ts).
    rewriteUrl: stripEuPrefix,
    // go-pagerduty, and so PagerDuty's Terraform provider, spells some paths with a trailing slash
    // (`POST /services/{id}/rules/`, `.../cache_variables/`): the service serves them as without.
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorateRequest("principal", null);

  // Empty JSON bodies (e.g. a DELETE sent with a JSON content type) are fine; vendor JSON types too.
  // Nesting is bounded here (depth.ts), before anything reads the body.
  const json = app.getDefaultJsonParser("error", "error") as (req: FastifyRequest, body: string, done: (e: Error | null, v?: unknown) => void) => void;
  app.removeContentTypeParser("application/json");
  for (const type of ["application/json", /^application\/vnd\.[\w.-]+\+json/]) {
    app.addContentTypeParser(type, { parseAs: "string" }, (req: FastifyRequest, body: string, done: (e: Error | null, v?: unknown) => void) =>
      body === "" ? done(null, undefined) : json(req, body, (e, v) => done(e ?? tooDeep(v) ?? null, v)),
    );
  }

  app.addHook("onRequest", async (req, reply) => {
    const config = req.routeOptions.config;
    // The EU events host is served under /eu too (kinds/alert/).
    if (isEu(req) && config.area !== "rest" && config.area !== "events") throw notServed(req);
    if (config.area === "admin") return;
    if (core.faults.size && req.routeOptions.url) {
      const f = core.faults.match(req.method, req.routeOptions.url);
      if (f?.after) afterFaults.set(req, f);
      else if (f && (await applyFault(core, req, reply, f))) return reply;
    }
    if (config.area !== "rest") return;
    checkAccept(req.headers.accept);
    const p = authenticate(core.state, req.headers.authorization, core.clock.now());
    requireRegion(core, req, p);
    req.principal = p;
    const d = core.limiter.take(p.rateKey, core.clock.now());
    reply.header("ratelimit-limit", d.limit).header("ratelimit-remaining", d.remaining).header("ratelimit-reset", d.reset);
    if (!d.allowed) {
      core.stats.rateLimited++;
      throw new ApiError("RATE_LIMITED", [`More than ${d.limit} requests per minute; retry in ${d.reset} s`]);
    }
    if (config.scope) requireScope(p, config.scope);
  });

  app.addHook("onSend", async (req, reply, payload) => {
    // Persist before the reply leaves, so an acknowledged change survives a crash.
    if (req.method !== "GET" && req.method !== "HEAD") core.save();
    const late = afterFaults.get(req);
    if (late) {
      afterFaults.delete(req);
      return applyAfterFault(core, req, reply, late, payload);
    }
    return payload;
  });

  app.addHook("onResponse", async (req, reply) => {
    // Control-plane calls are not part of what a client under test did.
    if (req.routeOptions.config.area === "admin" || dropped.has(req)) return;
    core.stats.count(routeKey(req), reply.statusCode);
  });

  app.setErrorHandler((err, req, reply) => {
    const e = known(err as Error, req.routeOptions?.config?.area);
    return reply.code(e.status).send(e.body());
  });

  app.setNotFoundHandler((req, reply) => {
    const e = notServed(req);
    return reply.code(e.status).send(e.body());
  });

  // The route table, for statistics consumers and the property test that covers every route.
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) if (method !== "HEAD") core.routes.push({ method, url: r.url });
  });

  for (const k of kinds) if (k.beforeRequest) app.addHook("onRequest", async () => k.beforeRequest?.(core));
  registerLagGate(app, core, kinds);
  // Each kind in a context of its own, given the core (fastify's encapsulation): the hooks above apply to all.
  for (const k of kinds) app.register(k.routes, { core });
  registerEscalationPolicies(app, core);
  registerCatalog(app, core);
  registerOAuth(app, core);
  registerAdmin(app, core, kinds);
  return app;
}

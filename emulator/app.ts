// The fastify application: parsers, the request pipeline (faults → Accept → auth → rate limit
// → scope), error mapping to the registry, statistics and persistence hooks, and the routes.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { registerAdmin } from "./admin";
import { authenticate, requireScope } from "./auth";
import type { EmulatorCore } from "./core";
import { ApiError, type ApiErrorName, OAuthError } from "./errors";
import type { FaultAction } from "./faults";
import { registerOAuth } from "./oauth";
import { registerAudit } from "./routes/audit";
import { registerCustomFields } from "./routes/custom-fields";
import { registerEnablements } from "./routes/enablements";
import { registerEscalationPolicies } from "./routes/escalation-policies";
import { registerIntegrations } from "./routes/integrations";
import { registerRules } from "./routes/rules";
import { registerServices } from "./routes/services";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const FAULT_ERRORS: Record<number, ApiErrorName> = {
  429: "RATE_LIMITED",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** 406 when the Accept header asks for a vendor media type with an API version other than 2. */
function checkAccept(accept: string | undefined): void {
  if (!accept || !accept.includes("vnd.")) return;
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Returns true when the connection was dropped (the request is over). */
async function applyFault(core: EmulatorCore, req: FastifyRequest, reply: FastifyReply, f: FaultAction): Promise<boolean> {
  core.stats.faultsInjected++;
  if (f.latencyMs) await sleep(f.latencyMs);
  if (f.drop) {
    core.stats.count(`${req.method} ${req.routeOptions.url}`, "dropped");
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

/** Map anything thrown to a registry error; the OAuth area answers in OAuth's error format. */
function known(err: FastifyError | Error, area: string | undefined): ApiError | OAuthError {
  if (err instanceof ApiError || err instanceof OAuthError) return err;
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
  return area === "oauth" && api.status < 500 ? new OAuthError("invalid_request", api.errors?.[0] ?? api.message) : api;
}

export function buildApp(core: EmulatorCore): FastifyInstance {
  const app = Fastify({
    logger: core.opts.logger ?? false,
    bodyLimit: core.opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    forceCloseConnections: true,
  });
  app.decorateRequest("principal", null);

  // Empty JSON bodies (e.g. a DELETE sent with a JSON content type) are fine; vendor JSON types too.
  const json = app.getDefaultJsonParser("error", "error") as (req: FastifyRequest, body: string, done: (e: Error | null, v?: unknown) => void) => void;
  app.removeContentTypeParser("application/json");
  for (const type of ["application/json", /^application\/vnd\.[\w.-]+\+json/]) {
    app.addContentTypeParser(type, { parseAs: "string" }, (req: FastifyRequest, body: string, done: (e: Error | null, v?: unknown) => void) =>
      body === "" ? done(null, undefined) : json(req, body, done),
    );
  }

  app.addHook("onRequest", async (req, reply) => {
    const config = req.routeOptions.config;
    if (config.area === "admin") return;
    if (core.faults.size && req.routeOptions.url) {
      const f = core.faults.match(req.method, req.routeOptions.url);
      if (f && (await applyFault(core, req, reply, f))) return reply;
    }
    if (config.area !== "rest") return;
    checkAccept(req.headers.accept);
    const p = authenticate(core.state, req.headers.authorization, core.clock.now());
    req.principal = p;
    const d = core.limiter.take(p.rateKey, core.clock.now());
    reply.header("ratelimit-limit", d.limit).header("ratelimit-remaining", d.remaining).header("ratelimit-reset", d.reset);
    if (!d.allowed) {
      core.stats.rateLimited++;
      throw new ApiError("RATE_LIMITED", [`More than ${d.limit} requests per minute; retry in ${d.reset} s`]);
    }
    if (config.scope) requireScope(p, config.scope);
  });

  app.addHook("onSend", async (req, _reply, payload) => {
    // Persist before the reply leaves, so an acknowledged change survives a crash.
    if (req.method !== "GET" && req.method !== "HEAD") core.save();
    return payload;
  });

  app.addHook("onResponse", async (req, reply) => {
    // Control-plane calls are not part of what a client under test did.
    if (req.routeOptions.config.area === "admin") return;
    core.stats.count(`${req.method} ${req.routeOptions.url ?? "(unmatched)"}`, reply.statusCode);
  });

  app.setErrorHandler((err, req, reply) => {
    const e = known(err as Error, req.routeOptions?.config?.area);
    return reply.code(e.status).send(e.body());
  });

  app.setNotFoundHandler((req, reply) => {
    const e = new ApiError("ROUTE_NOT_FOUND", [`No route ${req.method} ${req.url.split("?")[0]}`]);
    return reply.code(e.status).send(e.body());
  });

  // The route table, for statistics consumers and the property test that covers every route.
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) if (method !== "HEAD") core.routes.push({ method, url: r.url });
  });

  registerServices(app, core);
  registerIntegrations(app, core);
  registerRules(app, core);
  registerCustomFields(app, core);
  registerEnablements(app, core);
  registerAudit(app, core);
  registerEscalationPolicies(app, core);
  registerOAuth(app, core);
  registerAdmin(app, core);
  return app;
}

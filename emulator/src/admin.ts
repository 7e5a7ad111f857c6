// Test controls under /_emulator, authenticated with the admin token in `x-emulator-admin-token`.
// REST and OAuth credentials are never accepted here, and the admin token never by the REST API.
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "./core";
import { ApiError, invalid, notFound } from "./errors";
import { parseFault } from "./faults";
import { type AdminRoute, params } from "./http";
import type { AnyKind } from "./kinds/kind";
import { parseLag } from "./lag";
import { randomString, secret } from "./ids";
import { revokeAllTokens } from "./oauth/tokens";
import { applySeed, type SeedDocument, SeedError } from "./seed";
import { accountBySubdomain, type App, appByClientId } from "./store";
import { isObject } from "./validate";

export const ADMIN_HEADER = "x-emulator-admin-token";
export const ADMIN_PREFIX = "/_emulator";
/** One step of the clock; bounded so dates stay representable. */
const MAX_ADVANCE_MS = 100 * 365 * 86_400_000;
const MAX_DATE_MS = 8.64e15;

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An app by id or client_id. */
function findApp(core: EmulatorCore, key: string): App {
  const app = core.state.apps[key] ?? appByClientId(core.state, key);
  if (!app) throw notFound(`App ${key}`);
  return app;
}

function findAccount(core: EmulatorCore, subdomain: string) {
  const account = accountBySubdomain(core.state, subdomain);
  if (!account) throw notFound(`Account ${subdomain}`);
  return account;
}

const body = (b: unknown): Record<string, unknown> => (isObject(b) ? b : {});

/** Copy a boolean flag from an admin body when present. */
function setFlag<K extends string>(target: Record<K, boolean>, b: Record<string, unknown>, key: K): void {
  if (b[key] === undefined) return;
  if (typeof b[key] !== "boolean") throw invalid(`"${key}" must be a boolean`);
  target[key] = b[key] as boolean;
}

/** `kinds`: the kinds served, each bringing its own controls (`Kind.adminRoutes`). */
export function registerAdmin(app: FastifyInstance, core: EmulatorCore, kinds: readonly AnyKind[]): void {
  app.get(`${ADMIN_PREFIX}/health`, { config: { area: "admin" } }, () => ({ ok: true }));

  app.register(
    async (admin) => {
      admin.addHook("onRequest", async (req) => {
        if (!sameToken(req.headers[ADMIN_HEADER], core.adminToken)) {
          throw new ApiError("ADMIN_UNAUTHORIZED", [`Send the admin token in the ${ADMIN_HEADER} header`]);
        }
      });
      const route: AdminRoute = (method, url, handler) => admin.route({ method, url, config: { area: "admin" }, handler });

      route("POST", "/reset", () => {
        core.reset();
        return { reset: true, summary: core.summary() };
      });

      route("GET", "/stats", () => core.stats.toJSON());

      route("GET", "/clock", () => ({ now: core.clock.iso(), offsetMs: core.clock.offset }));
      route("POST", "/clock", (req) => {
        const b = body(req.body);
        // `at`: forward to that instant (e.g. inside or outside a service's support hours).
        const target = typeof b.at === "string" ? Date.parse(b.at) : undefined;
        if (target !== undefined && !(target >= core.clock.now())) throw invalid('"at" must be an ISO 8601 date and time not before the emulator\'s now');
        const ms =
          target !== undefined ? target - core.clock.now() : (b.advanceMs ?? (typeof b.advanceSeconds === "number" ? b.advanceSeconds * 1000 : undefined));
        if (typeof ms !== "number" || !(ms >= 0 && ms <= MAX_ADVANCE_MS) || core.clock.now() + ms > MAX_DATE_MS) {
          throw invalid('Give "advanceMs" or "advanceSeconds" (a non-negative number, at most 100 years) or "at"');
        }
        core.clock.advance(ms);
        return { now: core.clock.iso(), offsetMs: core.clock.offset };
      });

      route("GET", "/faults", () => ({ faults: core.faults.all() }));
      route("POST", "/faults", (req, reply) => {
        reply.code(201);
        return { fault: core.faults.add(parseFault(req.body)) };
      });
      route("DELETE", "/faults", (_req, reply) => {
        core.faults.clear();
        return reply.code(204).send();
      });
      route("DELETE", "/faults/:fault_id", (req, reply) => {
        if (!core.faults.remove(Number(params(req).fault_id))) throw notFound(`Fault ${params(req).fault_id}`);
        return reply.code(204).send();
      });

      // Consistency lag (lag.ts): new windows use the settings in force at each object's create.
      route("GET", "/lag", () => core.lag.settings);
      route("PUT", "/lag", (req) => {
        core.lag.settings = parseLag(req.body, core.lag.settings);
        return core.lag.settings;
      });

      route("PUT", "/rate-limit", (req) => {
        const n = body(req.body).perMinute;
        if (!Number.isInteger(n) || (n as number) < 1) throw invalid('"perMinute" must be a positive integer');
        core.limiter.perMinute = n as number;
        core.limiter.reset();
        return { perMinute: n };
      });

      // Everything a test may need to log in or authenticate: ids, secrets, passwords, keys.
      route("GET", "/registry", () => {
        const s = core.state;
        const sub = (id: string) => s.accounts[id]?.subdomain;
        return {
          accounts: Object.values(s.accounts),
          users: Object.values(s.users).map((u) => ({ ...u, account: sub(u.accountId) })),
          apps: Object.values(s.apps).map((a) => ({ ...a, account: sub(a.accountId), installs: a.installs.map(sub) })),
          apiKeys: Object.values(s.apiKeys).map((k) => ({ ...k, account: sub(k.accountId) })),
          escalationPolicies: Object.values(s.escalationPolicies).map((p) => ({ ...p, account: sub(p.accountId) })),
          customFields: Object.values(s.customFields).map((f) => ({ ...f, account: sub(f.accountId) })),
        };
      });

      // Every secret a client of this emulator may hold, for scans of what must not carry them in
      // clear: the state's (client secrets, API keys, passwords, the admin token, live integrations'
      // routing keys, which a restart over --data keeps) and what was issued since start (tokens,
      // routing keys, replaced client secrets), deleted objects' included; each value once.
      route("GET", "/secrets", () => {
        const s = core.state;
        const registry = [
          { kind: "admin_token", value: s.adminToken },
          ...Object.values(s.apps).map((a) => ({ kind: "client_secret", value: a.clientSecret })),
          ...Object.values(s.apiKeys).map((k) => ({ kind: "api_key", value: k.token })),
          ...Object.values(s.users).map((u) => ({ kind: "password", value: u.password })),
          ...Object.values(s.integrations).map((i) => ({ kind: "routing_key", value: i.integration_key })),
        ];
        const byValue = new Map<string, string>();
        for (const e of [...registry, ...core.issued.list()]) if (e.value && !byValue.has(e.value)) byValue.set(e.value, e.kind);
        return { secrets: [...byValue].map(([value, kind]) => ({ kind, value })), truncated: core.issued.truncated };
      });

      // Add registry objects; all or nothing (applied to a copy first).
      route("POST", "/seed", (req, reply) => {
        if (!isObject(req.body)) throw invalid("The body must be a seed document (JSON object)");
        const copy = structuredClone(core.state);
        const used = new Set(core.ids.used);
        try {
          const resolved = applySeed(copy, core.ids, req.body as SeedDocument, core.clock.iso(), core.seedSections);
          core.state = copy;
          reply.code(201);
          return resolved;
        } catch (e) {
          core.ids.used.clear();
          used.forEach((id) => core.ids.used.add(id));
          if (e instanceof SeedError) throw invalid(e.message);
          throw e;
        }
      });

      route("POST", "/apps/:app/revoke-tokens", (req) => ({ revoked: revokeAllTokens(core, findApp(core, params(req).app).id) }));

      // Deleting the OAuth functionality keeps existing tokens working (contract, credential lifecycle).
      route("DELETE", "/apps/:app/oauth", (req, reply) => {
        findApp(core, params(req).app).oauthEnabled = false;
        return reply.code(204).send();
      });
      // Re-adding it issues a new client id and secret (how a leaked secret is replaced).
      route("POST", "/apps/:app/oauth", (req) => {
        const a = findApp(core, params(req).app);
        a.oauthEnabled = true;
        a.clientId = randomString(20, "abcdefghijklmnopqrstuvwxyz0123456789");
        a.clientSecret = secret();
        core.issued.record("client_secret", a.clientSecret);
        return { id: a.id, clientId: a.clientId, clientSecret: a.clientSecret };
      });

      route("PUT", "/apps/:app", (req) => {
        const a = findApp(core, params(req).app);
        const b = body(req.body);
        setFlag(a, b, "published");
        if (b.redirectUris !== undefined) {
          if (!Array.isArray(b.redirectUris) || !b.redirectUris.every((u) => typeof u === "string"))
            throw invalid('"redirectUris" must be an array of strings');
          a.redirectUris = b.redirectUris as string[];
        }
        return { id: a.id, clientId: a.clientId, published: a.published, redirectUris: a.redirectUris };
      });

      // An admin of another account installs a published Scoped app there.
      route("POST", "/apps/:app/installs", (req, reply) => {
        const a = findApp(core, params(req).app);
        const account = findAccount(core, String(body(req.body).account));
        if (a.kind === "scoped" && !a.published) throw invalid("Only a published app can be installed on another account");
        if (account.id !== a.accountId && !a.installs.includes(account.id)) a.installs.push(account.id);
        reply.code(201);
        return { app: a.id, installs: a.installs.map((id) => core.state.accounts[id].subdomain) };
      });
      route("DELETE", "/apps/:app/installs/:account", (req, reply) => {
        const a = findApp(core, params(req).app);
        const account = findAccount(core, params(req).account);
        a.installs = a.installs.filter((id) => id !== account.id);
        return reply.code(204).send();
      });

      // A user leaves the account: their API keys and user tokens stop working.
      route("DELETE", "/users/:user", (req, reply) => {
        const key = params(req).user;
        const u = core.state.users[key] ?? Object.values(core.state.users).find((x) => x.email === key);
        if (!u) throw notFound(`User ${key}`);
        u.removed = true;
        return reply.code(204).send();
      });

      route("PUT", "/accounts/:account", (req) => {
        const account = findAccount(core, params(req).account);
        const b = body(req.body);
        setFlag(account, b, "aiopsEntitled");
        return account;
      });

      // Each kind's own controls (the alert kind's: traces, dry runs and a service's alerts).
      for (const k of kinds) k.adminRoutes?.(route, core);

      route("POST", "/escalation-policies", (req, reply) => {
        const b = body(req.body);
        const account = findAccount(core, String(b.account));
        if (typeof b.name !== "string" || b.name === "") throw invalid('"name" is required');
        const id = core.ids.next();
        core.state.escalationPolicies[id] = { id, accountId: account.id, name: b.name };
        reply.code(201);
        return core.state.escalationPolicies[id];
      });
      route("DELETE", "/escalation-policies/:policy", (req, reply) => {
        if (!core.state.escalationPolicies[params(req).policy]) throw notFound(`Escalation policy ${params(req).policy}`);
        delete core.state.escalationPolicies[params(req).policy];
        return reply.code(204).send();
      });
    },
    { prefix: ADMIN_PREFIX },
  );
}

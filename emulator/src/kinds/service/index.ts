// The service kind: index, show, create, update single, update multiple (atomic), delete. A
// deleted service first lets every kind take what is its (`core.serviceDeleted`); a hidden one
// hides every route under it, its children's included.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { audit, changes } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { invalid } from "../../errors";
import { baseUrl, many, paginate, params, query, rest, single, who } from "../../http";
import { SCOPES } from "../../scopes";
import { owned, type ServiceRecord, type State } from "../../store";
import { type Json, Validator } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { checkResult, createServiceBody, type Managed, managed, parseFields, updateServiceBody, updateServicesBody } from "./fields";
import { findService, serviceRef } from "./model";
import { ALERTS_AND_INCIDENTS, renderService } from "./view";

declare module "../../store" {
  interface KindTables {
    services: Record<string, ServiceRecord>;
  }
}

export const kind = defineKind({
  name: "service",
  tables: { services: {} },
  routes,
  lag: {
    // Its own routes, its children's, and its event orchestration's (with the cache variables).
    paths: ["/services/:id", "/event_orchestrations/services/:id"],
    find: ownedFind((core) => core.state.services, "id", "Service"),
  },
  example: {
    create: (ids) => ({
      method: "POST",
      path: "/services",
      body: { service: { name: "example", escalation_policy: { id: ids.escalationPolicy, type: "escalation_policy_reference" } } },
    }),
    found: ({ id }) => ({ get: `/services/${id}` }),
  },
});

const SORTS = ["name", "name:asc", "name:desc"] as const;

/** Per-state index of service names ("account\0name" → id); rebuilt when the state object changes (reset, seed). */
const nameIndexes = new WeakMap<State, Map<string, string>>();
const nameKey = (accountId: string, name: string) => `${accountId}\u0000${name}`;

function names(core: EmulatorCore): Map<string, string> {
  let index = nameIndexes.get(core.state);
  if (!index) {
    index = new Map(Object.values(core.state.services).map((s) => [nameKey(s.accountId, s.name), s.id]));
    nameIndexes.set(core.state, index);
  }
  return index;
}

/**
 * Names are unique per account in the final state: `renamed` maps service ids (or "new") to
 * their new names, so a batch may swap names between its members.
 */
function checkNames(core: EmulatorCore, accountId: string, renamed: Map<string, string>, v: Validator): void {
  const index = names(core);
  const claimed = new Set<string>();
  for (const [id, name] of renamed) {
    const owner = index.get(nameKey(accountId, name));
    const ownerKeeps = owner !== undefined && owner !== id && (renamed.get(owner) ?? name) === name;
    if (ownerKeeps || claimed.has(name)) v.fail(`Name has already been taken ("${name}")`);
    claimed.add(name);
  }
}

/** Keep the name index in step with a service's name (undefined = deleted). */
function rename(core: EmulatorCore, s: ServiceRecord, before: string | undefined, after: string | undefined): void {
  const index = names(core);
  if (before !== undefined && index.get(nameKey(s.accountId, before)) === s.id) index.delete(nameKey(s.accountId, before));
  if (after !== undefined) index.set(nameKey(s.accountId, after), s.id);
}

function applyManaged(core: EmulatorCore, s: ServiceRecord, m: Managed, now: string): void {
  const { escalation_policy, ...rest } = m;
  if (s.name !== m.name) rename(core, s, s.name, m.name);
  Object.assign(s, rest);
  s.escalationPolicyId = escalation_policy;
  s.escalationPolicySummary = core.state.escalationPolicies[escalation_policy]?.name ?? s.escalationPolicySummary;
  s.updated_at = now;
}

const includes = (req: FastifyRequest): Set<string> => new Set(many(query(req), "include"));

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/services", SCOPES.servicesRead, (req) => {
    const q = query(req);
    const p = who(req);
    const sort = single(q.sort_by) ?? "name";
    if (!(SORTS as readonly string[]).includes(sort)) throw invalid(`"sort_by" must be one of: ${SORTS.join(", ")}`);
    const text = single(q.query)?.toLowerCase();
    const name = single(q.name);
    const mine = Object.values(core.state.services).filter(
      (s) => s.accountId === p.accountId && (!text || s.name.toLowerCase().includes(text)) && (name === undefined || s.name === name),
    );
    const list = core.lag.visible(mine, (s) => s.id).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    if (sort === "name:desc") list.reverse();
    const { page, meta } = paginate(list, q);
    const base = baseUrl(core, req);
    const inc = includes(req);
    return { services: page.map((s) => renderService(core, base, s, inc)), ...meta };
  });

  rest(app, "GET", "/services/:id", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { service: renderService(core, baseUrl(core, req), s, includes(req)) };
  });

  rest(
    app,
    "POST",
    "/services",
    SCOPES.servicesWrite,
    (req, reply) => {
      const p = who(req);
      const v = new Validator();
      const patch = parseFields(v, (req.body as { service: Json }).service);
      v.done();
      const now = core.clock.iso();
      const m: Managed = {
        name: patch.name as string,
        description: patch.description ?? null,
        escalation_policy: patch.escalation_policy as string,
        auto_resolve_timeout: patch.auto_resolve_timeout === undefined ? 14400 : patch.auto_resolve_timeout,
        acknowledgement_timeout: patch.acknowledgement_timeout === undefined ? 1800 : patch.acknowledgement_timeout,
        // A service is always created active; status can change only by update.
        status: "active",
        incident_urgency_rule: patch.incident_urgency_rule ?? { type: "constant", urgency: "high" },
        support_hours: patch.support_hours ?? null,
        scheduled_actions: patch.scheduled_actions ?? [],
        alert_creation: ALERTS_AND_INCIDENTS,
        alert_grouping_parameters: patch.alert_grouping_parameters ?? { type: null },
        auto_pause_notifications_parameters: patch.auto_pause_notifications_parameters ?? { enabled: false, timeout: null },
      };
      checkResult(core, p.accountId, m, v);
      checkNames(core, p.accountId, new Map([["new", m.name]]), v);
      v.done();
      const { escalation_policy: _policy, ...fields } = m;
      const s: ServiceRecord = {
        id: core.ids.next(),
        accountId: p.accountId,
        escalationPolicyId: "",
        escalationPolicySummary: "",
        created_at: now,
        integrationIds: [],
        ruleIds: [],
        rulesConvertedAt: null,
        fieldValues: {},
        enablements: {},
        ...fields,
        updated_at: now,
      };
      applyManaged(core, s, m, now);
      core.state.services[s.id] = s;
      rename(core, s, undefined, s.name);
      core.startLag(p.accountId, s.id);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "create", serviceRef(base, s), changes(undefined, managed(s)));
      reply.code(201);
      return { service: renderService(core, base, s) };
    },
    createServiceBody,
  );

  rest(
    app,
    "PUT",
    "/services/:id",
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const s = findService(core, p, params(req).id);
      const input = (req.body as { service: Json }).service;
      if (input.id !== undefined && input.id !== s.id) throw invalid(`"service.id" (${String(input.id)}) does not match the path (${s.id})`);
      const v = new Validator();
      const patch = parseFields(v, input);
      const next = { ...managed(s), ...patch };
      v.done();
      checkResult(core, p.accountId, next, v, managed(s));
      checkNames(core, p.accountId, new Map([[s.id, next.name]]), v);
      v.done();
      const before = managed(s);
      applyManaged(core, s, next, core.clock.iso());
      core.serviceWritten(s, patch);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), changes(before, managed(s)));
      return { service: renderService(core, base, s) };
    },
    updateServiceBody,
  );

  // Update multiple: every item is validated against the would-be final state before any is applied.
  rest(
    app,
    "PUT",
    "/services",
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const items = (req.body as { services: (Json & { id: string })[] }).services;
      const v = new Validator();
      const seen = new Set<string>();
      const plan: { s: ServiceRecord; next: Managed; patch: Partial<Managed> }[] = [];
      items.forEach((item, i) => {
        const n = v.nested(`services[${i}].`);
        const s = owned(core.state.services, item.id, p.accountId);
        const lagging = s !== undefined && core.lag.isHidden(s.id);
        if (lagging) core.lag.countHidden404();
        if (!s || lagging) return n.fail(`"services[${i}]": service ${item.id} not found`);
        if (seen.has(s.id)) return n.fail(`"services[${i}]": service ${s.id} is listed twice`);
        seen.add(s.id);
        const patch = parseFields(n, item);
        plan.push({ s, next: { ...managed(s), ...patch }, patch });
      });
      v.done();
      for (const { s, next } of plan) checkResult(core, p.accountId, next, v, managed(s));
      checkNames(core, p.accountId, new Map(plan.map(({ s, next }) => [s.id, next.name])), v);
      v.done();
      const now = core.clock.iso();
      const base = baseUrl(core, req);
      for (const { s, next, patch } of plan) {
        const before = managed(s);
        applyManaged(core, s, next, now);
        core.serviceWritten(s, patch);
        audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), changes(before, managed(s)));
      }
      return { services: plan.map(({ s }) => renderService(core, base, s)) };
    },
    updateServicesBody,
  );

  rest(app, "DELETE", "/services/:id", SCOPES.servicesWrite, (req, reply) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    core.serviceDeleted(s);
    delete core.state.services[s.id];
    rename(core, s, s.name, undefined);
    const base = baseUrl(core, req);
    audit(core, p, serviceRef(base, s), "delete", serviceRef(base, s), changes(managed(s), undefined));
    return reply.code(204).send();
  });
}

// Services: index, show, create, update single, update multiple (atomic), delete.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { audit, changes } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { invalid } from "../../errors";
import { baseUrl, many, paginate, params, query, rest, single, who } from "../../http";
import { SCOPES } from "../../oauth/scopes";
import { owned, type ServiceRecord, type State } from "../../store";
import { createServiceBody, updateServiceBody, updateServicesBody } from "../../schemas";
import { isObject, type Json, Validator } from "../../validate";
import { findService, serviceRef, startLag } from "./model";
import { ALERTS_AND_INCIDENTS, renderService } from "./view";
import { leaveSetting } from "../alert-grouping-setting/model";
import { cacheVariablesOf, dropCacheVariables } from "../cache-variable/model";
import { dropRoutingState } from "../alert/model";
import { dropDependencies } from "../service-dependency/model";

const URGENCIES = ["low", "high", "severity_based"] as const;
const GROUPING_TYPES = ["time", "intelligent", "content_based"] as const;
const PAUSE_TIMEOUTS = [0, 120, 180, 300, 600, 900] as const;
const SORTS = ["name", "name:asc", "name:desc"] as const;
const USER_STATUSES = ["active", "disabled"];

const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** The fields a client manages, as they are compared for audit records. */
type Managed = Pick<
  ServiceRecord,
  | "name"
  | "description"
  | "auto_resolve_timeout"
  | "acknowledgement_timeout"
  | "status"
  | "incident_urgency_rule"
  | "support_hours"
  | "scheduled_actions"
  | "alert_creation"
  | "alert_grouping_parameters"
  | "auto_pause_notifications_parameters"
> & { escalation_policy: string };

type Patch = Partial<Managed>;

function urgencyRule(v: Validator, o: Json) {
  const r = v.object(o, "incident_urgency_rule");
  if (!r) return r;
  const n = v.nested("incident_urgency_rule.");
  const type = n.oneOf(r, "type", ["constant", "use_support_hours"], { required: true });
  if (type === "constant") return { type, urgency: n.oneOf(r, "urgency", URGENCIES, { required: true }) };
  if (type !== "use_support_hours") return undefined;
  const part = (key: string) => {
    const s = n.object(r, key, { required: true });
    if (!s) return undefined;
    const m = n.nested(`${key}.`);
    return { type: m.oneOf(s, "type", ["constant"], { required: true }), urgency: m.oneOf(s, "urgency", URGENCIES, { required: true }) };
  };
  return { type, during_support_hours: part("during_support_hours"), outside_support_hours: part("outside_support_hours") };
}

function supportHours(v: Validator, o: Json) {
  const s = v.object(o, "support_hours", { nullable: true });
  if (!s) return s;
  const n = v.nested("support_hours.");
  const days = n.array(s, "days_of_week", { required: true });
  if (days && (days.length === 0 || !days.every((d) => Number.isInteger(d) && (d as number) >= 1 && (d as number) <= 7)))
    n.fail('"support_hours.days_of_week" must be a non-empty array of integers 1..7');
  return {
    type: n.oneOf(s, "type", ["fixed_time_per_day"], { required: true }),
    time_zone: n.timeZone(s, "time_zone", { required: true }),
    start_time: n.string(s, "start_time", { required: true, pattern: TIME }),
    end_time: n.string(s, "end_time", { required: true, pattern: TIME }),
    days_of_week: days,
  };
}

function scheduledActions(v: Validator, o: Json) {
  // The Terraform provider sends `[null]` with a "use_support_hours" urgency rule and no actions
  // (it sizes the list before filling it): null items are no action.
  if (Array.isArray(o.scheduled_actions) && o.scheduled_actions.includes(null)) o = { ...o, scheduled_actions: o.scheduled_actions.filter((a) => a !== null) };
  return v.objects(o, "scheduled_actions", (n, a) => {
    const at = n.object(a, "at", { required: true });
    const m = n.nested("at.");
    return {
      type: n.oneOf(a, "type", ["urgency_change"], { required: true }),
      at: at
        ? {
            type: m.oneOf(at, "type", ["named_time"], { required: true }),
            name: m.oneOf(at, "name", ["support_hours_start", "support_hours_end"], { required: true }),
          }
        : undefined,
      to_urgency: n.oneOf(a, "to_urgency", ["high", "low"], { required: true }),
    };
  });
}

function grouping(v: Validator, o: Json) {
  const g = v.object(o, "alert_grouping_parameters", { nullable: true });
  if (g === null) return { type: null };
  if (!g) return g;
  // The description: an `alert_grouping_settings_reference` in a create or update "will be ignored".
  if (typeof g.type === "string" && g.type.endsWith("_reference")) return undefined;
  const n = v.nested("alert_grouping_parameters.");
  const type = n.oneOf(g, "type", GROUPING_TYPES, { nullable: true }) ?? null;
  const config = n.object(g, "config", { nullable: true });
  return config === undefined || type === null ? { type } : { type, config };
}

function autoPause(v: Validator, o: Json) {
  const p = v.object(o, "auto_pause_notifications_parameters");
  if (!p) return p;
  const n = v.nested("auto_pause_notifications_parameters.");
  return {
    enabled: n.boolean(p, "enabled", { required: true }),
    timeout: n.integer(p, "timeout", { nullable: true, oneOf: PAUSE_TIMEOUTS }) ?? null,
  };
}

const SCALARS = ["name", "description", "auto_resolve_timeout", "acknowledgement_timeout", "status", "alert_creation"] as const;

/**
 * The managed fields present in `o`; unknown and read-only fields are ignored. Scalars and the
 * policy reference were checked by the route's body schema (schemas.ts); nested objects here.
 */
function parseFields(v: Validator, o: Json): Patch {
  const patch: Patch = {};
  const set = <K extends keyof Patch>(k: K, value: Patch[K] | undefined) => {
    if (value !== undefined) patch[k] = value;
  };
  for (const k of SCALARS) if (o[k] !== undefined) (patch as Json)[k] = o[k];
  // Only enabled vs disabled is the user's choice; warning, critical and maintenance are what the
  // service computes (incidents.ts), so a client writing back a service it read changes nothing.
  if (patch.status !== undefined && !USER_STATUSES.includes(patch.status)) delete patch.status;
  // All services create alerts and incidents now: "create_incidents" is accepted (the Terraform
  // provider still sends it) and stored as what the service does.
  if (patch.alert_creation !== undefined) patch.alert_creation = ALERTS_AND_INCIDENTS;
  if (isObject(o.escalation_policy)) patch.escalation_policy = o.escalation_policy.id as string;
  set("incident_urgency_rule", urgencyRule(v, o) ?? undefined);
  set("support_hours", supportHours(v, o));
  set("scheduled_actions", scheduledActions(v, o) ?? undefined);
  set("alert_grouping_parameters", grouping(v, o));
  set("auto_pause_notifications_parameters", autoPause(v, o) ?? undefined);
  return patch;
}

/**
 * Per-object rules checked on the would-be result: a newly set policy exists (a kept reference to a
 * since-deleted policy stays valid), support hours are present when used.
 */
function checkResult(core: EmulatorCore, accountId: string, s: Managed, v: Validator, before?: Managed): void {
  if (s.escalation_policy !== before?.escalation_policy && !owned(core.state.escalationPolicies, s.escalation_policy, accountId))
    v.fail(`Escalation policy ${s.escalation_policy} not found`);
  const rule = s.incident_urgency_rule as { type?: string } | undefined;
  if (rule?.type === "use_support_hours" && !s.support_hours) v.fail('"support_hours" is required when "incident_urgency_rule.type" is "use_support_hours"');
}

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

const managed = (s: ServiceRecord): Managed => ({
  name: s.name,
  description: s.description,
  escalation_policy: s.escalationPolicyId,
  auto_resolve_timeout: s.auto_resolve_timeout,
  acknowledgement_timeout: s.acknowledgement_timeout,
  status: s.status,
  incident_urgency_rule: s.incident_urgency_rule,
  support_hours: s.support_hours,
  scheduled_actions: s.scheduled_actions,
  alert_creation: s.alert_creation,
  alert_grouping_parameters: s.alert_grouping_parameters,
  auto_pause_notifications_parameters: s.auto_pause_notifications_parameters,
});

function applyManaged(core: EmulatorCore, s: ServiceRecord, m: Managed, now: string): void {
  const { escalation_policy, ...rest } = m;
  if (s.name !== m.name) rename(core, s, s.name, m.name);
  Object.assign(s, rest);
  s.escalationPolicyId = escalation_policy;
  s.escalationPolicySummary = core.state.escalationPolicies[escalation_policy]?.name ?? s.escalationPolicySummary;
  s.updated_at = now;
}

const includes = (req: FastifyRequest): Set<string> => new Set(many(query(req), "include"));

export function registerServices(app: FastifyInstance, core: EmulatorCore): void {
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
      startLag(core, p.accountId, s.id);
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
      // Its own parameters take the service out of its setting (the Terraform provider warns that
      // dropping them "might delete an alert_grouping_setting depending on it").
      if (patch.alert_grouping_parameters !== undefined) leaveSetting(core, s.id);
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
      const plan: { s: ServiceRecord; next: Managed; regroups: boolean }[] = [];
      items.forEach((item, i) => {
        const n = v.nested(`services[${i}].`);
        const s = owned(core.state.services, item.id, p.accountId);
        const lagging = s !== undefined && core.lag.isHidden(s.id);
        if (lagging) core.lag.countHidden404();
        if (!s || lagging) return n.fail(`"services[${i}]": service ${item.id} not found`);
        if (seen.has(s.id)) return n.fail(`"services[${i}]": service ${s.id} is listed twice`);
        seen.add(s.id);
        const patch = parseFields(n, item);
        plan.push({ s, next: { ...managed(s), ...patch }, regroups: patch.alert_grouping_parameters !== undefined });
      });
      v.done();
      for (const { s, next } of plan) checkResult(core, p.accountId, next, v, managed(s));
      checkNames(core, p.accountId, new Map(plan.map(({ s, next }) => [s.id, next.name])), v);
      v.done();
      const now = core.clock.iso();
      const base = baseUrl(core, req);
      for (const { s, next, regroups } of plan) {
        const before = managed(s);
        applyManaged(core, s, next, now);
        if (regroups) leaveSetting(core, s.id);
        audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), changes(before, managed(s)));
      }
      return { services: plan.map(({ s }) => renderService(core, base, s)) };
    },
    updateServicesBody,
  );

  rest(app, "DELETE", "/services/:id", SCOPES.servicesWrite, (req, reply) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    for (const id of s.integrationIds) delete core.state.integrations[id];
    for (const id of s.ruleIds) delete core.state.rules[id];
    for (const id of s.incidentIds ?? []) delete core.state.incidents[id];
    dropRoutingState(
      core,
      s,
      cacheVariablesOf(core, s.id).map((c) => c.id),
    );
    dropCacheVariables(core, s.id);
    leaveSetting(core, s.id);
    dropDependencies(core, s.id);
    delete core.state.services[s.id];
    rename(core, s, s.name, undefined);
    const base = baseUrl(core, req);
    audit(core, p, serviceRef(base, s), "delete", serviceRef(base, s), changes(managed(s), undefined));
    return reply.code(204).send();
  });
}

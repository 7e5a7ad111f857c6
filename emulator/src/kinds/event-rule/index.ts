// The event rule kind: a service's event rules, ordered (a rule's position is its index; inserting
// or deleting shifts the others), partially updatable, and read-only once converted to event
// orchestration rules (`POST /services/{id}/rules/convert`).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorRef, audit, changes } from "../audit-record/model";
import type { Principal } from "../../auth";
import type { EmulatorCore } from "../../core";
import { ApiError, invalid, notFound } from "../../errors";
import { baseUrl, many, paginate, params, query, reference, rest, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope } from "../../schemas";
import type { ServiceRecord } from "../../store";
import { isObject, type Json, Validator } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { newRuleId, orchestrationOf } from "../orchestration/model";
import { findService, serviceRef } from "../service/model";
import { convertRules } from "./conversion";
import type { RuleRecord } from "./model";

export const kind = defineKind({
  name: "event rule",
  tables: { rules: {} },
  routes,
  lag: {
    paths: ["/services/:id/rules/:rule_id"],
    find: ownedFind((core) => core.state.rules, "rule_id", "Event rule", "id"),
  },
  serviceDeleted: (core, s) => {
    for (const id of s.ruleIds) delete core.state.rules[id];
  },
  example: {
    create: (ids) => ({ method: "POST", path: `/services/${ids.service}/rules`, body: { rule: { actions: { annotate: { value: "example" } } } } }),
    found: ({ id }, ids) => ({ get: `/services/${ids.service}/rules/${id}` }),
  },
});

const createRuleBody = envelope("rule", { type: "object" });
/**
 * The description requires the body to name the rule again in `rule_id`; the Terraform provider,
 * python `pagerduty` and `@pagerduty/pdjs` send `{"rule": {...}}` only, so it is optional here.
 */
const updateRuleBody = envelope("rule", { type: "object" }, { rule_id: { type: "string" } });

const CONDITION_OPERATORS = ["exists", "nexists", "equals", "nequals", "contains", "ncontains", "matches", "nmatches"] as const;
const SEVERITIES = ["info", "warning", "error", "critical"] as const;
const WEEKDAYS_OK = (d: unknown) => Array.isArray(d) && d.length > 0 && d.every((x) => Number.isInteger(x) && x >= 1 && x <= 7);

function conditions(v: Validator, o: Json) {
  const c = v.object(o, "conditions");
  if (!c) return c ?? undefined;
  const n = v.nested("conditions.");
  return {
    operator: n.oneOf(c, "operator", ["and", "or"], { required: true }),
    subconditions:
      n.objects(
        c,
        "subconditions",
        (m, s) => {
          const op = m.oneOf(s, "operator", CONDITION_OPERATORS, { required: true });
          const p = m.object(s, "parameters", { required: true });
          if (!p) return undefined;
          const q = m.nested("parameters.");
          return {
            operator: op,
            parameters: {
              path: q.string(p, "path", { required: true, nonEmpty: true }),
              // go-pagerduty omits an empty value (`omitempty`): absent means "".
              value: q.string(p, "value") ?? "",
              ...(p.options !== undefined ? { options: q.object(p, "options") } : {}),
            },
          };
        },
        { required: true },
      ) ?? [],
  };
}

function timeFrame(v: Validator, o: Json) {
  const t = v.object(o, "time_frame", { nullable: true });
  if (!t) return t;
  const n = v.nested("time_frame.");
  if (isObject(t.active_between)) {
    const a = t.active_between;
    const m = n.nested("active_between.");
    // go-pagerduty omits zero times (`omitempty`): an absent start is 0.
    const start = m.integer(a, "start_time", { min: 0 }) ?? 0;
    const end = m.integer(a, "end_time", { required: true, min: 0 });
    if (typeof start === "number" && typeof end === "number" && end <= start) m.fail('"time_frame.active_between.end_time" must be after start_time');
    return { active_between: { start_time: start, end_time: end } };
  }
  if (isObject(t.scheduled_weekly)) {
    const w = t.scheduled_weekly;
    const m = n.nested("scheduled_weekly.");
    if (!WEEKDAYS_OK(w.weekdays)) m.fail('"time_frame.scheduled_weekly.weekdays" must be a non-empty array of integers 1..7');
    return {
      scheduled_weekly: {
        start_time: m.integer(w, "start_time", { min: 0 }) ?? 0,
        duration: m.integer(w, "duration", { required: true, min: 1 }),
        timezone: m.timeZone(w, "timezone", { required: true }),
        weekdays: w.weekdays,
      },
    };
  }
  return n.fail('"time_frame" must have "active_between" or "scheduled_weekly"');
}

function variables(v: Validator, o: Json) {
  return v.objects(o, "variables", (n, x) => {
    const p = n.object(x, "parameters", { required: true });
    const m = n.nested("parameters.");
    return {
      type: n.oneOf(x, "type", ["regex"], { required: true }),
      name: n.string(x, "name", { required: true, nonEmpty: true }),
      parameters: p ? { value: m.string(p, "value", { required: true }), path: m.string(p, "path", { required: true, nonEmpty: true }) } : undefined,
    };
  });
}

function actions(v: Validator, o: Json) {
  const a = v.object(o, "actions");
  if (!a) return a ?? undefined;
  const n = v.nested("actions.");
  const out: Json = {};
  const valued = (key: string, check: (m: Validator, x: Json) => unknown) => {
    const x = n.object(a, key, { nullable: true });
    if (x === null) out[key] = null;
    else if (x) out[key] = { ...x, value: check(n.nested(`${key}.`), x) };
  };
  valued("annotate", (m, x) => m.string(x, "value", { required: true }));
  valued("event_action", (m, x) => m.oneOf(x, "value", ["trigger", "resolve"], { required: true }));
  valued("priority", (m, x) => m.string(x, "value", { required: true, nonEmpty: true }));
  valued("severity", (m, x) => m.oneOf(x, "value", SEVERITIES, { required: true }));
  valued("suppress", (m, x) => {
    m.integer(x, "threshold_value", { min: 1 });
    m.oneOf(x, "threshold_time_unit", ["seconds", "minutes", "hours"]);
    m.integer(x, "threshold_time_amount", { min: 1 });
    return m.boolean(x, "value", { required: true });
  });
  valued("suspend", (m, x) => m.integer(x, "value", { required: true, min: 0 }));
  const extractions = n.objects(a, "extractions", (m, e) => {
    m.string(e, "target", { required: true, nonEmpty: true });
    if (e.template === undefined) {
      m.string(e, "source", { required: true });
      m.string(e, "regex", { required: true });
    } else m.string(e, "template");
    return e;
  });
  if (extractions) out.extractions = extractions;
  return out;
}

type RuleFields = Pick<RuleRecord, "disabled" | "conditions" | "time_frame" | "variables" | "actions">;

function parseRule(v: Validator, o: Json): { fields: Partial<RuleFields>; position?: number } {
  const fields: Partial<RuleFields> = {};
  const set = <K extends keyof RuleFields>(k: K, val: RuleFields[K] | undefined) => {
    if (val !== undefined) fields[k] = val;
  };
  set("disabled", v.boolean(o, "disabled") ?? undefined);
  set("conditions", conditions(v, o));
  set("time_frame", timeFrame(v, o));
  set("variables", variables(v, o) ?? undefined);
  set("actions", actions(v, o));
  const position = v.integer(o, "position", { min: 0 }) ?? undefined;
  return { fields, position };
}

const view = (r: RuleRecord, position: number): Json => ({
  position,
  disabled: r.disabled,
  conditions: r.conditions,
  time_frame: r.time_frame,
  variables: r.variables,
  actions: r.actions,
});

function renderRule(base: string, s: ServiceRecord, r: RuleRecord) {
  return {
    id: r.id,
    type: "service_event_rule",
    summary: `Event rule ${r.id}`,
    self: `${base}/services/${s.id}/rules/${r.id}`,
    html_url: null,
    ...view(r, s.ruleIds.indexOf(r.id)),
  };
}

const ruleRef = (base: string, s: ServiceRecord, r: RuleRecord) =>
  reference("service_event_rule", r.id, `Event rule ${r.id}`, `${base}/services/${s.id}/rules/${r.id}`);

function findRule(core: EmulatorCore, s: ServiceRecord, id: string): RuleRecord {
  const r = core.state.rules[id];
  if (!r || r.serviceId !== s.id) throw notFound(`Event rule ${id} of service ${s.id}`);
  return r;
}

/** The service of a rule write, refusing once its rules were converted. */
function writable(core: EmulatorCore, p: Principal, req: FastifyRequest): ServiceRecord {
  const s = findService(core, p, params(req).id);
  if (s.rulesConvertedAt) {
    throw new ApiError("RULES_READ_ONLY", [
      `The event rules of service ${s.id} were converted to event orchestration rules at ${s.rulesConvertedAt}; change them through event orchestration instead`,
    ]);
  }
  return s;
}

function moveTo(s: ServiceRecord, id: string, position: number): void {
  s.ruleIds = s.ruleIds.filter((x) => x !== id);
  s.ruleIds.splice(Math.min(position, s.ruleIds.length), 0, id);
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/services/:id/rules", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    const base = baseUrl(core, req);
    // Rules in their consistency-lag window are left out; positions stay those of the primary.
    const { page, meta } = paginate(
      core.lag.visible(s.ruleIds, (id) => id).map((id) => core.state.rules[id]),
      query(req),
    );
    // include[]=migrated_metadata: when, by whom, into what and how the rules were converted (only
    // once they were), as in every example of the description. Conversions here are all by API.
    const migrated =
      many(query(req), "include").includes("migrated_metadata") && s.rulesConvertedAt
        ? {
            migrated_at: s.rulesConvertedAt,
            migrated_by: s.rulesConvertedBy ?? null,
            migrated_status: "completed",
            migrated_to: { id: s.id, type: "event_orchestration_reference", self: `${base}/event_orchestrations/services/${s.id}` },
            migrated_via: "API",
          }
        : {};
    return { rules: page.map((r) => renderRule(base, s, r)), ...meta, ...migrated };
  });

  rest(
    app,
    "POST",
    "/services/:id/rules",
    SCOPES.servicesWrite,
    (req, reply) => {
      const p = who(req);
      const s = writable(core, p, req);
      const v = new Validator();
      const { fields, position } = parseRule(v, (req.body as { rule: Json }).rule);
      v.done();
      const r: RuleRecord = {
        id: core.ids.uuid(),
        accountId: p.accountId,
        serviceId: s.id,
        disabled: fields.disabled ?? false,
        conditions: fields.conditions ?? { operator: "and", subconditions: [] },
        time_frame: fields.time_frame ?? null,
        variables: fields.variables ?? [],
        actions: fields.actions ?? {},
      };
      core.state.rules[r.id] = r;
      moveTo(s, r.id, position ?? s.ruleIds.length);
      core.startLag(p.accountId, r.id);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "create", ruleRef(base, s, r), changes(undefined, view(r, s.ruleIds.indexOf(r.id))));
      reply.code(201);
      return { rule: renderRule(base, s, r) };
    },
    createRuleBody,
  );

  rest(app, "GET", "/services/:id/rules/:rule_id", SCOPES.servicesRead, (req) => {
    const s = findService(core, who(req), params(req).id);
    return { rule: renderRule(baseUrl(core, req), s, findRule(core, s, params(req).rule_id)) };
  });

  // Partial update; a body-level `rule_id` (as some clients send) is accepted when it matches.
  rest(
    app,
    "PUT",
    "/services/:id/rules/:rule_id",
    SCOPES.servicesWrite,
    (req) => {
      const p = who(req);
      const s = writable(core, p, req);
      const r = findRule(core, s, params(req).rule_id);
      // A body-level `rule_id` (the description's form) must name the rule of the path; clients mostly leave it out.
      const bodyRuleId = (req.body as { rule_id?: string }).rule_id;
      if (bodyRuleId !== undefined && bodyRuleId !== r.id) throw invalid(`"rule_id" (${String(bodyRuleId)}) does not match the path (${r.id})`);
      const v = new Validator();
      const { fields, position } = parseRule(v, (req.body as { rule: Json }).rule);
      v.done();
      const before = view(r, s.ruleIds.indexOf(r.id));
      Object.assign(r, fields);
      if (position !== undefined) moveTo(s, r.id, position);
      const base = baseUrl(core, req);
      audit(core, p, serviceRef(base, s), "update", ruleRef(base, s, r), changes(before, view(r, s.ruleIds.indexOf(r.id))));
      return { rule: renderRule(base, s, r) };
    },
    updateRuleBody,
  );

  rest(app, "DELETE", "/services/:id/rules/:rule_id", SCOPES.servicesWrite, (req, reply) => {
    const p = who(req);
    const s = writable(core, p, req);
    const r = findRule(core, s, params(req).rule_id);
    const before = view(r, s.ruleIds.indexOf(r.id));
    s.ruleIds = s.ruleIds.filter((x) => x !== r.id);
    delete core.state.rules[r.id];
    const base = baseUrl(core, req);
    audit(core, p, serviceRef(base, s), "delete", ruleRef(base, s, r), changes(before, undefined));
    return reply.code(204).send();
  });

  // Verb: converting is idempotent; the reply is the new state either way.
  rest(app, "POST", "/services/:id/rules/convert", SCOPES.servicesWrite, (req) => {
    const p = who(req);
    const s = findService(core, p, params(req).id);
    const base = baseUrl(core, req);
    if (!s.rulesConvertedAt) {
      s.rulesConvertedAt = core.clock.iso();
      s.rulesConvertedBy = actorRef(base, p);
      audit(core, p, serviceRef(base, s), "update", serviceRef(base, s), [{ name: "event_rules", value: "converted", before_value: "active" }]);
      // The rules move, one to one and in order, into the orchestration's start set, which now
      // handles the service's events (the start set's earlier rules are replaced).
      const o = orchestrationOf(s);
      const taken = new Set(o.sets.flatMap((x) => x.rules.map((r) => r.id)));
      const start = o.sets.find((x) => x.id === "start")!;
      start.rules = convertRules(
        s.ruleIds.map((id) => core.state.rules[id]),
        () => {
          const id = newRuleId(taken);
          taken.add(id);
          return id;
        },
      );
      Object.assign(o, { active: true, updated_at: s.rulesConvertedAt, version: o.version + 1 });
    }
    // The description's shape, and nothing else: the status and the URL of the service's
    // orchestration (when and by whom: `GET /services/{id}/rules?include[]=migrated_metadata`).
    return { convert_status: "completed", converted_to: `${base}/event_orchestrations/service/${s.id}` };
  });
}

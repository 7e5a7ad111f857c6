// A service's fields as clients send them: the body schemas fastify checks before a handler runs,
// the nested objects checked here (each problem naming its field), and the rules a result must keep.
import type { EmulatorCore } from "../../core";
import { envelope, nullable, object, type Schema } from "../../schemas";
import { owned, type ServiceRecord } from "../../store";
import { isObject, type Json, type Validator } from "../../validate";
import { ALERTS_AND_INCIDENTS } from "./view";

const SERVICE_FIELDS: Record<string, Schema> = {
  type: { type: "string", enum: ["service"] },
  name: { type: "string", minLength: 1, maxLength: 255, pattern: "\\S" },
  description: nullable({ type: "string", maxLength: 1024 }),
  auto_resolve_timeout: nullable({ type: "integer", minimum: 0, maximum: 2147483647 }),
  acknowledgement_timeout: nullable({ type: "integer", minimum: 0, maximum: 2147483647 }),
  status: { type: "string", enum: ["active", "warning", "critical", "maintenance", "disabled"] },
  escalation_policy: object({ id: { type: "string", minLength: 1 } }, ["id"]),
  alert_creation: { type: "string", enum: ["create_incidents", "create_alerts_and_incidents"] },
};

/**
 * POST /services: the description requires `type` too, but production clients never send it
 * (PagerDuty's Terraform provider, go-pagerduty: `omitempty` and unset; see REJECTIONS.md).
 */
export const createServiceBody = envelope("service", object(SERVICE_FIELDS, ["name", "escalation_policy"]));
/** PUT /services/{id}: a partial update (absent fields stay). */
export const updateServiceBody = envelope("service", object(SERVICE_FIELDS));
/** PUT /services: update multiple, each item naming its service. */
export const updateServicesBody = envelope("services", {
  type: "array",
  minItems: 1,
  items: object({ id: { type: "string", minLength: 1 }, ...SERVICE_FIELDS }, ["id"]),
});

const URGENCIES = ["low", "high", "severity_based"] as const;
const GROUPING_TYPES = ["time", "intelligent", "content_based"] as const;
const PAUSE_TIMEOUTS = [0, 120, 180, 300, 600, 900] as const;
const USER_STATUSES = ["active", "disabled"];

const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** The fields a client manages, as they are compared for audit records. */
export type Managed = Pick<
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

export type Patch = Partial<Managed>;

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
export function parseFields(v: Validator, o: Json): Patch {
  const patch: Patch = {};
  const set = <K extends keyof Patch>(k: K, value: Patch[K] | undefined) => {
    if (value !== undefined) patch[k] = value;
  };
  for (const k of SCALARS) if (o[k] !== undefined) (patch as Json)[k] = o[k];
  // Only enabled vs disabled is the user's choice; warning, critical and maintenance are what the
  // service computes (kinds/incident/model.ts), so a client writing back a service it read changes nothing.
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
export function checkResult(core: EmulatorCore, accountId: string, s: Managed, v: Validator, before?: Managed): void {
  if (s.escalation_policy !== before?.escalation_policy && !owned(core.state.escalationPolicies, s.escalation_policy, accountId))
    v.fail(`Escalation policy ${s.escalation_policy} not found`);
  const rule = s.incident_urgency_rule as { type?: string } | undefined;
  if (rule?.type === "use_support_hours" && !s.support_hours) v.fail('"support_hours" is required when "incident_urgency_rule.type" is "use_support_hours"');
}

export const managed = (s: ServiceRecord): Managed => ({
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

// A service's event orchestration (`/event_orchestrations/services/{id}`): every service has one,
// at first a "start" set with no rules and an empty catch_all, and active: event rules reached their
// end of life on 2025-01-31, so a service's events go through its orchestration unless `/active` is
// set to false (emulator/README.md, "Which events an orchestration sees"). A PUT replaces it whole. Rule ids
// sent are kept (PagerDuty's Terraform provider sends back the ids it read, by position); a rule
// without one gets a new 8-hex id, the form of the description's examples. Conditions, paths and
// regexes are checked as PagerDuty checks them (pcl/checks.ts).
import { randomString } from "../../ids";
import { checkedExpression, checkedPath, checkedRegex } from "../../pcl/checks";
import type { ProgramSource, RuleSource } from "../../pcl/compile";
import type { ServiceRecord } from "../../store";
import { isObject, type Json, Validator } from "../../validate";

declare module "../../store" {
  interface ServiceRecord {
    /** Its event orchestration; absent until first used. */
    orchestration?: OrchestrationRecord;
  }
}

/** A rule as the orchestration keeps it: the shape the condition language runs (pcl/compile.ts). */
export type OrchestrationRule = RuleSource;

/** A service's orchestration: its sets and catch-all, as pcl/ compiles them, and what the API shows besides. */
export interface OrchestrationRecord extends ProgramSource {
  /** Whether events are evaluated by the orchestration (true) or by the service's event rules. */
  active: boolean;
  created_at: string;
  updated_at: string;
}

const HEX = "0123456789abcdef";
const SEVERITIES = ["info", "warning", "error", "critical"] as const;
const TRIGGER_TYPES = ["alert_triggered", "alert_suppressed", "alert_suspended"] as const;

export function emptyOrchestration(at: string): OrchestrationRecord {
  return { sets: [{ id: "start", rules: [] }], catch_all: { actions: {} }, active: true, created_at: at, updated_at: at, version: 0 };
}

/** The service's orchestration, made on first use (data files written before it existed have none). */
export function orchestrationOf(s: ServiceRecord): OrchestrationRecord {
  return (s.orchestration ??= emptyOrchestration(s.created_at));
}

/** A new rule id, unique within the orchestration. */
export function newRuleId(taken: Set<string>): string {
  for (;;) {
    const id = randomString(8, HEX);
    if (!taken.has(id)) return id;
  }
}

/** Unset forms production clients send (go-pagerduty writes every field: `""`, `null`). */
const unset = (v: unknown) => v === undefined || v === null || v === "";

/** A list of objects whose listed string fields are checked; other keys are dropped. */
function items(v: Validator, a: Json, key: string, required: readonly string[], optional: readonly string[] = []) {
  if (unset(a[key])) return undefined;
  return v.objects(a, key, (n, o) => {
    const out: Json = {};
    for (const k of required) out[k] = n.string(o, k, { required: true, nonEmpty: true });
    for (const k of optional) if (!unset(o[k])) out[k] = n.string(o, k);
    return out;
  });
}

function triggerTypes(v: Validator, o: Json): unknown[] | undefined {
  if (unset(o.trigger_types)) return undefined;
  const list = v.array(o, "trigger_types");
  if (!list) return undefined;
  if (!list.every((t) => (TRIGGER_TYPES as readonly unknown[]).includes(t)))
    v.fail(`${v.path("trigger_types")} items must be one of: ${TRIGGER_TYPES.join(", ")}`);
  return list;
}

/**
 * The actions of a rule or of the catch_all: known keys with a value (unset forms dropped, unknown
 * keys ignored as the API does). `sets` is the orchestration's set ids, for `route_to`.
 */
function actions(v: Validator, a: Json, sets: ReadonlySet<string> | undefined): Json {
  const out: Json = {};
  const keep = (k: string, val: unknown) => {
    if (!unset(val)) out[k] = val;
  };
  if (sets && !unset(a.route_to)) {
    const to = v.string(a, "route_to");
    if (typeof to === "string" && !sets.has(to))
      v.fail(`${v.path("route_to")} names set "${to}", which the orchestration does not have (sets: ${[...sets].join(", ")})`);
    keep("route_to", to);
  }
  for (const k of ["suppress", "drop_event"]) if (!unset(a[k])) keep(k, v.boolean(a, k));
  if (!unset(a.suspend)) keep("suspend", v.integer(a, "suspend", { min: 0 }));
  for (const k of ["priority", "annotate", "escalation_policy"]) if (!unset(a[k])) keep(k, v.string(a, k));
  if (!unset(a.severity)) keep("severity", v.oneOf(a, "severity", SEVERITIES));
  if (!unset(a.event_action)) keep("event_action", v.oneOf(a, "event_action", ["trigger", "resolve"]));
  keep(
    "variables",
    unset(a.variables)
      ? undefined
      : v.objects(a, "variables", (n, o) => ({
          name: n.string(o, "name", { required: true, nonEmpty: true }),
          path: checkedPath(n, o, "path"),
          type: n.oneOf(o, "type", ["regex"], { required: true }),
          value: checkedRegex(n, o, "value"),
        })),
  );
  keep(
    "extractions",
    unset(a.extractions)
      ? undefined
      : v.objects(a, "extractions", (n, o) => {
          const target = checkedPath(n, o, "target");
          if (!unset(o.template)) return { target, template: n.string(o, "template") };
          return { target, source: checkedPath(n, o, "source"), regex: checkedRegex(n, o, "regex") };
        }),
  );
  keep("incident_custom_field_updates", items(v, a, "incident_custom_field_updates", ["id"], ["value"]));
  keep(
    "pagerduty_automation_actions",
    unset(a.pagerduty_automation_actions)
      ? undefined
      : v.objects(a, "pagerduty_automation_actions", (n, o) => ({
          action_id: n.string(o, "action_id", { required: true, nonEmpty: true }),
          ...(triggerTypes(n, o) ? { trigger_types: o.trigger_types } : {}),
        })),
  );
  keep(
    "automation_actions",
    unset(a.automation_actions)
      ? undefined
      : v.objects(a, "automation_actions", (n, o) => ({
          name: n.string(o, "name", { required: true, nonEmpty: true }),
          url: n.string(o, "url", { required: true, nonEmpty: true }),
          auto_send: unset(o.auto_send) ? false : n.boolean(o, "auto_send"),
          headers: items(n, o, "headers", ["key"], ["value"]) ?? [],
          parameters: items(n, o, "parameters", ["key"], ["value"]) ?? [],
          ...(triggerTypes(n, o) ? { trigger_types: o.trigger_types } : {}),
        })),
  );
  return out;
}

function rule(v: Validator, o: Json, sets: ReadonlySet<string>): OrchestrationRule {
  const label = unset(o.label) ? undefined : v.string(o, "label");
  const conditions = unset(o.conditions) ? [] : (v.objects(o, "conditions", (n, c) => ({ expression: checkedExpression(n, c) as string })) ?? []);
  const a = unset(o.actions) ? {} : v.object(o, "actions");
  return {
    id: unset(o.id) ? "" : (v.string(o, "id") ?? ""),
    ...(label ? { label } : {}),
    conditions: conditions as { expression: string }[],
    actions: a ? actions(v.nested("actions."), a, sets) : {},
    disabled: unset(o.disabled) ? false : (v.boolean(o, "disabled") ?? false),
  };
}

/**
 * The sets and catch_all of a PUT body, checked: one 400 names every wrong field by its path
 * (`orchestration_path.sets[0].rules[1].actions.route_to`). Rules without an id get one.
 */
export function parseOrchestration(body: unknown): Pick<OrchestrationRecord, "sets" | "catch_all"> {
  const v = new Validator();
  const root = isObject(body) ? body : {};
  const path = v.object(root, "orchestration_path", { required: true });
  if (!path) v.done();
  const p = v.nested("orchestration_path.");
  const rawSets = p.objects(path!, "sets", (_n, s) => s, { required: true }) ?? [];
  const setIds = new Set<string>();
  rawSets.forEach((s, i) => {
    const id = s && p.nested(`sets[${i}].`).string(s, "id", { required: true, nonEmpty: true });
    if (typeof id !== "string") return;
    if (setIds.has(id)) p.fail(`"orchestration_path.sets[${i}].id" "${id}" is used by another set`);
    setIds.add(id);
  });
  if (rawSets.length && !setIds.has("start")) p.fail('"orchestration_path.sets" must contain a set with id "start"');
  const sets = rawSets.map((s, i) => {
    const n = p.nested(`sets[${i}].`);
    const rules = s && !unset(s.rules) ? (n.objects(s, "rules", (m, r) => rule(m, r, setIds)) ?? []) : [];
    return { id: String(s?.id ?? ""), rules: rules.filter((r): r is OrchestrationRule => r !== undefined) };
  });
  const ids = sets.flatMap((s) => s.rules.map((r) => r.id)).filter(Boolean);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) p.fail(`rule id "${dup}" is used by more than one rule`);
  const catchAll = unset(path!.catch_all) ? {} : p.object(path!, "catch_all");
  const catchActions = catchAll && !unset(catchAll.actions) ? p.nested("catch_all.").object(catchAll, "actions") : {};
  const caught = catchActions ? actions(p.nested("catch_all.actions."), catchActions, undefined) : {};
  v.done();
  const taken = new Set(ids);
  for (const s of sets) for (const r of s.rules) if (!r.id) taken.add((r.id = newRuleId(taken)));
  return { sets, catch_all: { actions: caught } };
}

/** The reply's `orchestration_path`. */
export function renderOrchestration(base: string, s: ServiceRecord, o: OrchestrationRecord) {
  return {
    type: "service",
    parent: { id: s.id, type: "service_reference", self: `${base}/services/${s.id}` },
    self: `${base}/event_orchestrations/services/${s.id}`,
    sets: o.sets,
    catch_all: o.catch_all,
    created_at: o.created_at,
    updated_at: o.updated_at,
    version: `v${o.version}`,
  };
}

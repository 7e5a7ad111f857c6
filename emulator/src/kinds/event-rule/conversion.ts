// What `POST /services/{id}/rules/convert` makes of a service's event rules: one orchestration rule
// per event rule, in position order, in the "start" set (PagerDuty: "remaining rules are migrated
// one to one"). Conditions become PCL expressions, actions the orchestration's flat actions. The
// emulator's own mapping, documented in its README ("Event orchestrations").
import type { OrchestrationRule } from "../orchestration/model";
import type { RuleRecord } from "./model";

type Json = Record<string, unknown>;

/** An event field path as PCL names it: `payload.summary` and `summary` are `event.summary`. */
export const pclPath = (path: string): string => (path.startsWith("event.") ? path : `event.${path.replace(/^payload\./, "")}`);

const quote = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Event rule operators as PCL: the negated ones are `not` of the positive form. */
const OPERATORS: Record<string, (path: string, value: string) => string> = {
  exists: (p) => `${p} exists`,
  equals: (p, v) => `${p} matches ${quote(v)}`,
  contains: (p, v) => `${p} matches part ${quote(v)}`,
  matches: (p, v) => `${p} matches regex ${quote(v)}`,
};

function subcondition(s: Json): string {
  const op = String(s.operator ?? "");
  const params = (s.parameters ?? {}) as Json;
  const negated = op.startsWith("n") && OPERATORS[op.slice(1)] !== undefined;
  const positive = OPERATORS[negated ? op.slice(1) : op] ?? OPERATORS.exists;
  const expr = positive(pclPath(String(params.path ?? "")), String(params.value ?? ""));
  return negated ? `not ${expr}` : expr;
}

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const clock = (ms: number) => new Date(ms % 86_400_000).toISOString().slice(11, 19);

/** A weekly time frame as PCL's `now in ...`; an `active_between` window has no PCL form and is left out. */
function timeFrame(t: unknown): string | undefined {
  const w = (t as { scheduled_weekly?: Json } | null)?.scheduled_weekly;
  if (!w) return undefined;
  const start = Number(w.start_time ?? 0);
  const days = (w.weekdays as number[]).map((d) => DAYS[d - 1]).join(",");
  return `now in ${days} ${clock(start)} to ${clock(start + Number(w.duration))} ${String(w.timezone)}`;
}

/** Conditions: "and" is one expression joining its subconditions, "or" one expression each (any may match). */
function conditions(r: RuleRecord): { expression: string }[] {
  const c = (r.conditions ?? {}) as { operator?: string; subconditions?: Json[] };
  const subs = (c.subconditions ?? []).map(subcondition);
  const when = timeFrame(r.time_frame);
  const withTime = (e: string) => (when ? `(${e}) and (${when})` : e);
  if (!subs.length) return when ? [{ expression: when }] : [];
  const exprs = c.operator === "or" ? subs : [subs.join(" and ")];
  return exprs.map((e) => ({ expression: withTime(e) }));
}

/** Actions: each `{value}` action becomes its value; suppress thresholds are dropped. */
function actions(r: RuleRecord): Json {
  const a = (r.actions ?? {}) as Record<string, { value?: unknown } | null>;
  const out: Json = {};
  for (const k of ["annotate", "event_action", "priority", "severity", "suppress", "suspend"]) {
    const v = a[k]?.value;
    if (v !== undefined && v !== null && v !== "") out[k] = v;
  }
  const extractions = (a as { extractions?: Json[] }).extractions;
  if (extractions?.length)
    out.extractions = extractions.map((e) =>
      e.template !== undefined
        ? { target: pclPath(String(e.target)), template: e.template }
        : { target: pclPath(String(e.target)), source: pclPath(String(e.source)), regex: e.regex },
    );
  const variables = (r.variables ?? []) as { name: string; type: string; parameters?: { path?: string; value?: string } }[];
  if (variables.length)
    out.variables = variables.map((v) => ({ name: v.name, path: pclPath(v.parameters?.path ?? ""), type: v.type, value: v.parameters?.value ?? "" }));
  return out;
}

/** The orchestration rules of `rules` (in position order); `newId` gives each its id. */
export function convertRules(rules: readonly RuleRecord[], newId: () => string): OrchestrationRule[] {
  return rules.map((r, i) => ({
    id: newId(),
    label: `Converted event rule ${i + 1}`,
    conditions: conditions(r),
    actions: actions(r),
    disabled: r.disabled,
  }));
}

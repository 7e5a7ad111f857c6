// The actions of a matched rule (or of a catch-all), applied to the event and to what the
// evaluation has decided so far. Within a rule: its variables first (a regex on a path: the
// capture groups appended, or the whole match), then its extractions (a template, or a regex on a
// source), then the rest, whose templates see the variables and the event as extracted. A later
// rule on the event's path overrides an earlier one's severity, priority, escalation policy,
// event action, suppress and suspend, and its note replaces theirs (Event Orchestration, "Add a
// note to the incident": only the note of the most recently evaluated rule is added); custom field
// values and recorded automation actions and webhooks add up. Rule variables live in their rule only.
import type { CompiledActions, CompiledPath } from "./compile";
import { asText, MISSING, resolvePath } from "./conditions";
import { type RoutedEvent, setEventPath } from "./event-model";
import { PclError } from "./pcl-ast";
import { cachedRegex, extract } from "./regex";
import { renderTemplate } from "./templates";
import type { ActionTrace, Problem } from "./trace";

type Json = Record<string, unknown>;

const SEVERITIES = ["critical", "error", "warning", "info"];

/** What the rules decided so far on the event's way through the orchestration. */
export interface Decision {
  event_action: "trigger" | "acknowledge" | "resolve";
  suppress: boolean;
  suspend: number | null;
  drop: boolean;
  priority: string | null;
  escalation_policy: string | null;
  annotations: string[];
  custom_fields: Map<string, string>;
  automation_actions: Json[];
  webhooks: Json[];
  variables: Record<string, string>;
}

export interface Scope {
  routed: RoutedEvent;
  cacheVars: Record<string, unknown>;
  decision: Decision;
  actions: ActionTrace[];
  problems: Problem[];
}

/** The value of a context root: the event, the raw event, cache variables, and the rule's own variables. */
export function contextRoot(scope: Pick<Scope, "routed" | "cacheVars">, variables: Record<string, string> = {}) {
  return (name: string): unknown =>
    name === "event"
      ? scope.routed.event
      : name === "raw_event"
        ? scope.routed.raw_event
        : name === "cache_var"
          ? scope.cacheVars
          : name === "variables"
            ? variables
            : MISSING;
}

export function applyActions(scope: Scope, compiled: CompiledActions, where: { set: string; rule_id: string | null }): void {
  const a = compiled.actions;
  const vars: Record<string, string> = {};
  const root = contextRoot(scope, vars);
  const d = scope.decision;
  const note = (action: string, value: unknown, warnings: string[] = []) =>
    scope.actions.push({ ...where, action, value, ...(warnings.length ? { warnings } : {}) });
  const problem = (what: string, message: string) => scope.problems.push({ set: where.set, rule_id: where.rule_id, where: what, message });
  const path = (p: CompiledPath | undefined, what: string) => {
    if (p instanceof PclError || p === undefined) problem(what, `not a path: ${p?.message ?? "missing"}`);
    return p instanceof PclError ? undefined : p;
  };
  const render = (template: string) => renderTemplate(template, root);

  ((a.variables as Json[] | undefined) ?? []).forEach((v, i) => {
    const p = path(compiled.variablePaths[i], `actions.variables[${i}].path`);
    const found = p && resolvePath(root, p);
    const value = found?.found && found.value !== null ? extract(cachedRegex(String(v.value)), asText(found.value)) : undefined;
    if (value === undefined) {
      note("variable", { name: v.name, value: null }, [
        `${String(v.path)} ${found?.found ? `does not match ${String(v.value)}` : "does not exist"}: the variable is unset`,
      ]);
      return;
    }
    vars[String(v.name)] = value;
    d.variables[String(v.name)] = value;
    note("variable", { name: v.name, value });
  });

  ((a.extractions as Json[] | undefined) ?? []).forEach((x, i) => {
    const where = `actions.extractions[${i}]`;
    const target = path(compiled.extractionPaths[i]?.target, `${where}.target`);
    let value: string | undefined;
    const warnings: string[] = [];
    if (x.template !== undefined) {
      const r = render(String(x.template));
      value = r.text;
      warnings.push(...r.warnings);
    } else {
      const source = path(compiled.extractionPaths[i]?.source, `${where}.source`);
      const found = source && resolvePath(root, source);
      if (found?.found && found.value !== null) value = extract(cachedRegex(String(x.regex)), asText(found.value));
      if (value === undefined)
        warnings.push(`${String(x.source)} ${found?.found ? `does not match ${String(x.regex)}` : "does not exist"}: ${String(x.target)} is left as it was`);
    }
    if (target && value !== undefined) {
      const refused =
        target.elements[0] === "severity" && target.elements.length === 1 && !SEVERITIES.includes(value)
          ? `"${value}" is not a severity (${SEVERITIES.join(", ")}): event.severity is left as it was`
          : setEventPath(scope.routed.event, target, value);
      if (refused) warnings.push(refused);
    }
    note("extraction", { target: x.target, value: value ?? null }, warnings);
  });

  if (a.severity !== undefined) {
    scope.routed.event.severity = a.severity;
    note("severity", a.severity);
  }
  if (a.event_action !== undefined) {
    d.event_action = a.event_action as Decision["event_action"];
    scope.routed.event.event_action = a.event_action;
    note("event_action", a.event_action);
  }
  for (const k of ["priority", "escalation_policy"] as const) {
    if (a[k] === undefined) continue;
    d[k] = String(a[k]);
    note(k, a[k]);
  }
  if (a.annotate !== undefined) {
    const r = render(String(a.annotate));
    const replaced = d.annotations.length ? [`replaces the note ${JSON.stringify(d.annotations[0])} of an earlier rule: only the last note is added`] : [];
    d.annotations = [r.text];
    note("annotate", r.text, [...r.warnings, ...replaced]);
  }
  for (const f of (a.incident_custom_field_updates as Json[] | undefined) ?? []) {
    const r = render(String(f.value ?? ""));
    d.custom_fields.set(String(f.id), r.text);
    note("incident_custom_field_update", { id: f.id, value: r.text }, r.warnings);
  }
  if (a.suppress !== undefined) {
    d.suppress = a.suppress === true;
    note("suppress", a.suppress);
  }
  if (a.suspend !== undefined) {
    d.suspend = Number(a.suspend) || null;
    note("suspend", a.suspend);
  }
  if (a.drop_event === true) {
    d.drop = true;
    note("drop_event", true);
  }
  for (const x of (a.pagerduty_automation_actions as Json[] | undefined) ?? []) {
    d.automation_actions.push(x);
    note("pagerduty_automation_action", x, ["recorded, not run"]);
  }
  for (const x of (a.automation_actions as Json[] | undefined) ?? []) {
    // Header values often carry credentials: the trace keeps their names only.
    const webhook = { ...x, headers: ((x.headers as Json[] | undefined) ?? []).map((h) => ({ key: h.key, value: "(redacted)" })) };
    d.webhooks.push(webhook);
    note("automation_action", webhook, ["recorded, not sent"]);
  }
}

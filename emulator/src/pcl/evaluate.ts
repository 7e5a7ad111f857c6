// The walk of a service orchestration, as PagerDuty's documentation and its Terraform provider
// describe it: evaluation starts in the "start" set; within a set the rules are tried in order and
// the first whose conditions match applies its actions (a rule matches when any of its conditions
// does, and always when it has none); disabled rules are skipped; `route_to` continues in the named
// set, with the event as the actions left it; a set whose rules all fail applies the catch-all and
// ends the walk; a matched rule without `route_to` ends it too. A route back into a set already
// entered ends the walk there (a loop), and the trace says so.
import { type Decision, applyActions, contextRoot, type Scope } from "./actions";
import { type Assumption, assume } from "./assumptions";
import type { CompiledRule, Program } from "./compile";
import { type ConditionContext, evaluateCondition } from "./conditions";
import type { RoutedEvent } from "./event-model";
import type { ActionTrace, ConditionTrace, Problem, RuleTrace, SetTrace } from "./trace";

/** `trigger_count` of a rule: its counts, read (and, outside a dry run, kept) by the caller. */
export interface Thresholds {
  count(ruleId: string, seconds: number): number;
  reset(ruleId: string): void;
}

export interface EvaluationInput {
  /** undefined: the orchestration is not active, so no rule runs. */
  program: Program | undefined;
  routed: RoutedEvent;
  eventAction: Decision["event_action"];
  now: number;
  cacheVars: Record<string, unknown>;
  thresholds: Thresholds;
}

export interface Evaluation {
  sets: SetTrace[];
  actions: ActionTrace[];
  problems: Problem[];
  /** The emulator's own choices that decided something on the event's way. */
  assumed: Assumption[];
  decision: Decision;
}

/** The choices a condition's reads depend on: a count per rule, an extracted field, a changed event_action. */
function assumedBy(reads: ConditionTrace["reads"], scope: Scope, input: EvaluationInput, assumed: Assumption[]): void {
  for (const r of reads) {
    if (/trigger_count/.test(r.what)) assume(assumed, "trigger-count-per-rule");
    if (r.what === "event.event_action" && scope.decision.event_action !== input.eventAction) assume(assumed, "event-action-field-follows-action");
  }
  const extracted = scope.actions.filter((a) => a.action === "extraction").map((a) => String((a.value as { target: unknown }).target));
  if (reads.some((r) => extracted.some((target) => r.what === target || r.what.startsWith(`${target}.`) || target.startsWith(`${r.what}.`))))
    assume(assumed, "later-set-sees-extractions");
}

function tryRule(c: CompiledRule, index: number, scope: Scope, input: EvaluationInput, set: string, assumed: Assumption[]): RuleTrace {
  const r = c.rule;
  const base = { index, id: r.id, label: r.label ?? null };
  if (r.disabled) return { ...base, result: "disabled", conditions: [] };
  const ctx: ConditionContext = {
    root: contextRoot(scope),
    now: input.now,
    count: (seconds) => input.thresholds.count(r.id, seconds),
    resetCount: () => input.thresholds.reset(r.id),
  };
  const conditions: ConditionTrace[] = [];
  let matched = c.conditions.length === 0;
  // Any condition may match; the first that does decides (the others are not evaluated, as `or`).
  for (const [i, cond] of c.conditions.entries()) {
    if (!cond.node) {
      const message = `does not parse: ${cond.error?.message}`;
      conditions.push({ index: i, expression: cond.expression, matched: false, warnings: [], reads: [], error: message });
      scope.problems.push({ set, rule_id: r.id, where: `conditions[${i}]`, expression: cond.expression, message });
      continue;
    }
    const res = evaluateCondition(cond.expression, cond.node, ctx);
    conditions.push({ index: i, expression: cond.expression, matched: res.matched, warnings: res.warnings, reads: res.reads });
    assumedBy(res.reads, scope, input, assumed);
    for (const w of res.warnings) scope.problems.push({ set, rule_id: r.id, where: `conditions[${i}]`, expression: cond.expression, message: w });
    if (res.matched) {
      matched = true;
      break;
    }
  }
  return { ...base, result: matched ? "matched" : "not_matched", conditions };
}

export function evaluate(input: EvaluationInput): Evaluation {
  const decision: Decision = {
    event_action: input.eventAction,
    suppress: false,
    suspend: null,
    drop: false,
    priority: null,
    escalation_policy: null,
    annotations: [],
    custom_fields: new Map(),
    automation_actions: [],
    webhooks: [],
    variables: {},
  };
  const scope: Scope = { routed: input.routed, cacheVars: input.cacheVars, decision, actions: [], problems: [] };
  const sets: SetTrace[] = [];
  const assumed: Assumption[] = [];
  const program = input.program;
  if (!program) return { sets, actions: scope.actions, problems: scope.problems, assumed, decision };
  const entered = new Set<string>();
  let next: string | null = "start";
  while (next !== null) {
    const id: string = next;
    next = null;
    const rules = program.sets.get(id);
    if (entered.has(id) || !rules) {
      const message = rules
        ? `route_to "${id}" loops back to a set the event already went through: evaluation ends`
        : `route_to names set "${id}", which the orchestration does not have`;
      scope.problems.push({ set: sets[sets.length - 1]?.set ?? null, rule_id: sets[sets.length - 1]?.matched?.id ?? null, where: "actions.route_to", message });
      if (rules) assume(assumed, "route-loop-ends");
      break;
    }
    entered.add(id);
    const step: SetTrace = { set: id, rules: [], matched: null, catch_all: false, route_to: null };
    sets.push(step);
    for (const [index, c] of rules.entries()) {
      const t = tryRule(c, index, scope, input, id, assumed);
      step.rules.push(t);
      if (t.result !== "matched") continue;
      step.matched = { id: c.rule.id, label: c.rule.label ?? null, index };
      applyActions(scope, c, { set: id, rule_id: c.rule.id });
      const to = c.rule.actions.route_to;
      if (typeof to === "string") next = step.route_to = to;
      break;
    }
    if (!step.matched) {
      step.catch_all = true;
      applyActions(scope, program.catchAll, { set: id, rule_id: null });
    }
  }
  if (input.eventAction !== "trigger" && scope.actions.length) assume(assumed, "ack-resolve-through-orchestration");
  return { sets, actions: scope.actions, problems: scope.problems, assumed, decision };
}

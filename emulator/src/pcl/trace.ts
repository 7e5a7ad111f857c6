// Why an event ended as it did: the sets it entered, each rule tried (and each condition's result),
// the rule that matched or the catch-all, the actions applied, the cache variables it saw, and the
// incident or alert that resulted. A routing test prints `outcome` and `result` as a table row and
// the rest for a failing case. Traces are kept in memory (the newest 1000, per emulator state, so a
// reset or a restart forgets them), like the statistics.
import type { Assumption } from "./assumptions";
import type { ValueRead } from "./conditions";

export interface ConditionTrace {
  index: number;
  expression: string;
  matched: boolean;
  /** What PCL evaluated as false though it did not say so: missing paths, type mismatches. */
  warnings: string[];
  /** The values it read (paths, `now`, trigger counts), so a reader sees why it held or not. */
  reads: ValueRead[];
  /** The expression does not parse (stored before the emulator checked it): it never matches. */
  error?: string;
}

export interface RuleTrace {
  index: number;
  id: string;
  label: string | null;
  result: "matched" | "not_matched" | "disabled";
  conditions: ConditionTrace[];
}

export interface SetTrace {
  set: string;
  rules: RuleTrace[];
  /** The rule that matched, or null when none did and the catch-all applied. */
  matched: { id: string; label: string | null; index: number } | null;
  catch_all: boolean;
  route_to: string | null;
}

export interface ActionTrace {
  set: string;
  /** null: the catch-all. */
  rule_id: string | null;
  action: string;
  value: unknown;
  warnings?: string[];
}

export interface CacheVariableTrace {
  name: string;
  type: string;
  disabled: boolean;
  /** Whether this event matched its conditions (null: not evaluated, disabled or external_data). */
  matched: boolean | null;
  /** Its value as the rules read it (`cache_var.<name>`), after this event. */
  value: unknown;
  warnings: string[];
}

/** A problem the trace names: the expression (or action) and what went wrong. */
export interface Problem {
  set: string | null;
  rule_id: string | null;
  where: string;
  expression?: string;
  message: string;
}

/** What the event's evaluation decided, before it met the service's alerts and incidents. */
export interface RoutingResult {
  event_action: "trigger" | "acknowledge" | "resolve";
  dedup_key: string;
  summary: string | null;
  severity: string | null;
  /** The urgency an incident this event opens gets (the service's urgency rule, with the final severity). */
  urgency: "high" | "low";
  suppress: boolean;
  /** Seconds the alert is held before it triggers; null: not held. */
  suspend: number | null;
  drop: boolean;
  priority: { id: string; name: string | null } | null;
  escalation_policy: { id: string; name: string | null } | null;
  annotations: string[];
  incident_custom_fields: { id: string; value: string }[];
  /** Recorded, never run or sent. */
  automation_actions: Record<string, unknown>[];
  webhooks: Record<string, unknown>[];
  variables: Record<string, string>;
  event: Record<string, unknown>;
}

export type OutcomeKind =
  | "incident_opened"
  | "alert_added_to_incident"
  | "deduplicated"
  | "suppressed"
  | "suspended"
  | "acknowledged"
  | "resolved"
  | "no_open_alert"
  | "dropped"
  | "ignored";

export interface Outcome {
  kind: OutcomeKind;
  /** Plain words, for a table. */
  message: string;
  incident: { id: string; number: number; status: string; urgency: string } | null;
  alert: { id: string; suppressed: boolean; status: string; severity: string } | null;
  /** When a suspended alert triggers (ISO). */
  suspended_until?: string;
}

export interface Trace {
  id: string;
  dry_run: boolean;
  received_at: string;
  service: { id: string; name: string };
  integration: { id: string; name: string; type: string } | null;
  event_action: "trigger" | "acknowledge" | "resolve";
  dedup_key: string;
  /** null: the service's orchestration is not active, so no rule ran. */
  orchestration: { version: number } | null;
  cache_variables: CacheVariableTrace[];
  sets: SetTrace[];
  actions: ActionTrace[];
  result: RoutingResult;
  outcome: Outcome;
  problems: Problem[];
  /** The emulator's own choices (PagerDuty's pages are silent) that decided this outcome. */
  assumed: Assumption[];
  /** A suspended alert, once its hold ended. */
  released?: { at: string; outcome: Outcome };
}

const KEEP = 1000;

interface Memory {
  traces: Trace[];
  /** Trigger events per rule, for `trigger_count` (epoch ms), by `<service>/<rule>`. */
  thresholds: Map<string, number[]>;
}

const memories = new WeakMap<object, Memory>();

/** What routing keeps for a state in memory only. */
export function memoryOf(state: object): Memory {
  let m = memories.get(state);
  if (!m) memories.set(state, (m = { traces: [], thresholds: new Map() }));
  return m;
}

export function remember(state: object, t: Trace): void {
  const list = memoryOf(state).traces;
  list.push(t);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
}

/**
 * Whether trace `t` answers `key`, by its dedup key or its result's (or, `byId`, its event id; no
 * key: any), and is of service `serviceId` (none: any service).
 */
export function traceMatches(t: Trace, key: string | undefined, serviceId?: string, byId = false): boolean {
  return (!serviceId || t.service.id === serviceId) && (key === undefined || t.dedup_key === key || t.result.dedup_key === key || (byId && t.id === key));
}

/** The trace of an event by its id, or the newest of events with this dedup key (optionally of one service). */
export function findTrace(state: object, key: string, serviceId?: string): Trace | undefined {
  const list = memoryOf(state).traces;
  for (let i = list.length - 1; i >= 0; i--) {
    if (traceMatches(list[i], key, serviceId, true)) return list[i];
  }
  return undefined;
}

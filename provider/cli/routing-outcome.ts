// What became of one event, in the words a routing test compares: whether it opened (or joined) an
// incident or was suppressed, held, dropped..., the service it reached, and the alert's and
// incident's fields the rules decide. The emulator's trace gives one (outcomeOfTrace); PagerDuty's
// REST API gives another (what `record` and `parity` read back); two of them are compared field by
// field (changesBetween), which is what replay's diff and parity's report print.
import type { Trace } from "./routing-emulator";

/** The outcome words every reader shares: the trace's kinds, with opened and joined as one. */
export type OutcomeKind = "incident" | "suppressed" | "held" | "dropped" | "deduplicated" | "acknowledged" | "resolved" | "no_open_alert" | "ignored";

export interface EventOutcome {
  outcome: OutcomeKind;
  /** The service's name (its id when it has none). */
  service: string | null;
  /** The alert's severity after the rules. */
  severity: string | null;
  /** The incident's urgency (one the event joined keeps its own); null without an incident. */
  urgency: "high" | "low" | null;
  /** The incident's priority and escalation policy by name (id when nameless); null: none set. */
  priority: string | null;
  escalation_policy: string | null;
  /** The notes the rules added, in order. */
  annotations: string[];
}

/** The fields compared, in the order reports show them. */
export const OUTCOME_FIELDS = [
  "outcome",
  "service",
  "severity",
  "urgency",
  "priority",
  "escalation_policy",
  "annotations",
] as const satisfies readonly (keyof EventOutcome)[];

export type OutcomeField = (typeof OUTCOME_FIELDS)[number];

/** The trace's outcome kinds in the shared words. */
const KIND_WORDS: Record<string, OutcomeKind> = {
  incident_opened: "incident",
  alert_added_to_incident: "incident",
  suspended: "held",
};

/** The outcome word of a trace's kind. */
export const outcomeWord = (kind: string): OutcomeKind => KIND_WORDS[kind] ?? (kind as OutcomeKind);

const refName = (r: { id: string; name: string | null } | null): string | null => (r ? (r.name ?? r.id) : null);

/** What the emulator's trace says became of the event. */
export function outcomeOfTrace(t: Trace): EventOutcome {
  const outcome = outcomeWord(t.outcome.kind);
  const incident = outcome === "incident";
  return {
    outcome,
    service: t.service.name ?? t.service.id,
    // The alert's own severity where there is one: a repeat of lower severity leaves it higher than the event's.
    severity: t.outcome.alert?.severity ?? t.result.severity,
    urgency: incident ? ((t.outcome.incident?.urgency as "high" | "low" | undefined) ?? t.result.urgency) : null,
    priority: incident ? refName(t.result.priority) : null,
    escalation_policy: incident ? refName(t.result.escalation_policy) : null,
    annotations: incident ? [...t.result.annotations] : [],
  };
}

/** One field that differs between two outcomes of the same event. */
export interface OutcomeChange {
  field: OutcomeField;
  before: string;
  after: string;
}

/** A field's value as reports show it: text as it is, null as "none", lists as JSON. */
export const shownValue = (v: unknown): string => (v === null || v === undefined ? "none" : typeof v === "string" ? v : JSON.stringify(v));

/** The fields in which `after` differs from `before` (empty: the same outcome). */
export function changesBetween(before: EventOutcome, after: EventOutcome): OutcomeChange[] {
  return OUTCOME_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map((field) => ({
    field,
    before: shownValue(before[field]),
    after: shownValue(after[field]),
  }));
}

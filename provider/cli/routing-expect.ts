// What a routing case expected against what its event's trace says: field by field, each
// expected field compared with what the trace holds for it, and the words a table shows for both.
import type { Expectation } from "./routing-cases";
import type { Trace } from "./routing-emulator";

export interface FieldVerdict {
  field: keyof Expectation;
  expected: string;
  got: string;
  ok: boolean;
}

/** A value as the table shows it: text as it is, null as "none", lists and objects as JSON. */
export const shown = (v: unknown): string => (v === null || v === undefined ? "none" : typeof v === "string" ? v : JSON.stringify(v));

/** Outcome words that stand for several of the trace's kinds. */
const OUTCOME_WORDS: Record<string, readonly string[]> = {
  incident: ["incident_opened", "alert_added_to_incident"],
  held: ["suspended"],
};

/** A reference matched by its name or its id; expected null: none. */
const sameRef = (expected: string | null, got: { id: string; name: string | null } | null) =>
  expected === null ? got === null : got !== null && (got.name === expected || got.id === expected);

const subset = (expected: Record<string, string>, got: Record<string, string>) => Object.entries(expected).every(([k, v]) => got[k] === v);

type Judge = (expected: never, t: Trace) => { got: unknown; ok: boolean };

/** How each field is read off the trace and compared. */
const JUDGES: { [F in keyof Expectation]-?: (expected: NonNullable<Expectation[F]> | null, t: Trace) => { got: unknown; ok: boolean } } = {
  outcome: (e, t) => ({ got: t.outcome.kind, ok: (OUTCOME_WORDS[e!] ?? [e]).includes(t.outcome.kind) }),
  service: (e, t) => ({ got: t.service.name, ok: e === t.service.name || e === t.service.id }),
  severity: (e, t) => ({ got: t.result.severity, ok: e === t.result.severity }),
  // An incident's own urgency (a joined incident keeps its own); otherwise the one an incident would get.
  urgency: (e, t) => {
    const got = t.outcome.incident?.urgency ?? t.result.urgency;
    return { got, ok: e === got };
  },
  priority: (e, t) => ({ got: t.result.priority && (t.result.priority.name ?? t.result.priority.id), ok: sameRef(e, t.result.priority) }),
  escalation_policy: (e, t) => ({
    got: t.result.escalation_policy && (t.result.escalation_policy.name ?? t.result.escalation_policy.id),
    ok: sameRef(e, t.result.escalation_policy),
  }),
  annotations: (e, t) => ({ got: t.result.annotations, ok: JSON.stringify(e) === JSON.stringify(t.result.annotations) }),
  summary: (e, t) => ({ got: t.result.summary, ok: e === t.result.summary }),
  event_action: (e, t) => ({ got: t.result.event_action, ok: e === t.result.event_action }),
  dedup_key: (e, t) => ({ got: t.result.dedup_key, ok: e === t.result.dedup_key }),
  suspend: (e, t) => ({ got: t.result.suspend, ok: e === t.result.suspend }),
  incident_custom_fields: (e, t) => {
    const got = Object.fromEntries(t.result.incident_custom_fields.map((f) => [f.id, f.value]));
    return { got, ok: subset(e!, got) };
  },
  variables: (e, t) => ({ got: t.result.variables, ok: subset(e!, t.result.variables) }),
};

/** Each expected field, in the order the case gives them, with what the trace holds. */
export function judge(expect: Expectation, trace: Trace): FieldVerdict[] {
  return (Object.keys(expect) as (keyof Expectation)[]).map((field) => {
    const expected = expect[field];
    const { got, ok } = (JUDGES[field] as Judge)(expected as never, trace);
    return { field, expected: shown(expected), got: shown(got), ok };
  });
}

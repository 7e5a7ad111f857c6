// The opt-in report of drift in fields the program leaves unset (`pagerduty:driftAllFields`). A
// refresh reads a resource and then diffs the result against its inputs in the same provider
// process, but the diff only sees the fresh outputs; so `read` keeps the outputs it was given (the
// last state) and `diff` compares the two for the fields the program leaves unset. Each record is
// used once: the refresh diff reports the drift, a later diff of the same run (`up --refresh`) not again.
import { isDeepStrictEqual } from "node:util";
import { userInputs } from "./check";
import { inputShape, outputShape, type ResourceDefinition } from "./define";

/**
 * Outputs PagerDuty maintains by itself (those that are not inputs): no program sets them, so they
 * are never drift of an unmanaged field (an incident moves `lastIncidentTimestamp`, a rename `summary`).
 */
export function serverMaintained(d: ResourceDefinition): ReadonlySet<string> {
  const inputs = inputShape(d);
  return new Set(Object.keys(outputShape(d)).filter((k) => !(k in inputs)));
}

/**
 * Top-level fields the program leaves unset (not in `news`) whose live value differs from the value
 * the last state recorded. Unlike `satisfies`, the comparison is exact: nothing is declared to
 * compare against, so any change counts.
 */
export function unmanagedChanges(
  recorded: Record<string, unknown>,
  live: Record<string, unknown>,
  news: Record<string, unknown>,
  maintained: ReadonlySet<string>,
  asDeclared: (key: string, live: unknown) => unknown = (_, v) => v,
): string[] {
  const managed = userInputs(news);
  // Compared as a program would declare them: a service turning `critical` is no change of its settings.
  const value = (k: string, v: unknown) => normalize(asDeclared(k, v));
  return Object.keys(live)
    .filter((k) => !k.startsWith("__") && !(k in managed) && !maintained.has(k) && k in recorded)
    .filter((k) => !isDeepStrictEqual(value(k, recorded[k]), value(k, live[k])))
    .sort();
}

/** Absent and null are the same "no value" in state. */
const normalize = (v: unknown) => (v === undefined ? null : v);

/** The states refresh reads replaced, kept until the refresh's diff of the same resource. */
export class DriftRecords {
  private readonly recorded = new Map<string, Record<string, unknown>>();
  private readonly reads = new Set<string>();

  /** A refresh read `kind/id`: its next diff is that refresh's own, which reports drift and plans nothing. */
  markRead(kind: string, id: string): void {
    this.reads.add(`${kind}/${id}`);
  }

  /** Whether this diff of `kind/id` is the one of the refresh that read it (once). */
  takeRead(kind: string, id: string): boolean {
    return this.reads.delete(`${kind}/${id}`);
  }

  keep(kind: string, id: string, props: Record<string, unknown>): void {
    this.recorded.set(`${kind}/${id}`, props);
  }

  /** The recorded state of `kind/id`, once. */
  take(kind: string, id: string): Record<string, unknown> | undefined {
    const found = this.recorded.get(`${kind}/${id}`);
    this.recorded.delete(`${kind}/${id}`);
    return found;
  }
}

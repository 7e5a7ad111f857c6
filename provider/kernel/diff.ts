// The "managed fields only" diff: only what the program declares is compared, so server defaults
// never show as a change and diffs are never perpetual.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { userInputs } from "./check";

/**
 * Whether the live value satisfies what the user declared. Keys the server adds inside objects (its
 * defaults) never count as drift. Arrays are compared element by element and must have equal length.
 */
export function satisfies(desired: unknown, live: unknown): boolean {
  if (desired === undefined) return true;
  if (desired === null) return live === null || live === undefined;
  if (Array.isArray(desired)) {
    return Array.isArray(live) && live.length === desired.length && desired.every((d, i) => satisfies(d, live[i]));
  }
  if (typeof desired === "object") {
    if (live === null || typeof live !== "object" || Array.isArray(live)) return false;
    return Object.entries(desired as Record<string, unknown>).every(([k, v]) => satisfies(v, (live as Record<string, unknown>)[k]));
  }
  return desired === live;
}

export interface DiffRules {
  /** Inputs whose change needs a new object. */
  replaceOn?: readonly string[];
  /** Inputs that never change the remote object (e.g. adoption ids) and are ignored by diff. */
  ignore?: readonly string[];
  /** A live value as the program would declare it, where PagerDuty computes part of it (kernel/define.ts). */
  asDeclared?: (key: string, live: unknown) => unknown;
}

/**
 * Diffs the user's inputs (news) against the last known live state (olds: outputs). Fields the user
 * did not set are not managed and never produce a diff.
 */
export function diffManaged(olds: Record<string, unknown>, news: Record<string, unknown>, rules: DiffRules = {}): dynamic.DiffResult & { changed: string[] } {
  const inputs = userInputs(news);
  const live = (k: string) => (rules.asDeclared ? rules.asDeclared(k, olds[k]) : olds[k]);
  const changed = Object.keys(inputs).filter((k) => !rules.ignore?.includes(k) && !satisfies(inputs[k], live(k)));
  const replaces = changed.filter((k) => rules.replaceOn?.includes(k));
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: false };
}

/**
 * The declared inputs whose live value does not satisfy them (an adoption writes only these: taking
 * over an object that already holds what the program declares writes nothing).
 */
export function unsatisfied<T extends Record<string, unknown>>(live: Record<string, unknown>, news: T, rules: DiffRules = {}): Partial<T> {
  const { changed } = diffManaged(live, news, rules);
  return Object.fromEntries(changed.map((k) => [k, news[k]])) as Partial<T>;
}

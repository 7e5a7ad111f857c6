// Helpers every resource module shares: key-case mapping between Pulumi (camelCase) and the API
// (snake_case), zod issues -> Pulumi check failures, and the "managed fields only" diff.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { isNotFound, PagerDutyError } from "../errors";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const toSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function mapKeys(value: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, f));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[f(k)] = mapKeys(v, f);
    return out;
  }
  return value;
}

/** Deep camelCase -> snake_case keys (undefined values dropped: they mean "not managed"). */
export const toApi = <T = Record<string, unknown>>(v: unknown) => mapKeys(v, toSnake) as T;
/** Deep snake_case -> camelCase keys. */
export const fromApi = <T = Record<string, unknown>>(v: unknown) => mapKeys(v, toCamel) as T;

/** Pulumi passes engine-internal keys alongside user inputs; they are never user data. */
export function userInputs(news: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news ?? {})) if (!k.startsWith("__") && v !== undefined) out[k] = v;
  return out;
}

/** Formats a zod path the way Pulumi users write property paths: `a.b[0].c`. */
export function propertyPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
}

/** The placeholder the engine passes (in preview) for a value computed from another resource. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether the value at `path`, or any value on the way there, is not known yet. */
function unknownAlong(root: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let v = root;
  for (const key of [undefined, ...path]) {
    if (key !== undefined) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
    if (v === UNKNOWN) return true;
  }
  return false;
}

/**
 * A zod issue as a Pulumi check failure. The engine prints a failure's property together with the
 * value of that *top-level* input, so a nested path goes into the reason instead.
 */
/**
 * A check failure naming the program's field in its text. No `property` is named: the engine would
 * print that property's whole value (objects in Go map syntax) before the reason.
 */
export function toFailure(path: ReadonlyArray<string | number>, reason: string): dynamic.CheckFailure {
  return { property: "", reason: path.length ? `${propertyPath(path)}: ${reason}` : reason };
}

/**
 * Validates user inputs; failures name the property and say what is wrong. Values not known until
 * apply are not judged: they are checked again once known.
 */
export function checkInputs<S extends z.ZodTypeAny>(schema: S, news: Record<string, unknown>): dynamic.CheckResult {
  const inputs = userInputs(news);
  const parsed = schema.safeParse(inputs);
  if (parsed.success) return { inputs: { ...news, ...(parsed.data as object) } };
  const issues = parsed.error.issues.filter((i) => !unknownAlong(inputs, i.path));
  if (!issues.length) return { inputs: news };
  return { inputs: news, failures: issues.map((i) => toFailure(i.path, i.message)) };
}

/**
 * Whether the live value satisfies what the user declared. Only what the user wrote is compared:
 * keys the server adds inside objects (its defaults) never count as drift, which is what keeps
 * diffs from being perpetual. Arrays are compared element by element and must have equal length.
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
}

/**
 * Diffs the user's inputs (news) against the last known live state (olds: outputs). Fields the user
 * did not set are not managed and never produce a diff.
 */
export function diffManaged(olds: Record<string, unknown>, news: Record<string, unknown>, rules: DiffRules = {}): dynamic.DiffResult & { changed: string[] } {
  const inputs = userInputs(news);
  const changed = Object.keys(inputs).filter((k) => !rules.ignore?.includes(k) && !satisfies(inputs[k], olds[k]));
  const replaces = changed.filter((k) => rules.replaceOn?.includes(k));
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: false };
}

/**
 * Outputs the service maintains by itself: no program sets them, so they are never reported as
 * drift of an unmanaged field (an incident moves `lastIncidentTimestamp`, a rename moves `summary`).
 */
const SERVER_MAINTAINED = new Set([
  "htmlUrl", "createdAt", "updatedAt", "summary", "lastIncidentTimestamp", "integrationKey",
  "previousValues", "previousEnabled", "convertStatus", "convertedAt", "convertedTo", "convertedToType", "rulesConverted",
]);

/**
 * Top-level fields the program leaves unset (not in `news`) whose live value differs from the value
 * the last state recorded. Unlike `satisfies`, the comparison is exact: nothing is declared to
 * compare against, so any change counts.
 */
export function unmanagedChanges(recorded: Record<string, unknown>, live: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const managed = userInputs(news);
  return Object.keys(live)
    .filter((k) => !k.startsWith("__") && !(k in managed) && !SERVER_MAINTAINED.has(k) && k in recorded)
    .filter((k) => !isDeepStrictEqual(normalize(recorded[k]), normalize(live[k])))
    .sort();
}

/** Absent and null are the same "no value" in state. */
const normalize = (v: unknown) => (v === undefined ? null : v);

/**
 * The opt-in report of drift in unmanaged fields (`pagerduty:driftAllFields`). A refresh reads a
 * resource and then diffs the result against its inputs in the same provider process, but the diff
 * only sees the fresh outputs; so `read` keeps the outputs it was given (the last state) here and
 * `diff` compares the two for the fields the program leaves unset. Each record is used once: the
 * refresh diff reports the drift, a later diff of the same run (e.g. `up --refresh`) does not again.
 */
export function withUnmanagedDrift(kind: string, provider: dynamic.ResourceProvider, enabled: () => boolean): dynamic.ResourceProvider {
  const { read, diff } = provider;
  if (!read || !diff) return provider;
  return {
    ...provider,
    async read(id, props) {
      const result = await read.call(provider, id, props);
      if (result.id && props && enabled()) recordedBeforeRead.set(`${kind}/${id}`, props);
      return result;
    },
    async diff(id, olds, news) {
      const result = await diff.call(provider, id, olds, news);
      const recorded = recordedBeforeRead.get(`${kind}/${id}`);
      recordedBeforeRead.delete(`${kind}/${id}`);
      if (!recorded || result.changes || !enabled()) return result;
      const drifted = unmanagedChanges(recorded, olds, news);
      return drifted.length ? { ...result, changes: true } : result;
    },
  };
}

const recordedBeforeRead = new Map<string, Record<string, unknown>>();

/** A read whose 404 means the object is gone: an empty id makes refresh drop it from the state. */
export async function readOrGone(read: () => Promise<dynamic.ReadResult>): Promise<dynamic.ReadResult> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return { id: "", props: {} };
    throw e;
  }
}

/** A delete where 404 means someone deleted the object already: done, not an error. */
export async function deleteOrGone(del: () => Promise<unknown>): Promise<void> {
  try {
    await del();
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/**
 * An update where 404 means the object (or the service it belongs to) was deleted outside Pulumi:
 * a bare 404 would not say what to do, so the error names the object and the way out.
 */
export async function updateOrGone<T>(what: string, update: () => Promise<T>): Promise<T> {
  try {
    return await update();
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw new PagerDutyError(
      "ERR_NOT_FOUND",
      `${what} is gone: it was deleted outside Pulumi (${(e as Error).message}). ` +
        `Run "pulumi refresh" to reconcile the state with PagerDuty; the next "pulumi up" then creates it again.`,
      { cause: e },
    );
  }
}

/** The parent service a child object's state records (its Pulumi id is the child's own id). */
export function parentService(props: Record<string, unknown> | undefined, what: string): string {
  if (typeof props?.service === "string" && props.service) return props.service;
  throw new PagerDutyError("ERR_INPUT", `${what} has no "service" in its state, so it cannot be located`);
}

export type { Json };

// Inputs as the engine hands them over, and zod issues as Pulumi check failures that name the
// program's field.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { z } from "zod";

/** Keys Pulumi and the SDK pass alongside user inputs (`__provider`, the provenance key `__origin`). */
export type Hidden = { __origin?: string } & { [key: `__${string}`]: unknown };

/** Pulumi passes engine-internal keys alongside user inputs; they are never user data. */
export function userInputs<T extends Record<string, unknown>>(news: T): Omit<T, `__${string}`> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news ?? {})) if (!k.startsWith("__") && v !== undefined) out[k] = v;
  return out as Omit<T, `__${string}`>;
}

/** Formats a zod path the way Pulumi users write property paths: `a.b[0].c`. */
export function propertyPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
}

/** The placeholder the engine passes (in preview) for a value computed from another resource. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A value in preview: UNKNOWN may stand in place of it, or of anything inside it. */
export type MaybeUnknown<T> = T extends readonly (infer E)[]
  ? MaybeUnknown<E>[] | typeof UNKNOWN
  : T extends object
    ? { [K in keyof T]: MaybeUnknown<T[K]> } | typeof UNKNOWN
    : T | typeof UNKNOWN;

/** Whether `v` is not known yet, or holds something that is not (a list of two outputs of other resources). */
export function holdsUnknown(v: unknown): boolean {
  return v === UNKNOWN || (v !== null && typeof v === "object" && Object.values(v).some(holdsUnknown));
}

/**
 * Whether an issue at `path` may come from a value not known yet: one on the way there, or one
 * inside what it judges. Two unknowns are the same placeholder, so a rule over a list compares,
 * counts or matches placeholders as if they were values (`[a.id, b.id]` would name one service twice).
 */
function judgesUnknown(root: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let v = root;
  for (const key of path) {
    if (v === UNKNOWN) return true;
    v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return holdsUnknown(v);
}

/**
 * What a rule read besides the value it judges, for a cross-field issue: `ctx.addIssue({ path,
 * message, params: reads(["sets", 0, "id"]) })`. The issue is not judged while any of them is unknown.
 */
export const reads = (...paths: ReadonlyArray<PropertyKey>[]) => ({ reads: paths });

/** Whether an issue judges, or read, a value not known yet. */
function touchesUnknown(root: unknown, issue: z.ZodIssue): boolean {
  const also = issue.code === "custom" ? ((issue.params?.reads ?? []) as ReadonlyArray<PropertyKey>[]) : [];
  return [issue.path, ...also].some((path) => judgesUnknown(root, path));
}

/**
 * A check failure naming the program's field in its text. No `property` is named: the engine would
 * print that property's whole value (objects in Go map syntax) before the reason.
 */
export function toFailure(path: ReadonlyArray<string | number>, reason: string): dynamic.CheckFailure {
  return { property: "", reason: path.length ? `${propertyPath(path)}: ${reason}` : reason };
}

/**
 * Validates user inputs; failures name the property and say what is wrong. Values not known until
 * apply are not judged, nor is anything holding one: they are checked again once known.
 */
export function checkInputs<S extends z.ZodTypeAny>(schema: S, news: Record<string, unknown>): dynamic.CheckResult {
  const inputs = userInputs(news);
  const parsed = schema.safeParse(inputs);
  if (parsed.success) return { inputs: { ...news, ...(parsed.data as object) } };
  const issues = parsed.error.issues.filter((i) => !touchesUnknown(inputs, i));
  if (!issues.length) return { inputs: news };
  return { inputs: news, failures: issues.map((i) => toFailure(i.path, i.message)) };
}

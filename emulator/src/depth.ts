// A bound on how deeply a JSON body may nest. JSON.parse reads any depth, but JSON.stringify,
// structuredClone and every recursive walk after it (audit records, replies, the data file) run on
// the call stack and fail somewhere past a few thousand levels: a 60 KB rule nested 10,000 deep was
// stored, then every reply and save containing it failed. So a body is refused before any of that.
//
// 32 levels is several times what real bodies use: the deepest the API has (a service event rule's
// `{rule: {conditions: {subconditions: [{parameters: {options}}]}}}`, an email parser's predicates
// nested three deep in `{integration: {email_parsers: [{match_predicate: {children: [...]}}]}}`)
// stay within about 12.
import { ApiError } from "./errors";

export const MAX_DEPTH = 32;

/** Segments shown of the offending path, and characters per segment (keys may be huge). */
const SHOWN_SEGMENTS = 8;
const SEGMENT_CHARS = 40;

interface Frame {
  value: unknown;
  depth: number;
  parent?: Frame;
  key?: string;
}

const pointer = (f: Frame): string[] => {
  const keys: string[] = [];
  for (let x: Frame | undefined = f; x?.key !== undefined; x = x.parent) keys.push(x.key);
  return keys.reverse();
};

/**
 * The JSON path of the first object or array nested deeper than `max` levels (the top-level value
 * is level 1), or undefined. Iterative, so the walk itself cannot overflow the stack.
 */
export function deepestPath(value: unknown, max = MAX_DEPTH): string[] | undefined {
  const stack: Frame[] = [{ value, depth: 1 }];
  while (stack.length) {
    const f = stack.pop()!;
    if (typeof f.value !== "object" || f.value === null) continue;
    if (f.depth > max) return pointer(f);
    for (const [key, child] of Object.entries(f.value)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: f.depth + 1, parent: f, key });
    }
  }
  return undefined;
}

/** A path for messages: `a.b[0].c`, at most SHOWN_SEGMENTS segments of SEGMENT_CHARS, then "…". */
export function pathText(path: string[]): string {
  const text = path
    .slice(0, SHOWN_SEGMENTS)
    .map((k) => (k.length > SEGMENT_CHARS ? `${k.slice(0, SEGMENT_CHARS)}…` : k))
    .reduce((s, k) => (/^\d+$/.test(k) ? `${s}[${k}]` : s ? `${s}.${k}` : k), "");
  return path.length > SHOWN_SEGMENTS ? `${text}…` : text;
}

/** A 400 naming where a body nests more than MAX_DEPTH levels, or undefined when it does not. */
export function tooDeep(value: unknown): ApiError | undefined {
  const path = deepestPath(value);
  if (!path) return undefined;
  // Named like the schema messages: without the envelope key (`rule`), unless an index follows it.
  const inner = path.length > 1 && !/^\d+$/.test(path[1]) ? path.slice(1) : path;
  return new ApiError("INVALID_INPUT", [`"${pathText(inner)}" is nested too deeply: objects and arrays may nest at most ${MAX_DEPTH} levels`]);
}

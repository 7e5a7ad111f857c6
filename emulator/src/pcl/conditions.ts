// Evaluating a parsed PCL condition against an event, as PCL's overview describes it: a path that
// does not exist is nil; `matches` compares case-insensitively unless `exactly`, converting numbers,
// booleans, objects and lists to text, and is false when either side is nil; a sub-expression
// that makes no sense (`nil > 2`, `2 > 'two'`) is a "non-boolean evaluation", taken as false with a
// warning, never an error; `and` and `or` short-circuit. The warnings (and the paths found
// missing) are what a trace shows for the expression, with the values it read: a reader sees
// `event.custom_details.env = "staging"` beside a false `== 'stage'` without opening the event.
import type { PathNode, PclNode } from "./pcl-ast";
import { inSchedule } from "./time";

/** A root the context does not have (as opposed to one whose value is null). */
export const MISSING = Symbol("missing");

/** A datetime value (`now`, a datetime literal). */
export class Instant {
  constructor(readonly ms: number) {}
}

export interface ConditionContext {
  /** The value at a path's root (`event`, `raw_event`, `cache_var`, `variables`), or MISSING. */
  root(name: string): unknown;
  /** The evaluation's one "current" time (epoch ms), the same for every `now` in it. */
  now: number;
  /** `trigger_count over <seconds>`: this rule's trigger events in the window, the current one included. */
  count(seconds: number, resetting: boolean): number;
  /** A `resetting_trigger_count` comparison was true: its counter goes back to 0. */
  resetCount(): void;
}

/** A value a condition read: a path (found or not), `now`, a trigger count. */
export interface ValueRead {
  what: string;
  found: boolean;
  value: unknown;
}

export interface ConditionResult {
  matched: boolean;
  /** Why parts of it were false though they did not say so: missing paths, type mismatches. */
  warnings: string[];
  /** What it read, once each, in the order read (short-circuited parts read nothing). */
  reads: ValueRead[];
}

/** The value at `path`, and whether the path exists at all (`exists` is true for a null value). */
export function resolvePath(root: (name: string) => unknown, path: PathNode): { found: boolean; value: unknown } {
  let v = root(path.root);
  if (v === MISSING) return { found: false, value: null };
  for (const el of path.elements) {
    if (typeof el === "number") {
      if (!Array.isArray(v) || el >= v.length) return { found: false, value: null };
      v = v[el];
    } else {
      if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, el)) return { found: false, value: null };
      v = (v as Record<string, unknown>)[el];
    }
  }
  return { found: true, value: v ?? null };
}

/** A value as the `matches` operators and templates read it. */
export function asText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v instanceof Instant) return new Date(v.ms).toISOString();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

const typeName = (v: unknown): string =>
  v === null ? "nil" : v instanceof Instant ? "datetime" : Array.isArray(v) ? "list" : typeof v === "object" ? "object" : typeof v;

/** PCL truncates the left side of a match to 64K before matching. */
const MATCH_DATA = 65_536;

/** `now` as the wall clock of a schedule's zone reads it: `Sat 03:00:00 Europe/London`. */
function wallClock(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(ms);
  return `${parts.replace(",", "")} ${zone}`;
}

class Evaluator {
  readonly warnings: string[] = [];
  readonly reads: ValueRead[] = [];

  constructor(
    private readonly expression: string,
    private readonly ctx: ConditionContext,
  ) {}

  private read(what: string, found: boolean, value: unknown): void {
    if (!this.reads.some((r) => r.what === what)) this.reads.push({ what, found, value: value instanceof Instant ? new Date(value.ms).toISOString() : value });
  }

  private text(node: PclNode): string {
    return this.expression.slice(node.start, node.end);
  }

  private value(node: PclNode): unknown {
    switch (node.kind) {
      case "path": {
        const r = resolvePath((n) => this.ctx.root(n), node);
        this.read(node.text, r.found, r.value);
        if (!r.found) this.warnings.push(`${node.text} does not exist (nil)`);
        return r.value;
      }
      case "literal":
        return node.value;
      case "datetime":
        return new Instant(node.at);
      case "now":
        this.read("now", true, new Instant(this.ctx.now));
        return new Instant(this.ctx.now);
      case "count": {
        const n = this.ctx.count(node.seconds, node.resetting);
        this.read(this.text(node).trim(), true, n);
        return n;
      }
      default:
        return this.truth(node);
    }
  }

  truth(node: PclNode): boolean {
    switch (node.kind) {
      case "and":
        return this.truth(node.left) && this.truth(node.right);
      case "or":
        return this.truth(node.left) || this.truth(node.right);
      case "not":
        return !this.truth(node.operand);
      case "exists": {
        const r = resolvePath((n) => this.ctx.root(n), node.path);
        this.read(node.path.text, r.found, r.value);
        return r.found;
      }
      case "schedule":
        this.read("now", true, wallClock(this.ctx.now, node.schedule.zone));
        return inSchedule(node.schedule, this.ctx.now);
      case "range":
        this.read("now", true, new Instant(this.ctx.now));
        return this.ctx.now >= node.from && this.ctx.now <= node.to;
      case "match":
        return this.match(node);
      case "compare": {
        const result = this.compare(node.op, this.value(node.left), this.value(node.right), node);
        if (result && node.left.kind === "count" && node.left.resetting) this.ctx.resetCount();
        return result;
      }
      default: {
        const v = this.value(node);
        if (typeof v === "boolean") return v;
        this.warnings.push(`${this.text(node)} is ${typeName(v)}, not true or false (taken as false)`);
        return false;
      }
    }
  }

  private match(node: PclNode & { kind: "match" }): boolean {
    const l = this.value(node.left);
    const r = this.value(node.right);
    if (l === null || r === null) return false;
    const left = asText(l).slice(0, MATCH_DATA);
    if (node.regex) return node.regex.matcher(left).find();
    const [a, b] = node.exactly ? [left, asText(r)] : [left.toLowerCase(), asText(r).toLowerCase()];
    return node.mode === "part" ? a.includes(b) : a === b;
  }

  private compare(op: string, l: unknown, r: unknown, node: PclNode): boolean {
    if (op === "==") return equal(l, r);
    const pair = typeof l === "number" && typeof r === "number" ? [l, r] : l instanceof Instant && r instanceof Instant ? [l.ms, r.ms] : undefined;
    if (!pair) {
      this.warnings.push(
        `Type mismatch in ${this.text(node)}: '${op}' compares two numbers or two datetimes, got ${typeName(l)} ${op} ${typeName(r)} (taken as false)`,
      );
      return false;
    }
    const [a, b] = pair;
    return op === ">" ? a > b : op === ">=" ? a >= b : op === "<" ? a < b : a <= b;
  }
}

/** `==`: no conversion, strings case-sensitive, integers and floats comparable; other types never equal. */
function equal(l: unknown, r: unknown): boolean {
  if (l instanceof Instant && r instanceof Instant) return l.ms === r.ms;
  if (typeof l !== typeof r) return false;
  if (l !== null && typeof l === "object") return JSON.stringify(l) === JSON.stringify(r);
  return l === r;
}

/** Whether the condition holds for the context, and the warnings of its evaluation. */
export function evaluateCondition(expression: string, node: PclNode, ctx: ConditionContext): ConditionResult {
  const e = new Evaluator(expression, ctx);
  return { matched: e.truth(node), warnings: e.warnings, reads: e.reads };
}

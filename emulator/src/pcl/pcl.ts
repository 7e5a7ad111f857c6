// The PCL parser: a condition's text to its syntax tree (pcl-ast.ts), or a PclError saying what is
// wrong and at which character. The grammar and its limits are PagerDuty's "PCL Overview":
// precedence parentheses > built-in operations > not > and > or; paths with dots and brackets;
// strings in single quotes (\' and \\ escape; other backslashes are kept); integers and floats; true, false, now;
// `matches [part|regex] [exactly]`, `==`, `>`, `>=`, `<`, `<=`, `exists`, `now in <schedule>`,
// `trigger_count over <duration>`; `matches regex` takes a literal RE2 regex, checked here (PCL
// refuses an invalid one "at parse time"). A weekly schedule is `Mon,Tue 09:00:00 to 17:00:00
// <zone>`; a date range `now in 2026-01-01 00:00:00 to 2026-01-02 00:00:00 <zone>`.
import { isTimeZone } from "../time-zones";
import { type MatchMode, type PathNode, PclError, type PclNode } from "./pcl-ast";
import { compileRegex } from "./regex";
import { DAY_NAMES, instantOf, localDate, timeOfDay } from "./time";

/** PCL's limits ("exceeding these limits will result in an error response"). */
export const PCL_LIMITS = { bytes: 2048, nesting: 32, factors: 64, stringBytes: 1024, pathElements: 32 } as const;

/** Words a dotted path may not use (PCL's "Reserved Words"): `event.custom_details['namespace']` instead. */
const RESERVED = new Set(
  "at do as break const continue def else end eq for function gte gt if import is let lte lt loop namespace package require return var void when while".split(
    " ",
  ),
);
const KEYWORDS = new Set(["and", "or", "not", "matches", "exists", "in", "now", "true", "false", "trigger_count", "resetting_trigger_count"]);
const UNITS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const VALUE = "a value (a path such as event.summary, a string in single quotes, a number, true, false or now)";
const COMPARISONS = [">=", "<=", "==", ">", "<"] as const;

class Parser {
  pos = 0;
  private depth = 0;
  private factors = 1;

  constructor(readonly src: string) {}

  fail(reason: string, at = this.pos): never {
    throw new PclError(reason, at);
  }

  private get rest(): string {
    return this.src.slice(this.pos);
  }

  ws(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  /** What the cursor is at, for messages. */
  found(): string {
    this.ws();
    const word = /^\S+/.exec(this.rest)?.[0];
    return word === undefined ? "the end of the condition" : `'${word.length > 24 ? `${word.slice(0, 24)}…` : word}'`;
  }

  private peekIdent(): string | undefined {
    this.ws();
    IDENT.lastIndex = this.pos;
    return IDENT.exec(this.src)?.[0];
  }

  private keyword(word: string): boolean {
    if (this.peekIdent() !== word) return false;
    this.pos += word.length;
    return true;
  }

  private expectKeyword(word: string, where: string): void {
    if (!this.keyword(word)) this.fail(`expected '${word}' ${where}, found ${this.found()}`);
  }

  private symbol(s: string): boolean {
    this.ws();
    if (!this.src.startsWith(s, this.pos)) return false;
    this.pos += s.length;
    return true;
  }

  parse(): PclNode {
    const node = this.or();
    this.ws();
    if (this.pos < this.src.length) this.fail(`unexpected ${this.found()} after a complete condition (conditions join with and, or)`);
    return node;
  }

  private joined(kind: "or" | "and", next: () => PclNode): PclNode {
    let left = next();
    while (this.keyword(kind)) {
      if (++this.factors > PCL_LIMITS.factors) this.fail(`more than ${PCL_LIMITS.factors} factors are joined with and/or`);
      const right = next();
      left = { kind, left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private or(): PclNode {
    return this.joined("or", () => this.and());
  }

  private and(): PclNode {
    return this.joined("and", () => this.not());
  }

  private not(): PclNode {
    this.ws();
    const start = this.pos;
    if (!this.keyword("not")) return this.comparison();
    const operand = this.not();
    return { kind: "not", operand, start, end: operand.end };
  }

  private comparison(): PclNode {
    this.ws();
    const start = this.pos;
    if (this.keyword("now")) return this.keyword("in") ? this.within(start) : this.operation({ kind: "now", start, end: this.pos });
    return this.operation(this.operand());
  }

  /** What follows a value: an operation on it, or nothing (a bare value). */
  private operation(left: PclNode): PclNode {
    if (this.keyword("exists")) {
      if (left.kind !== "path") this.fail("'exists' follows a path, such as event.custom_details.host", left.start);
      return { kind: "exists", path: left, start: left.start, end: this.pos };
    }
    if (this.keyword("matches")) {
      const mode: MatchMode = this.keyword("part") ? "part" : this.keyword("regex") ? "regex" : "whole";
      const exactly = this.keyword("exactly");
      const right = this.operand();
      const node = { kind: "match" as const, mode, exactly, left, right, start: left.start, end: right.end };
      if (mode !== "regex") return node;
      if (right.kind !== "literal" || typeof right.value !== "string")
        this.fail("'matches regex' takes a regular expression in single quotes (a literal, not a path)", right.start);
      try {
        return { ...node, regex: compileRegex(right.value, { exactly }) };
      } catch (e) {
        return this.fail(`the regular expression is not valid RE2: ${(e as Error).message}`, right.start);
      }
    }
    for (const op of COMPARISONS) {
      if (!this.symbol(op)) continue;
      const right = this.operand();
      return { kind: "compare", op, left, right, start: left.start, end: right.end };
    }
    if (this.peekIdent() === "in") this.fail("'in' takes now on its left, as in: now in Mon,Tue 09:00:00 to 17:00:00 UTC");
    return left;
  }

  private operand(): PclNode {
    this.ws();
    const start = this.pos;
    const c = this.src[this.pos];
    if (c === undefined) this.fail(`expected ${VALUE}, found the end of the condition`);
    if (c === "(") {
      this.pos++;
      if (++this.depth > PCL_LIMITS.nesting) this.fail(`parentheses nest deeper than ${PCL_LIMITS.nesting} levels`, start);
      const inner = this.or();
      if (!this.symbol(")")) this.fail(`expected ')' to close the '(' at character ${start + 1}, found ${this.found()}`);
      this.depth--;
      return inner;
    }
    if (c === "'") return this.string();
    if (/[-\d]/.test(c)) return this.numberOrDatetime();
    const word = this.peekIdent();
    if (word === "true" || word === "false") {
      this.pos += word.length;
      return { kind: "literal", value: word === "true", start, end: this.pos };
    }
    if (word === "now") {
      this.pos += 3;
      return { kind: "now", start, end: this.pos };
    }
    if (word === "trigger_count" || word === "resetting_trigger_count") {
      this.pos += word.length;
      this.expectKeyword("over", `after ${word}`);
      return { kind: "count", resetting: word !== "trigger_count", seconds: this.duration(), start, end: this.pos };
    }
    if (word === undefined || KEYWORDS.has(word)) this.fail(`expected ${VALUE}, found ${this.found()}`);
    return this.path();
  }

  string(): PclNode & { kind: "literal" } {
    const start = this.pos++;
    let out = "";
    for (;;) {
      const ch = this.src[this.pos++];
      if (ch === undefined) this.fail("this string has no closing quote", start);
      if (ch === "'") break;
      // \' and \\ are PCL's only escapes; any other backslash stays as written (a regex's \d).
      const next = this.src[this.pos];
      if (ch === "\\" && (next === "'" || next === "\\")) {
        out += next;
        this.pos++;
      } else out += ch;
    }
    if (Buffer.byteLength(out) > PCL_LIMITS.stringBytes) this.fail(`a string is longer than ${PCL_LIMITS.stringBytes} bytes`, start);
    return { kind: "literal", value: out, start, end: this.pos };
  }

  private numberOrDatetime(): PclNode {
    const start = this.pos;
    if (/^\d{4}-\d{2}-\d{2}/.test(this.rest)) {
      const local = this.localDatetime();
      const zone = this.zone();
      return { kind: "datetime", at: instantOf(local, zone), text: this.src.slice(start, this.pos), start, end: this.pos };
    }
    const m = /^-?\d+(\.\d+(e[-+]?\d+)?)?/.exec(this.rest);
    if (!m || /^[A-Za-z_.]/.test(this.src.slice(start + m[0].length))) this.fail(`expected ${VALUE}, found ${this.found()}`);
    this.pos += m[0].length;
    if (m[1] === undefined) {
      const n = BigInt(m[0]);
      if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) this.fail("an integer outside the 64-bit range", start);
    }
    return { kind: "literal", value: Number(m[0]), start, end: this.pos };
  }

  /** `YYYY-MM-DD HH:MM:SS` as epoch ms read as UTC (the zone comes after). */
  private localDatetime(): number {
    this.ws();
    const start = this.pos;
    const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/.exec(this.rest);
    if (!m) return this.fail(`expected a date and time (YYYY-MM-DD HH:MM:SS), found ${this.found()}`);
    const seconds = timeOfDay(m[2]);
    const local = seconds === undefined ? undefined : localDate(m[1], seconds);
    if (local === undefined) this.fail(`'${m[0]}' is not a date and time`, start);
    this.pos += m[0].length;
    return local;
  }

  private zone(): string {
    this.ws();
    const start = this.pos;
    const m = /^[A-Za-z][A-Za-z0-9_+\-/]*/.exec(this.rest);
    if (!m) return this.fail(`expected a time zone (a tz database name such as America/New_York or UTC), found ${this.found()}`);
    if (!isTimeZone(m[0])) this.fail(`'${m[0]}' is not a time zone of the tz database`, start);
    this.pos += m[0].length;
    return m[0];
  }

  /** After `now in`: a weekly schedule, or a range between two datetimes. */
  private within(start: number): PclNode {
    this.ws();
    if (/^\d{4}-/.test(this.rest)) {
      const from = this.localDatetime();
      this.expectKeyword("to", "between the two dates of a range");
      const to = this.localDatetime();
      const zone = this.zone();
      return { kind: "range", from: instantOf(from, zone), to: instantOf(to, zone), start, end: this.pos };
    }
    const days = this.days();
    const from = this.time("a start time");
    this.expectKeyword("to", "between the start and end times of a schedule");
    const to = this.time("an end time");
    return { kind: "schedule", schedule: { days, start: from, end: to, zone: this.zone() }, start, end: this.pos };
  }

  private days(): number[] {
    this.ws();
    const start = this.pos;
    const m = /^[A-Za-z]+(,[A-Za-z]+)*/.exec(this.rest);
    if (!m) return this.fail(`expected weekdays (Mon,Tue,… joined by commas, no spaces) or a date after 'now in', found ${this.found()}`);
    const names = m[0].split(",");
    const bad = names.find((n) => !DAY_NAMES.includes(n));
    if (bad !== undefined) this.fail(`'${bad}' is not a weekday (Mon, Tue, Wed, Thu, Fri, Sat or Sun)`, start + m[0].indexOf(bad));
    this.pos += m[0].length;
    return [...new Set(names.map((n) => DAY_NAMES.indexOf(n)))];
  }

  private time(what: string): number {
    this.ws();
    const text = /^\d{2}:\d{2}:\d{2}/.exec(this.rest)?.[0];
    const seconds = text === undefined ? undefined : timeOfDay(text);
    if (seconds === undefined) return this.fail(`expected ${what} as HH:MM:SS (24-hour clock), found ${this.found()}`);
    this.pos += 8;
    return seconds;
  }

  private duration(): number {
    const seen = new Set<string>();
    let total = 0;
    for (;;) {
      this.ws();
      const m = /^(\d+)\s+(second|minute|hour|day)s?(?![A-Za-z0-9_])/.exec(this.rest);
      if (!m) break;
      if (seen.has(m[2])) this.fail(`a duration names ${m[2]}s twice`);
      seen.add(m[2]);
      total += Number(m[1]) * UNITS[m[2]];
      this.pos += m[0].length;
    }
    if (!seen.size) this.fail(`expected a duration such as '10 minutes' or '1 hour 30 minutes', found ${this.found()}`);
    return total;
  }

  path(): PathNode {
    this.ws();
    const start = this.pos;
    const root = this.peekIdent();
    if (root === undefined) return this.fail(`expected a path such as event.summary, found ${this.found()}`);
    if (RESERVED.has(root)) this.fail(`'${root}' is a reserved word of PCL`);
    this.pos += root.length;
    const elements: (string | number)[] = [];
    for (;;) {
      const c = this.src[this.pos];
      if (c === ".") {
        this.pos++;
        IDENT.lastIndex = this.pos;
        const name = IDENT.exec(this.src)?.[0];
        if (name === undefined) this.fail("expected a field name after '.' (a name that is not an identifier goes in brackets: ['my field'])");
        if (RESERVED.has(name)) this.fail(`'${name}' is a reserved word of PCL: write ['${name}']`);
        elements.push(name);
        this.pos += name.length;
      } else if (c === "[") {
        this.pos++;
        const index = /^\d+/.exec(this.rest)?.[0];
        if (this.src[this.pos] === "'") elements.push(this.string().value as string);
        else if (index !== undefined) {
          elements.push(Number(index));
          this.pos += index.length;
        } else this.fail("expected an array index (an integer) or a field name in single quotes inside [ ]");
        if (this.src[this.pos] !== "]") this.fail(`expected ']', found ${this.found()}`);
        this.pos++;
      } else break;
      if (elements.length + 1 > PCL_LIMITS.pathElements) this.fail(`a path has more than ${PCL_LIMITS.pathElements} elements`, start);
    }
    return { kind: "path", root, elements, text: this.src.slice(start, this.pos), start, end: this.pos };
  }
}

/** The syntax tree of a condition; throws PclError. */
export function parsePcl(expression: string): PclNode {
  if (Buffer.byteLength(expression) > PCL_LIMITS.bytes) throw new PclError(`the condition is longer than ${PCL_LIMITS.bytes} bytes`, 0);
  if (expression.trim() === "") throw new PclError("the condition is empty", 0);
  return new Parser(expression).parse();
}

/** A path alone (a template's `{{...}}`, a variable's `path`, an extraction's `source` or `target`); throws PclError. */
export function parsePath(text: string): PathNode {
  const p = new Parser(text);
  const path = p.path();
  p.ws();
  if (p.pos < text.length) p.fail(`unexpected ${p.found()} after the path`);
  return path;
}

/** Why `expression` is not a PCL condition PagerDuty accepts, or undefined. */
export function pclProblem(expression: string): PclError | undefined {
  try {
    parsePcl(expression);
    return undefined;
  } catch (e) {
    if (e instanceof PclError) return e;
    throw e;
  }
}

// The syntax tree of a PCL condition (PagerDuty Condition Language, the conditions of event
// orchestration rules and cache variables). Every node keeps where it sits in the expression, so
// a parse error and an evaluation warning can point at the character.
import type { RE2JS } from "re2js";

/** Where a node sits: character offsets into the expression, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** A path into the evaluation context: `event.custom_details['a b'][0]`. */
export interface PathNode extends Span {
  kind: "path";
  root: string;
  /** Field names and array indexes after the root. */
  elements: (string | number)[];
  /** As written, for messages and traces. */
  text: string;
}

export interface WeeklySchedule {
  /** Start days, 0 = Monday … 6 = Sunday. */
  days: number[];
  /** Seconds after midnight, wall clock in `zone`. */
  start: number;
  end: number;
  zone: string;
}

export type MatchMode = "whole" | "part" | "regex";

export type PclNode =
  | PathNode
  | (Span & { kind: "literal"; value: string | number | boolean })
  | (Span & { kind: "datetime"; at: number; text: string })
  | (Span & { kind: "now" })
  | (Span & { kind: "count"; resetting: boolean; seconds: number })
  | (Span & { kind: "and" | "or"; left: PclNode; right: PclNode })
  | (Span & { kind: "not"; operand: PclNode })
  | (Span & { kind: "compare"; op: "==" | ">" | ">=" | "<" | "<="; left: PclNode; right: PclNode })
  | (Span & { kind: "match"; mode: MatchMode; exactly: boolean; left: PclNode; right: PclNode; regex?: RE2JS })
  | (Span & { kind: "exists"; path: PathNode })
  | (Span & { kind: "schedule"; schedule: WeeklySchedule })
  | (Span & { kind: "range"; from: number; to: number });

/** A condition PCL cannot parse: what is wrong and where (0-based character offset). */
export class PclError extends Error {
  override readonly name = "PclError";
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} (at character ${position + 1})`);
  }
}

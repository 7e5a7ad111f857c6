// What an orchestration or cache variable write is checked for beyond its shape, and where
// PagerDuty's evidence puts each check:
// - refused (400, naming the field): a condition PCL cannot parse, including a `matches regex`
//   RE2 refuses (PCL's overview: "an error will be returned at parse time") and conditions past
//   PCL's limits; a regex of a variable, extraction or cache variable RE2 refuses (the Terraform
//   provider's docs: "must use valid RE2 regular expression syntax"); a path that does not parse;
//   `trigger_count` in a cache variable's conditions (the description: "unsupported for Cache
//   Variables");
// - accepted with a warning in the PUT reply (warnings.ts): a cache variable the orchestration does
//   not have, an escalation policy the account does not have;
// - accepted silently: a path that parses but names nothing the event has (`event.sumary`). PCL
//   reads a missing path as nil, so such a rule never matches; the trace names the path.
import type { Json, Validator } from "../validate";
import { compileCondition } from "./compile";
import { PclError, type PclNode } from "./pcl-ast";
import { parsePath } from "./pcl";
import { regexProblem } from "./regex";

/** Every path and operation node under `node`. */
export function nodesOf(node: PclNode): PclNode[] {
  const out: PclNode[] = [node];
  for (const k of ["left", "right", "operand", "path"] as const) {
    const child = (node as unknown as Record<string, PclNode | undefined>)[k];
    if (child) out.push(...nodesOf(child));
  }
  return out;
}

/** A condition's `expression`, refused when it is not PCL PagerDuty accepts. */
export function checkedExpression(v: Validator, c: Json, opts: { thresholds: boolean } = { thresholds: true }): string | undefined {
  const e = v.string(c, "expression", { required: true, nonEmpty: true });
  if (typeof e !== "string" || e.trim() === "") return undefined;
  const { node, error } = compileCondition(e);
  if (error) v.fail(`${v.path("expression")} is not a valid PCL condition: ${error.message}`);
  else if (!opts.thresholds && nodesOf(node!).some((n) => n.kind === "count"))
    v.fail(`${v.path("expression")} uses trigger_count, which cache variable conditions do not support`);
  return e;
}

/** A regular expression field, refused when RE2 refuses it. */
export function checkedRegex(v: Validator, o: Json, key: string): string | undefined {
  const r = v.string(o, key, { required: true, nonEmpty: true });
  const problem = typeof r === "string" ? regexProblem(r) : undefined;
  if (problem) v.fail(`${v.path(key)} is not a valid RE2 regular expression: ${problem}`);
  return r ?? undefined;
}

/** A PCL path field (`event.summary`, `variables.host`), refused when it does not parse. */
export function checkedPath(v: Validator, o: Json, key: string): string | undefined {
  const p = v.string(o, key, { required: true, nonEmpty: true });
  if (typeof p !== "string" || p.trim() === "") return undefined;
  try {
    parsePath(p);
  } catch (e) {
    if (!(e instanceof PclError)) throw e;
    v.fail(`${v.path(key)} is not a PCL path: ${e.message}`);
  }
  return p;
}

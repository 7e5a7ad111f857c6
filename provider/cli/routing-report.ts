// What a routing test prints: a table of every case (what it expected, what came, pass or fail),
// then for each failing case the fields that differ and its event's trace: each set the event
// entered, each rule tried with its conditions, the rule that matched or the catch-all, the actions
// applied, the cache variables it saw, every problem (an expression that did not parse, a
// warning) and the emulator's own choices that decided the outcome. Each condition shows the values
// it read; rules and conditions are numbered from 1 everywhere in it, as the table numbers cases, so
// a problem's `condition 2` is the second line under its rule. A reader sees from it which rule
// decided and why the others did not.
import type { Trace } from "./routing-emulator";
import type { FieldVerdict } from "./routing-expect";

/** One case's result: its verdicts and its event's trace. */
export interface CaseResult {
  name: string;
  verdicts: FieldVerdict[];
  trace: Trace;
}

export const passed = (r: CaseResult) => r.verdicts.every((v) => v.ok);

/** A table cell's longest line. */
const CELL = 50;

/**
 * A cell of at most CELL characters. A longer value is cut and says by how much (`…(+37)`), so a
 * reader never takes a cut value for the whole; a differing field's cut cell also says that its
 * whole value follows, in the case's failure below the table.
 */
export function cut(text: string, failing = false): string {
  if (text.length <= CELL) return text;
  const marker = (n: number) => `…(+${n}${failing ? ", whole below" : ""})`;
  let keep = CELL - marker(text.length).length;
  // The count's digits shrink as the kept part grows: settle on the longest part that still fits.
  while (keep + 1 + marker(text.length - keep - 1).length <= CELL) keep++;
  return `${text.slice(0, keep)}${marker(text.length - keep)}`;
}

/** A case's rows: one line per expected field, what came beside it (a differing value marked "!"). */
function caseRows(r: CaseResult, index: number): string[][] {
  return r.verdicts.map((v, line) => [
    line ? "" : String(index + 1),
    line ? "" : r.name,
    cut(`${v.field}=${v.expected}`, !v.ok),
    cut(`${v.ok ? "" : "! "}${v.got}`, !v.ok),
    line ? "" : passed(r) ? "pass" : "FAIL",
  ]);
}

/** The table: a case per group of lines (one per expected field), columns as wide as their widest cell. */
export function table(results: readonly CaseResult[]): string {
  const rows = [["#", "case", "expected", "got", "result"], ...results.flatMap(caseRows)];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const quoted = (label: string | null, id: string) => (label ? `"${label}"` : id);

/** A rule as a reader knows it: its label, else its id; null is the catch-all. */
function ruleName(t: Trace, set: string | null, ruleId: string | null): string {
  if (ruleId === null) return "catch-all";
  const rule = t.sets.find((s) => s.set === set)?.rules.find((r) => r.id === ruleId);
  return quoted(rule?.label ?? null, ruleId);
}

/** A rule's actions, as the trace lists them, in one line each. */
function actionLines(t: Trace): string[] {
  return t.actions.map((a) => {
    const warn = a.warnings?.length ? ` (${a.warnings.join("; ")})` : "";
    return `${a.action} ${JSON.stringify(a.value)}  [set ${a.set}, ${ruleName(t, a.set, a.rule_id)}]${warn}`;
  });
}

/** A rule as the trace's lines number it (from 1, as the table counts cases) with its label. */
function ruleRef(t: Trace, set: string | null, ruleId: string): string {
  const rule = t.sets.find((s) => s.set === set)?.rules.find((r) => r.id === ruleId);
  return rule ? `rule ${rule.index + 1} ${quoted(rule.label, ruleId)}` : `rule ${ruleId}`;
}

/** The emulator's `conditions[i]` as the trace's lines number conditions: `condition i+1`. */
const conditionRef = (where: string) => where.replace(/^conditions\[(\d+)\]/, (_, i: string) => `condition ${Number(i) + 1}`);

/** A problem the trace names: where (set, rule, field), the expression, what went wrong. */
function problemLine(t: Trace, p: Trace["problems"][number]): string {
  const where = [p.set && `set ${p.set}`, p.rule_id && ruleRef(t, p.set, p.rule_id), conditionRef(p.where)].filter(Boolean).join(", ");
  return `    ${where}: ${p.expression ? `${p.expression}: ` : ""}${p.message}`;
}

/** A value read, shown whole up to this many characters. */
const READ = 80;

/** What a condition read, as `path = value` (`now` as its zone's wall clock); missing paths are its warnings. */
function readText(r: NonNullable<Trace["sets"][number]["rules"][number]["conditions"][number]["reads"]>[number]): string {
  const shown = r.what === "now" && typeof r.value === "string" ? r.value : JSON.stringify(r.value);
  return `${r.what} = ${shown.length > READ ? `${shown.slice(0, READ - 3)}...` : shown}`;
}

/** The trace of an event as indented lines: sets, rules and conditions (with what each read), actions, cache variables, problems, assumptions, outcome. */
export function traceText(t: Trace): string {
  const out = [`trace ${t.id}: service ${quoted(t.service.name, t.service.id)} (${t.service.id})`];
  if (!t.orchestration) out.push("  the service's orchestration is not active: no rule ran");
  else out.push(`  orchestration version ${t.orchestration.version}`);
  for (const s of t.sets) {
    out.push(`  set ${s.set}:`);
    for (const r of s.rules) {
      out.push(`    rule ${r.index + 1} ${quoted(r.label, r.id)}: ${r.result.replace("_", " ")}`);
      for (const c of r.conditions) {
        const notes = [...(c.reads ?? []).filter((v) => v.found).map(readText), ...(c.error ? [`does not parse: ${c.error}`] : []), ...c.warnings];
        out.push(`      condition ${c.index + 1}: ${c.matched ? "true " : "false"}  ${c.expression}${notes.length ? `  (${notes.join("; ")})` : ""}`);
      }
      if (r.result === "matched" && !r.conditions.length) out.push("      (no conditions: matches every event)");
    }
    if (s.catch_all) out.push("    no rule matched: catch-all");
    if (s.route_to) out.push(`    route to ${s.route_to}`);
  }
  const actions = actionLines(t);
  out.push(`  actions:${actions.length ? "" : " none"}`, ...actions.map((a) => `    ${a}`));
  if (t.cache_variables.length)
    out.push(
      "  cache variables:",
      ...t.cache_variables.map(
        (c) => `    ${c.name} (${c.type}) = ${JSON.stringify(c.value)}${c.matched === false ? " (this event did not match its conditions)" : ""}`,
      ),
    );
  if (t.problems.length) out.push("  problems:", ...t.problems.map((p) => problemLine(t, p)));
  for (const a of t.assumed ?? []) out.push(`  assumed: ${a.text} [${a.id}]`);
  out.push(`  outcome: ${t.outcome.kind}: ${t.outcome.message}`);
  return out.join("\n");
}

/** The fields of a case that differ from what it expects, one line each. */
export const mismatches = (r: CaseResult): string[] => r.verdicts.filter((v) => !v.ok).map((v) => `${v.field}: expected ${v.expected}, got ${v.got}`);

/** A failing case: the fields that differ, then its trace. */
export function failureText(r: CaseResult, index: number): string {
  return [
    `FAIL ${index + 1}. ${r.name}`,
    ...mismatches(r).map((m) => `  ${m}`),
    ...traceText(r.trace)
      .split("\n")
      .map((l) => `  ${l}`),
  ].join("\n");
}

/** Everything a run prints on stdout: the table, each failure, the count. */
export function report(results: readonly CaseResult[]): string {
  const failures = results.flatMap((r, i) => (passed(r) ? [] : [failureText(r, i)]));
  const count = `${results.length - failures.length} of ${results.length} case${results.length === 1 ? "" : "s"} passed`;
  return `${[table(results), ...failures.map((f) => `\n${f}`), `\n${count}`].join("\n")}\n`;
}

// What a change of program does to a case file's events: each event's outcome on the base's run
// and on the head's (outcomeOfTrace), compared field by field (changesBetween). An event whose
// outcome changed is expected when its case names every changed field and the head's outcome is
// what it expects (the author pinned the new value in the same pull request; a recorded file
// expects what PagerDuty did); a change of a field the case leaves open is not expected.
// The reports: text for the terminal, JUnit for CI, Markdown for a job summary.
import { junitXml } from "./junit";
import { changesBetween, type OutcomeChange, outcomeOfTrace } from "./routing-outcome";
import { type CaseResult, mismatches, passed, traceText } from "./routing-report";

/** One event of the file, as the two runs saw it. */
export interface EventDiff {
  /** Its place in the file, from 0. */
  index: number;
  name: string;
  base: CaseResult;
  head: CaseResult;
  /** The outcome fields that differ (empty: the same outcome). */
  changes: OutcomeChange[];
  /** Changed, every changed field named by the case's `expect`, and the head's outcome satisfies it. */
  expected: boolean;
}

/** Each event of the two runs (the same file, in order), with what changed. */
export function diffRuns(base: readonly CaseResult[], head: readonly CaseResult[]): EventDiff[] {
  if (base.length !== head.length) throw new Error(`the runs differ in length (${base.length} and ${head.length} events)`);
  return base.map((b, index) => {
    const h = head[index];
    const changes = changesBetween(outcomeOfTrace(b.trace), outcomeOfTrace(h.trace));
    const named = new Set<string>(h.verdicts.map((v) => v.field));
    const pinned = significant(changes).every((c) => named.has(c.field));
    return { index, name: b.name, base: b, head: h, changes, expected: changes.length > 0 && pinned && passed(h) };
  });
}

export const changed = (d: EventDiff): boolean => d.changes.length > 0;
export const unexpected = (d: EventDiff): boolean => changed(d) && !d.expected;

/** The fields only an incident has: an event that stops or starts opening one changes them all. */
const INCIDENT_FIELDS = new Set(["urgency", "priority", "escalation_policy", "annotations"]);

/**
 * The changes that say something of their own: when an event stops or starts opening an incident,
 * that change alone (the urgency, priority, ... of the incident it no longer opens are part of it).
 */
function significant(changes: readonly OutcomeChange[]): OutcomeChange[] {
  const outcome = changes.find((c) => c.field === "outcome");
  const incidentComesOrGoes = outcome !== undefined && (outcome.before === "incident" || outcome.after === "incident");
  return changes.filter((c) => !(incidentComesOrGoes && INCIDENT_FIELDS.has(c.field)));
}

/** A change in the words of the summary: `suppressed → incident`, `urgency high → low`, `annotations changed`. */
function kindOf(c: OutcomeChange): string {
  if (c.field === "outcome") return `${c.before} → ${c.after}`;
  if (c.field === "annotations") return "annotations changed";
  return `${c.field} ${c.before} → ${c.after}`;
}

/** The kinds of change of one event, as the summary counts them. */
export const kindsOf = (d: EventDiff): string[] => significant(d.changes).map(kindOf);

/** How many events changed in each kind, most first (then by name). */
export function countKinds(diffs: readonly EventDiff[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const d of diffs) for (const k of kindsOf(d)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The last line: how many events changed, how many of those the file expects. */
export function countLine(diffs: readonly EventDiff[]): string {
  const n = diffs.filter(changed).length;
  const bad = diffs.filter(unexpected).length;
  return `${n} of ${plural(diffs.length, "event")} changed${n ? ` (${n - bad} expected by the case file, ${bad} not)` : ""}`;
}

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .map((l) => by + l)
    .join("\n");

/** A changed event: its number and name, whether the file expects it, each field's change, both traces. */
export function changeText(d: EventDiff): string {
  const lines = [
    `${d.expected ? "CHANGED (expected)" : "CHANGED"} ${d.index + 1}. ${d.name}`,
    ...d.changes.map((c) => `  ${c.field}: ${c.before} → ${c.after}`),
  ];
  if (!d.expected) {
    const named = new Set<string>(d.head.verdicts.map((v) => v.field));
    const open = significant(d.changes).filter((c) => !named.has(c.field));
    if (open.length) lines.push(`  the case's expect does not name ${open.map((c) => c.field).join(", ")}: add the new value to accept the change`);
    lines.push(...mismatches(d.head).map((m) => `  head against the case's expect: ${m}`));
  }
  lines.push("  base:", indent(traceText(d.base.trace), "    "), "  head:", indent(traceText(d.head.trace), "    "));
  return lines.join("\n");
}

/** Everything replay prints on stdout: each changed event, the count per kind, the total. */
export function diffReport(diffs: readonly EventDiff[]): string {
  const changes = diffs.filter(changed).map(changeText);
  const kinds = countKinds(diffs);
  const summary = kinds.length ? ["changes:", ...kinds.map(([k, n]) => `  ${k}: ${n}`)] : [];
  return `${[...changes.map((c) => `${c}\n`), ...summary, countLine(diffs)].join("\n")}\n`;
}

/** The JUnit report: one test case per event, failing for a change the case file does not expect. */
export function diffJunit(suite: string, diffs: readonly EventDiff[]): string {
  return junitXml(
    suite,
    diffs.map((d) => ({
      name: `${d.index + 1}. ${d.name}`,
      classname: suite,
      ...(unexpected(d)
        ? { failure: { message: `unexpected change: ${d.changes.map((c) => `${c.field} ${c.before} → ${c.after}`).join("; ")}`, text: changeText(d) } }
        : {}),
    })),
  );
}

/** The JUnit report of a replay that could not run: one failing test case saying why. */
export function notRunJunit(suite: string, why: string): string {
  return junitXml(suite, [{ name: "replay", classname: suite, failure: { message: `not run: ${why.split("\n")[0]}`, text: why } }]);
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
const fenced = (text: string): string => {
  const fence = "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${fence}text\n${text}\n${fence}`;
};

/** Text safe inside a Markdown table cell or summary line. */
const cell = (text: string) => text.replace(/[\\`*_<>|[\]]/g, (c) => `\\${c}`);

/** A GitHub job summary in Markdown: the title, the count per kind, each changed event folded with both traces. */
export function diffSummary(file: string, diffs: readonly EventDiff[]): string {
  const bad = diffs.filter(unexpected).length;
  const title = `### Routing replay of ${cell(file)}: ${countLine(diffs)}${bad ? "" : " ✓"}`;
  const kinds = countKinds(diffs);
  const table = kinds.length ? ["", "| change | events |", "|-|-|", ...kinds.map(([k, n]) => `| ${cell(k)} | ${n} |`)] : [];
  const events = diffs.filter(changed).map((d) => {
    const summary = `${d.index + 1}. ${cell(d.name)}: ${d.expected ? "expected" : "<b>not expected</b>"}`;
    return `\n<details${unexpected(d) ? " open" : ""}><summary>${summary}</summary>\n\n${fenced(changeText(d))}\n\n</details>`;
  });
  return `${[title, ...table, ...events].join("\n")}\n`;
}

/** The job summary of a replay that could not run. */
export const notRunSummary = (file: string, why: string): string => `### Routing replay of ${cell(file)}: not run\n\n${fenced(why)}\n`;

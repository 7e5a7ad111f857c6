// provider/cli/routing-diff.ts: two runs' outcomes of the same events compared, which changes the
// case file expects (the head's outcome satisfies the case), the count per kind of change (an
// incident that comes or goes counts once, not once per incident field), and the three reports.
import { diffJunit, diffReport, diffRuns, diffSummary, kindsOf, notRunSummary } from "../../../../provider/cli/routing-diff";
import type { Trace } from "../../../../provider/cli/routing-emulator";
import { judge } from "../../../../provider/cli/routing-expect";
import type { Expectation } from "../../../../provider/cli/routing-cases";
import type { CaseResult } from "../../../../provider/cli/routing-report";

/** A trace of an event that opened an incident (or was suppressed), with the fields the outcome reads. */
function trace(o: { kind?: string; severity?: string; urgency?: "high" | "low"; priority?: string | null; annotations?: string[] } = {}): Trace {
  const kind = o.kind ?? "incident_opened";
  const incident = kind === "incident_opened";
  return {
    id: `t${Math.random().toString(36).slice(2, 8)}`,
    service: { id: "PSVC", name: "Platform" },
    orchestration: { version: 1 },
    cache_variables: [],
    sets: [],
    actions: [],
    result: {
      event_action: "trigger",
      dedup_key: "k",
      summary: "s",
      severity: o.severity ?? "error",
      urgency: o.urgency ?? "high",
      suppress: kind === "suppressed",
      suspend: null,
      priority: o.priority ? { id: "PP1", name: o.priority } : null,
      escalation_policy: null,
      annotations: o.annotations ?? [],
      incident_custom_fields: [],
      variables: {},
    },
    outcome: {
      kind,
      message: kind,
      incident: incident ? { id: "PINC", number: 1, status: "triggered", urgency: o.urgency ?? "high" } : null,
      alert: { id: "PAL", suppressed: !incident, status: incident ? "triggered" : "resolved" },
    },
    problems: [],
  };
}

const result = (name: string, t: Trace, expect: Expectation = { outcome: "incident" }): CaseResult => ({ name, trace: t, verdicts: judge(expect, t) });

test("only changed events are named; a change is expected when its case names every changed field and the head's outcome satisfies it", () => {
  const base = [
    result("same", trace()),
    result("now suppressed, unexpected", trace({ priority: "P1", annotations: ["x"] })),
    result("urgency drops, expected", trace({ urgency: "high" }), { urgency: "low" }),
    result("severity and note", trace({ severity: "error" })),
    result("severity and note, pinned", trace({ severity: "error" }), { severity: "critical", annotations: ["runbook"] }),
  ];
  const head = [
    result("same", trace()),
    result("now suppressed, unexpected", trace({ kind: "suppressed" })),
    result("urgency drops, expected", trace({ urgency: "low" }), { urgency: "low" }),
    result("severity and note", trace({ severity: "critical", annotations: ["runbook"] })),
    result("severity and note, pinned", trace({ severity: "critical", annotations: ["runbook"] }), { severity: "critical", annotations: ["runbook"] }),
  ];
  const diffs = diffRuns(base, head);
  expect(diffs.map((d) => [d.changes.length > 0, d.expected])).toEqual([
    [false, false],
    [true, false],
    [true, true],
    [true, false], // its case leaves severity and annotations open
    [true, true],
  ]);
  // The incident that goes takes its urgency, priority and notes with it: one kind of change.
  expect(diffs[1].changes.map((c) => c.field)).toEqual(["outcome", "urgency", "priority", "annotations"]);
  expect(kindsOf(diffs[1])).toEqual(["incident → suppressed"]);
  expect(kindsOf(diffs[3])).toEqual(["severity error → critical", "annotations changed"]);

  const text = diffReport(diffs);
  expect(text).not.toMatch(/^CHANGED.* 1\. same$/m);
  expect(text).toMatch(/^CHANGED 2\. now suppressed, unexpected\n {2}outcome: incident → suppressed\n {2}urgency: high → none\n/m);
  expect(text).toMatch(/^CHANGED \(expected\) 3\. urgency drops, expected$/m);
  expect(text).toContain("  head against the case's expect: outcome: expected incident, got suppressed");
  expect(text).toContain("  the case's expect does not name severity, annotations: add the new value to accept the change");
  expect(text).toMatch(
    /\nchanges:\n {2}annotations changed: 2\n {2}severity error → critical: 2\n {2}incident → suppressed: 1\n {2}urgency high → low: 1\n4 of 5 events changed \(2 expected by the case file, 2 not\)\n$/,
  );
  expect(diffJunit("cases.yaml", diffs)).toMatch(/tests="5" failures="2"/);
});

test("no change: one line, and a summary titled so", () => {
  const same = [result("a", trace())];
  const diffs = diffRuns(same, [result("a", trace())]);
  expect(diffReport(diffs)).toBe("0 of 1 event changed\n");
  expect(diffSummary("cases.yaml", diffs)).toBe("### Routing replay of cases.yaml: 0 of 1 event changed ✓\n");
});

test("the job summary cannot be broken by a name or a trace: Markdown escaped, fences longer than any backticks inside", () => {
  const name = "a | b `code` <script>";
  const diffs = diffRuns([result(name, trace())], [result(name, trace({ kind: "suppressed", annotations: [] }))]);
  const md = diffSummary("my_cases.yaml", diffs);
  expect(md).toContain("### Routing replay of my\\_cases.yaml: 1 of 1 event changed (0 expected by the case file, 1 not)");
  expect(md).toContain("| incident → suppressed | 1 |");
  expect(md).toContain("<details open><summary>1. a \\| b \\`code\\` \\<script\\>: <b>not expected</b></summary>");
  const why = "pulumi up failed:\n```\nerror\n```";
  expect(notRunSummary("cases.yaml", why)).toBe(`### Routing replay of cases.yaml: not run\n\n\`\`\`\`text\n${why}\n\`\`\`\`\n`);
});

// provider/cli/routing-report.ts: a failing case's trace as a reader needs it: the rules by label,
// the actions with the rule (or catch-all) that applied them, cache variables, problems, outcome.
import type { Trace } from "../../../../provider/cli/routing-emulator";
import { cut, failureText, report } from "../../../../provider/cli/routing-report";

const trace: Trace = {
  id: "e1",
  service: { id: "PSVC", name: "Platform" },
  orchestration: { version: 3 },
  cache_variables: [{ name: "n", type: "trigger_event_count", matched: true, value: 2, warnings: [] }],
  sets: [
    {
      set: "start",
      rules: [
        { index: 0, id: "r-off", label: "Old rule", result: "disabled", conditions: [] },
        {
          index: 1,
          id: "r-typo",
          label: null,
          result: "not_matched",
          conditions: [{ index: 0, expression: "event.sumary matches 'x'", matched: false, warnings: ["event.sumary does not exist (nil)"] }],
        },
        {
          index: 2,
          id: "r-db",
          label: "Database",
          result: "matched",
          conditions: [{ index: 0, expression: "event.source matches 'db-1'", matched: true, warnings: [] }],
        },
      ],
      matched: { id: "r-db", label: "Database", index: 2 },
      catch_all: false,
      route_to: "db",
    },
    { set: "db", rules: [], matched: null, catch_all: true, route_to: null },
  ],
  actions: [
    { set: "start", rule_id: "r-db", action: "priority", value: "PNOPE" },
    { set: "db", rule_id: null, action: "severity", value: "warning" },
  ],
  result: {
    event_action: "trigger",
    dedup_key: "k",
    summary: "s",
    severity: "warning",
    urgency: "low",
    suppress: false,
    suspend: null,
    priority: { id: "PNOPE", name: null },
    escalation_policy: null,
    annotations: [],
    incident_custom_fields: [],
    variables: {},
  },
  outcome: { kind: "incident_opened", message: "opened incident #4", incident: { id: "PINC", number: 4, status: "triggered", urgency: "low" }, alert: null },
  problems: [
    { set: "start", rule_id: "r-typo", where: "conditions[0]", expression: "event.sumary matches 'x'", message: "event.sumary does not exist (nil)" },
    { set: null, rule_id: null, where: "actions.priority", message: '"PNOPE" is not a priority of the account: the incident gets none' },
  ],
};

test("a failing case: the fields that differ, then every set, rule, condition, action, cache variable and problem of its trace", () => {
  const verdicts = [
    { field: "urgency" as const, expected: "high", got: "low", ok: false },
    { field: "severity" as const, expected: "warning", got: "warning", ok: true },
  ];
  expect(failureText({ name: "db pages", verdicts, trace }, 1)).toBe(
    [
      "FAIL 2. db pages",
      "  urgency: expected high, got low",
      '  trace e1: service "Platform" (PSVC)',
      "    orchestration version 3",
      "    set start:",
      '      rule 1 "Old rule": disabled',
      "      rule 2 r-typo: not matched",
      "        false  event.sumary matches 'x'  (event.sumary does not exist (nil))",
      '      rule 3 "Database": matched',
      "        true   event.source matches 'db-1'",
      "      route to db",
      "    set db:",
      "      no rule matched: catch-all",
      "    actions:",
      '      priority "PNOPE"  [set start, "Database"]',
      '      severity "warning"  [set db, catch-all]',
      "    cache variables:",
      "      n (trigger_event_count) = 2",
      "    problems:",
      "      set start, rule r-typo, conditions[0]: event.sumary matches 'x': event.sumary does not exist (nil)",
      '      actions.priority: "PNOPE" is not a priority of the account: the incident gets none',
      "    outcome: incident_opened: opened incident #4",
    ].join("\n"),
  );
});

test("an event of a service whose orchestration is not active says so; a run's report ends with the count", () => {
  const inactive = { ...trace, orchestration: null, sets: [], actions: [], cache_variables: [], problems: [] };
  const out = report([{ name: "plain", verdicts: [{ field: "outcome", expected: "suppressed", got: "incident_opened", ok: false }], trace: inactive }]);
  expect(out).toContain('  trace e1: service "Platform" (PSVC)\n    the service\'s orchestration is not active: no rule ran\n    actions: none\n');
  expect(out.endsWith("\n0 of 1 case passed\n")).toBe(true);
});

test("the table cuts a long value and says by how much; a differing field's cut values say they follow whole below, where they do", () => {
  const note = "Database runbook: https://runbooks.example.com/database";
  expect(cut("x".repeat(50))).toBe("x".repeat(50));
  expect(cut("x".repeat(51))).toBe(`${"x".repeat(45)}…(+6)`);
  expect(cut("x".repeat(200))).toBe(`${"x".repeat(43)}…(+157)`);
  for (const n of [51, 60, 99, 100, 101, 1000, 12345]) {
    const cell = cut("y".repeat(n));
    const kept = cell.indexOf("…");
    expect(cell.length).toBe(50);
    expect(kept + Number(/\(\+(\d+)\)$/.exec(cell)![1])).toBe(n);
  }
  const verdicts = [
    { field: "annotations" as const, expected: JSON.stringify([note]), got: JSON.stringify([note]), ok: true },
    { field: "annotations" as const, expected: JSON.stringify([note]), got: JSON.stringify([`${note}/v2`]), ok: false },
  ];
  const out = report([{ name: "db pages", verdicts, trace: { ...trace, sets: [], actions: [], cache_variables: [], problems: [] } }]);
  const [, passing, failing] = out.split("\n");
  expect(passing).toMatch(
    /^1 +db pages +annotations=\["Database runbook: https:\/\/runb…\(\+27\) +\["Database runbook: https:\/\/runbooks\.example…\(\+15\) +FAIL$/,
  );
  expect(failing).toMatch(/^ +annotations=\["Database runbook:…\(\+40, whole below\) +! \["Database runbook: https:\/\/r…\(\+33, whole below\)$/);
  expect(out).toContain(`  annotations: expected ${JSON.stringify([note])}, got ${JSON.stringify([`${note}/v2`])}`);
});

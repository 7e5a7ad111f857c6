// provider/cli/routing-report.ts: a failing case's trace as a reader needs it: the rules by label,
// the actions with the rule (or catch-all) that applied them, cache variables, problems, outcome;
// each condition with the values it read, rules and conditions numbered from 1 in the lines and in
// the problems alike, and the emulator's own choices that decided the outcome.
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
          conditions: [
            {
              index: 0,
              expression: "event.sumary matches 'x'",
              matched: false,
              warnings: ["event.sumary does not exist (nil)"],
              reads: [{ what: "event.sumary", found: false, value: null }],
            },
            {
              index: 1,
              expression: "event.custom_details.env == 'stage'",
              matched: false,
              warnings: [],
              reads: [{ what: "event.custom_details.env", found: true, value: "staging" }],
            },
          ],
        },
        {
          index: 2,
          id: "r-db",
          label: "Database",
          result: "matched",
          conditions: [
            {
              index: 0,
              expression: "now in Mon 09:00:00 to 17:00:00 Europe/London",
              matched: true,
              warnings: [],
              reads: [{ what: "now", found: true, value: "Mon 10:00:00 Europe/London" }],
            },
          ],
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
  assumed: [{ id: "later-set-sees-extractions", text: "a rule's conditions see the event as the extractions of earlier sets left it" }],
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
      "        condition 1: false  event.sumary matches 'x'  (event.sumary does not exist (nil))",
      `        condition 2: false  event.custom_details.env == 'stage'  (event.custom_details.env = "staging")`,
      '      rule 3 "Database": matched',
      "        condition 1: true   now in Mon 09:00:00 to 17:00:00 Europe/London  (now = Mon 10:00:00 Europe/London)",
      "      route to db",
      "    set db:",
      "      no rule matched: catch-all",
      "    actions:",
      '      priority "PNOPE"  [set start, "Database"]',
      '      severity "warning"  [set db, catch-all]',
      "    cache variables:",
      "      n (trigger_event_count) = 2",
      "    problems:",
      "      set start, rule 2 r-typo, condition 1: event.sumary matches 'x': event.sumary does not exist (nil)",
      '      actions.priority: "PNOPE" is not a priority of the account: the incident gets none',
      "    assumed: a rule's conditions see the event as the extractions of earlier sets left it [later-set-sees-extractions]",
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

test("a long value read is cut, marked, and a problem's condition is the line under its rule with that number", () => {
  const long = "x".repeat(200);
  const t: Trace = {
    ...trace,
    sets: [
      {
        set: "start",
        rules: [
          {
            index: 0,
            id: "r-hc",
            label: "Noisy health checks",
            result: "not_matched",
            conditions: [
              {
                index: 0,
                expression: "event.summary matches part 'healthcheck'",
                matched: false,
                warnings: [],
                reads: [{ what: "event.summary", found: true, value: long }],
              },
              {
                index: 1,
                expression: "event.custom_details.check matches 'healthz'",
                matched: false,
                warnings: ["event.custom_details.check does not exist (nil)"],
                reads: [{ what: "event.custom_details.check", found: false, value: null }],
              },
            ],
          },
        ],
        matched: null,
        catch_all: true,
        route_to: null,
      },
    ],
    problems: [
      {
        set: "start",
        rule_id: "r-hc",
        where: "conditions[1]",
        expression: "event.custom_details.check matches 'healthz'",
        message: "event.custom_details.check does not exist (nil)",
      },
    ],
  };
  const lines = failureText({ name: "hc", verdicts: [{ field: "outcome", expected: "suppressed", got: "incident_opened", ok: false }], trace: t }, 0).split(
    "\n",
  );
  expect(lines).toContain(`        condition 1: false  event.summary matches part 'healthcheck'  (event.summary = "${"x".repeat(76)}...)`);
  expect(lines).toContain("        condition 2: false  event.custom_details.check matches 'healthz'  (event.custom_details.check does not exist (nil))");
  expect(lines).toContain(
    "      set start, rule 1 \"Noisy health checks\", condition 2: event.custom_details.check matches 'healthz': event.custom_details.check does not exist (nil)",
  );
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

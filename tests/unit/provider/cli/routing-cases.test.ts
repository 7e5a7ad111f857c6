// provider/cli/routing-cases.ts: the case file, YAML or JSON, read whole or refused naming each
// field that is wrong, before any event is sent.
import { CasesError, parseCases } from "../../../../provider/cli/routing-cases";

const refusal = (text: string): string => {
  try {
    parseCases(text, "cases.yaml");
  } catch (e) {
    expect(e).toBeInstanceOf(CasesError);
    expect((e as CasesError).code).toBe("ERR_CASES");
    return (e as Error).message;
  }
  throw new Error("accepted");
};

test("YAML: a top-level integration for every case, defaults filled in, times parsed, unquoted times kept as text", () => {
  const cases = parseCases(
    `
integration: events
cases:
  - name: one
    at: 2026-12-05T03:00:00Z
    event: { summary: s, source: h, severity: info, custom_details: { n: 1, on: yes } }
    expect: { outcome: incident, priority: null, annotations: [] }
  - name: two
    integration: other
    at: Sat 03:00 Europe/London
    event: { event_action: resolve, dedup_key: k }
    expect: { outcome: resolved }
`,
    "cases.yaml",
  );
  expect(cases).toEqual([
    {
      name: "one",
      integration: "events",
      at: { kind: "instant", ms: Date.parse("2026-12-05T03:00:00Z") },
      // The core schema: `yes` is text, as in YAML 1.2.
      event: { event_action: "trigger", summary: "s", source: "h", severity: "info", custom_details: { n: 1, on: "yes" } },
      expect: { outcome: "incident", priority: null, annotations: [] },
    },
    {
      name: "two",
      integration: "other",
      at: { kind: "wall", day: 6, seconds: 3 * 3600, zone: "Europe/London" },
      event: { event_action: "resolve", dedup_key: "k" },
      expect: { outcome: "resolved" },
    },
  ]);
});

test("JSON is read by the same parser", () => {
  const json = JSON.stringify({
    cases: [{ name: "j", integration: "events", event: { summary: "s", source: "h", severity: "error" }, expect: { urgency: "high" } }],
  });
  expect(parseCases(json, "cases.json")).toEqual([
    { name: "j", integration: "events", event: { event_action: "trigger", summary: "s", source: "h", severity: "error" }, expect: { urgency: "high" } },
  ]);
});

test("every mistake of the cases at once, each naming its field (then those between cases)", () => {
  const message = refusal(`
cases:
  - name: a
    event: { summary: s, source: h, severity: fatal }
    expect: { outcome: paged }
  - name: a
    integration: events
    at: next Tuesday
    event: { event_action: acknowledge, summmary: s }
    expect: {}
`);
  expect(message.split("\n")).toEqual([
    "cases.yaml has 6 mistakes; nothing was sent:",
    "  cases[0].event.severity (case 1, \"a\"): Invalid enum value. Expected 'critical' | 'error' | 'warning' | 'info', received 'fatal'",
    expect.stringMatching(
      /^ {2}cases\[0\]\.expect\.outcome \(case 1, "a"\): Invalid enum value\. Expected 'incident' \| 'incident_opened' .* received 'paged'$/,
    ),
    expect.stringMatching(/^ {2}cases\[1\]\.at \(case 2, "a"\): "next Tuesday" is neither/),
    "  cases[1].event (case 2, \"a\"): Unrecognized key(s) in object: 'summmary'",
    '  cases[1].event.dedup_key (case 2, "a"): is required when event_action is "acknowledge"',
    '  cases[1].expect (case 2, "a"): names nothing to check (outcome, severity, urgency, ...)',
  ]);
  expect(
    refusal(`
cases:
  - { name: a, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }
  - { name: a, integration: e, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }
`).split("\n"),
  ).toEqual([
    "cases.yaml has 2 mistakes; nothing was sent:",
    '  cases[0].integration (case 1, "a"): is required (or give a top-level integration for every case)',
    '  cases[1].name (case 2, "a"): "a" names an earlier case too',
  ]);
});

test("a trigger without what the Events API requires, another event without a dedup key, an empty file, not YAML", () => {
  expect(refusal("cases:\n  - { name: t, integration: e, event: { summary: s }, expect: { outcome: incident } }")).toContain(
    '  cases[0].event.source (case 1, "t"): is required for a trigger event (the Events API refuses one without it)\n  cases[0].event.severity (case 1, "t"): is required',
  );
  expect(refusal("cases:\n  - { name: r, integration: e, event: { event_action: resolve }, expect: { outcome: resolved } }")).toContain(
    'cases[0].event.dedup_key (case 1, "r"): is required when event_action is "resolve"',
  );
  expect(refusal("")).toBe("cases.yaml is empty: it lists no cases");
  expect(refusal("- a list")).toBe("cases.yaml has a mistake; nothing was sent:\n  (the file): Expected object, received array");
  expect(refusal("cases: []")).toContain("cases: must list at least one case");
  expect(refusal("cases: [ {")).toMatch(/^cases\.yaml is not valid YAML or JSON: .* \(line 2, column 1\)$/);
});

test("a mistake names its case as the table counts it (from 1) and by name, beside the file's path (from 0)", () => {
  const message = refusal(`
integration: events
cases:
  - { name: first, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }
  - { name: second, event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }
  - { name: "db pages", event: { summary: s, source: h, severity: info }, expect: { urgency: urgent } }
  - { event: { summary: s, source: h, severity: info }, expect: { outcome: incident } }
`);
  expect(message.split("\n")).toEqual([
    "cases.yaml has 2 mistakes; nothing was sent:",
    "  cases[2].expect.urgency (case 3, \"db pages\"): Invalid enum value. Expected 'high' | 'low', received 'urgent'",
    "  cases[3].name (case 4): Required",
  ]);
});

// parity's pure parts: its command line, the copy of an orchestration's account ids by name, and
// the report of differing cases.
import { parseCommandLine, UsageError } from "../../../../provider/cli/command-line";
import { changesBetween, type EventOutcome } from "../../../../provider/cli/routing-outcome";
import { parityCommand, parityReport } from "../../../../provider/cli/routing-parity";
import { translateIds } from "../../../../provider/cli/routing-sandbox";

const options = (argv: string[]) => parseCommandLine(parityCommand(), argv);

test("the command line: the cases, the emulator, the real account's escalation policy, a bounded wait", () => {
  expect(options(["--cases", "c.yaml", "--url", "http://127.0.0.1:1", "--escalation-policy", "PEP1"])).toEqual({
    cases: "c.yaml",
    url: "http://127.0.0.1:1",
    escalationPolicy: "PEP1",
    waitMs: 30_000,
  });
  expect(() => options(["--cases", "c.yaml", "--escalation-policy", "P", "--wait", "0"])).toThrow("--wait");
  expect(() => options(["--cases", "c.yaml", "--escalation-policy", "P", "--wait", "601"])).toThrow("at most 600");
  expect(() => options(["--cases", "c.yaml", "--escalation-policy", "P", "--events-url", "https://u:p@events.example"])).toThrow(
    "not an http(s) URL without credentials",
  );
  expect(() => options(["--cases", "c.yaml"])).toThrow(UsageError);
});

const catalog = (priorities: [string, string][], policies: [string, string][]) => ({ priorities: new Map(priorities), policies: new Map(policies) });

test("priorities and escalation policies are copied by name; one the account lacks is named with its rule", () => {
  const from = catalog([["EP1", "P1"]], [["EEP", "DB team"]]);
  const to = catalog([["RP1", "P1"]], [["REP", "DB team"]]);
  const path = {
    sets: [{ id: "start", rules: [{ conditions: [], actions: { priority: "EP1", escalation_policy: "EEP", annotate: "x" } }] }],
    catch_all: { actions: { priority: "EP1" } },
  };
  expect(translateIds(path, from, to)).toEqual({
    sets: [{ id: "start", rules: [{ conditions: [], actions: { priority: "RP1", escalation_policy: "REP", annotate: "x" } }] }],
    catch_all: { actions: { priority: "RP1" } },
  });
  expect(() => translateIds(path, from, catalog([["RP1", "P1"]], []))).toThrow(
    'sets[0].rules[0].actions.escalation_policy: the escalation policy "DB team" has no namesake in the account parity runs on',
  );
});

const outcome = (extra: Partial<EventOutcome> = {}): EventOutcome => ({
  outcome: "incident",
  service: "Checkout",
  severity: "critical",
  urgency: "high",
  priority: null,
  escalation_policy: null,
  annotations: [],
  ...extra,
});

test("the report: agreement in one line; each differing case with both values per field, and a count per field", () => {
  expect(parityReport(3, [])).toBe("3 cases: PagerDuty and the emulator agree on every one\n");
  const a = outcome({ priority: "P2", annotations: ["n"] });
  const b = outcome();
  const c = outcome({ outcome: "suppressed", urgency: null });
  expect(
    parityReport(5, [
      { index: 1, name: "web", emulator: a, pagerduty: b, changes: changesBetween(a, b) },
      { index: 4, name: "noise", emulator: b, pagerduty: c, changes: changesBetween(b, c) },
    ]),
  ).toBe(
    [
      "2 of 5 cases differ between the emulator and PagerDuty:",
      "",
      "  2. web",
      "     priority     emulator: P2  PagerDuty: none",
      '     annotations  emulator: ["n"]  PagerDuty: []',
      "  5. noise",
      "     outcome  emulator: incident  PagerDuty: suppressed",
      "     urgency  emulator: high  PagerDuty: none",
      "",
      "by field: priority 1, annotations 1, outcome 1, urgency 1",
      "",
    ].join("\n"),
  );
});

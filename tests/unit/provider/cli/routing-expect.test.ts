// provider/cli/routing-expect.ts: each expected field against what the trace holds for it.
import type { Trace } from "../../../../provider/cli/routing-emulator";
import { judge } from "../../../../provider/cli/routing-expect";

const base: Trace = {
  id: "e",
  service: { id: "PSVC", name: "Platform" },
  orchestration: { version: 1 },
  cache_variables: [],
  sets: [],
  actions: [],
  result: {
    event_action: "trigger",
    dedup_key: "k-1",
    summary: "disk full",
    severity: "critical",
    urgency: "high",
    suppress: false,
    suspend: 120,
    priority: { id: "PP1", name: "P1" },
    escalation_policy: { id: "PDB", name: null },
    annotations: ["one", "two"],
    incident_custom_fields: [{ id: "F1", value: "gold" }],
    variables: { host: "db-1", env: "prod" },
  },
  outcome: { kind: "suspended", message: "held", incident: null, alert: null },
  problems: [],
};
const trace = (over: Partial<Trace> = {}): Trace => ({ ...base, ...over });
const oks = (expect: Parameters<typeof judge>[0], t: Trace = trace()) => judge(expect, t).map((v) => [v.field, v.ok]);

test("outcome words: incident stands for opened or joined, held for suspended; the trace's own kinds too", () => {
  expect(oks({ outcome: "held" })).toEqual([["outcome", true]]);
  expect(oks({ outcome: "suspended" })).toEqual([["outcome", true]]);
  expect(oks({ outcome: "incident" })).toEqual([["outcome", false]]);
  const joined = trace({
    outcome: { kind: "alert_added_to_incident", message: "", incident: { id: "I", number: 1, status: "triggered", urgency: "low" }, alert: null },
  });
  expect(oks({ outcome: "incident" }, joined)).toEqual([["outcome", true]]);
  expect(oks({ outcome: "incident_opened" }, joined)).toEqual([["outcome", false]]);
  // A joined incident keeps its own urgency, whatever this event's severity would give.
  expect(judge({ urgency: "high" }, joined)).toEqual([{ field: "urgency", expected: "high", got: "low", ok: false }]);
  expect(oks({ urgency: "high" })).toEqual([["urgency", true]]);
});

test("references by name or id, null for none; a reference whose name the account does not have shows its id", () => {
  expect(oks({ priority: "P1", escalation_policy: "PDB", service: "PSVC" })).toEqual([
    ["priority", true],
    ["escalation_policy", true],
    ["service", true],
  ]);
  expect(judge({ priority: null, escalation_policy: "Database team" }, trace())).toEqual([
    { field: "priority", expected: "none", got: "P1", ok: false },
    { field: "escalation_policy", expected: "Database team", got: "PDB", ok: false },
  ]);
  const none = trace({ result: { ...base.result, priority: null } });
  expect(judge({ priority: null }, none)).toEqual([{ field: "priority", expected: "none", got: "none", ok: true }]);
});

test("annotations whole and in order; custom fields and variables as subsets; the event's fields as the rules left them", () => {
  expect(oks({ annotations: ["one", "two"] })).toEqual([["annotations", true]]);
  expect(oks({ annotations: ["two", "one"] })).toEqual([["annotations", false]]);
  expect(oks({ annotations: [] })).toEqual([["annotations", false]]);
  expect(oks({ incident_custom_fields: { F1: "gold" }, variables: { host: "db-1" } })).toEqual([
    ["incident_custom_fields", true],
    ["variables", true],
  ]);
  expect(judge({ variables: { host: "db-2" } }, trace())).toEqual([
    { field: "variables", expected: '{"host":"db-2"}', got: '{"host":"db-1","env":"prod"}', ok: false },
  ]);
  expect(oks({ summary: "disk full", dedup_key: "k-1", event_action: "trigger", suspend: 120, severity: "critical" })).toEqual([
    ["summary", true],
    ["dedup_key", true],
    ["event_action", true],
    ["suspend", true],
    ["severity", true],
  ]);
  expect(oks({ suspend: null })).toEqual([["suspend", false]]);
});

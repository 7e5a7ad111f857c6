// The orchestration walk and each action, on the evaluator alone (no server): start set, rules in
// order, first match, route_to, catch-all, disabled rules, loops; variables, extractions and
// templates; the actions that decide what the event becomes.
import { parseOrchestration } from "../../../emulator/src/kinds/orchestration/model";
import { programOf } from "../../../emulator/src/pcl/compile";
import { routedEvent } from "../../../emulator/src/pcl/event-model";
import { evaluate } from "../../../emulator/src/pcl/evaluate";
import type { OrchestrationRecord } from "../../../emulator/src/kinds/orchestration/model";

type Json = Record<string, unknown>;

let version = 0;
function orchestration(sets: Json[], catchAll: Json = {}): OrchestrationRecord {
  const parsed = parseOrchestration({ orchestration_path: { sets, catch_all: { actions: catchAll } } });
  return { ...parsed, active: true, created_at: "", updated_at: "", version: ++version };
}

const payload = (p: Json = {}) => ({ summary: "Disk full on db-1", source: "db-1", severity: "warning", ...p });

function run(o: OrchestrationRecord, p: Json = {}, opts: { cacheVars?: Json; action?: "trigger" | "resolve" | "acknowledge"; now?: number; raw?: Json } = {}) {
  const routed = routedEvent(
    { routing_key: "secret-key", event_action: opts.action ?? "trigger", payload: payload(p), ...opts.raw },
    "key-1",
    "2026-01-05T10:00:00.000Z",
  );
  return evaluate({
    program: programOf(o),
    routed,
    eventAction: opts.action ?? "trigger",
    now: opts.now ?? Date.parse("2026-01-05T10:00:00Z"),
    cacheVars: opts.cacheVars ?? {},
    thresholds: { count: () => 1, reset: () => undefined },
  });
}

const rule = (id: string, expression: string | undefined, actions: Json, extra: Json = {}) => ({
  id,
  label: `rule ${id}`,
  conditions: expression === undefined ? [] : [{ expression }],
  actions,
  ...extra,
});

describe("the walk", () => {
  const o = orchestration(
    [
      {
        id: "start",
        rules: [
          rule("aaaa0001", "event.summary matches part 'disk'", { severity: "critical" }, { disabled: true }),
          rule("aaaa0002", "event.source matches 'web-1'", { priority: "P2" }),
          rule("aaaa0003", "event.source matches regex '^db-'", { route_to: "db", annotate: "database" }),
          rule("aaaa0004", undefined, { priority: "P5" }),
        ],
      },
      { id: "db", rules: [rule("bbbb0001", "event.severity matches 'critical'", { priority: "P1" })] },
    ],
    { severity: "info" },
  );

  test("start set, rules in order, the first match applies, disabled rules skipped, route_to continues, a set with no match applies the catch-all", () => {
    const ev = run(o);
    expect(ev.sets.map((s) => [s.set, s.matched?.id ?? null, s.catch_all, s.route_to])).toEqual([
      ["start", "aaaa0003", false, "db"],
      ["db", null, true, null],
    ]);
    expect(ev.sets[0].rules.map((r) => r.result)).toEqual(["disabled", "not_matched", "matched"]);
    expect(ev.decision.annotations).toEqual(["database"]);
    expect(ev.actions.map((a) => [a.set, a.rule_id, a.action, a.value])).toEqual([
      ["start", "aaaa0003", "annotate", "database"],
      ["db", null, "severity", "info"],
    ]);
  });

  test("a matched rule without route_to ends the walk: no catch-all; a rule without conditions always matches", () => {
    const ev = run(o, { source: "web-1" });
    expect(ev.sets).toHaveLength(1);
    expect(ev.sets[0].catch_all).toBe(false);
    expect(ev.decision.priority).toBe("P2");
    expect(run(o, { source: "other" }).decision.priority).toBe("P5");
  });

  test("a later set sees what earlier actions did, and overrides them", () => {
    const chain = orchestration([
      { id: "start", rules: [rule("cccc0001", undefined, { severity: "critical", priority: "P3", route_to: "two" })] },
      { id: "two", rules: [rule("cccc0002", "event.severity matches 'critical'", { priority: "P1" })] },
    ]);
    const ev = run(chain);
    expect(ev.decision.priority).toBe("P1");
    expect(ev.sets[1].matched?.id).toBe("cccc0002");
  });

  test("any condition of a rule may match; conditions after the first match are not evaluated", () => {
    const any = orchestration([
      {
        id: "start",
        rules: [
          {
            id: "dddd0001",
            conditions: [{ expression: "event.source matches 'x'" }, { expression: "event.source matches 'db-1'" }, { expression: "event.nope exists" }],
            actions: { priority: "P4" },
          },
        ],
      },
    ]);
    const ev = run(any);
    expect(ev.sets[0].rules[0].conditions.map((c) => [c.index, c.matched])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  test("a route back into a set already entered ends the walk, and the trace says so", () => {
    const loop = orchestration([
      { id: "start", rules: [rule("eeee0001", undefined, { route_to: "two" })] },
      { id: "two", rules: [rule("eeee0002", undefined, { route_to: "start" })] },
    ]);
    const ev = run(loop);
    expect(ev.sets.map((s) => s.set)).toEqual(["start", "two"]);
    expect(ev.problems).toEqual([expect.objectContaining({ rule_id: "eeee0002", where: "actions.route_to", message: expect.stringMatching(/loops back/) })]);
  });

  test("a stored condition that does not parse never matches; the trace names it", () => {
    const o2 = orchestration([{ id: "start", rules: [rule("ffff0001", "event.summary exists", { priority: "P1" })] }]);
    o2.sets[0].rules[0].conditions = [{ expression: "event.summary matches" }];
    o2.version++;
    const ev = run(o2);
    expect(ev.sets[0].rules[0]).toMatchObject({
      result: "not_matched",
      conditions: [{ matched: false, error: expect.stringMatching(/does not parse: expected a value/) }],
    });
    expect(ev.problems[0]).toMatchObject({ rule_id: "ffff0001", expression: "event.summary matches" });
  });

  test("an expression that reads a missing path is named with the path in the trace", () => {
    const o2 = orchestration([{ id: "start", rules: [rule("abab0001", "event.sumary matches part 'disk'", { priority: "P1" })] }]);
    const ev = run(o2);
    expect(ev.sets[0].rules[0].conditions[0]).toEqual({
      index: 0,
      expression: "event.sumary matches part 'disk'",
      matched: false,
      warnings: ["event.sumary does not exist (nil)"],
      reads: [{ what: "event.sumary", found: false, value: null }],
    });
  });

  test("the routing key is not in raw_event", () => {
    const o2 = orchestration([{ id: "start", rules: [rule("acac0001", "raw_event.routing_key exists", { priority: "P1" })] }]);
    expect(run(o2).decision.priority).toBeNull();
  });
});

describe("actions", () => {
  test("variables (capture groups appended, or the whole match) feed templates; extractions by template and by regex", () => {
    const o = orchestration([
      {
        id: "start",
        rules: [
          rule("a1a1a1a1", undefined, {
            variables: [
              { name: "host", path: "event.source", type: "regex", value: "(db)-(\\d+)" },
              { name: "whole", path: "event.summary", type: "regex", value: "full" },
              { name: "none", path: "event.summary", type: "regex", value: "^zzz" },
            ],
            extractions: [
              { target: "event.custom_details.host", template: "{{variables.host}}/{{variables.whole}}" },
              { target: "event.summary", template: "[{{event.severity}}] {{event.summary}} ({{variables.none}})" },
              { target: "event.dedup_key", source: "event.source", regex: "db-(\\d+)" },
              { target: "event.component", source: "event.nothing", regex: "(.*)" },
            ],
            annotate: "host {{variables.host}}, count {{cache_var.repeats}}",
          }),
        ],
      },
    ]);
    const ev = run(o, {}, { cacheVars: { repeats: 3 } });
    expect(ev.decision.variables).toEqual({ host: "db1", whole: "full" });
    expect(ev.decision.annotations).toEqual(["host db1, count 3"]);
    const event = (ev.actions.find((a) => a.action === "variable" && (a.value as Json).name === "none") ?? {}) as Json;
    expect(event.warnings).toEqual([expect.stringMatching(/does not match \^zzz: the variable is unset/)]);
    const extraction = ev.actions.filter((a) => a.action === "extraction").map((a) => [(a.value as Json).target, (a.value as Json).value]);
    expect(extraction).toEqual([
      ["event.custom_details.host", "db1/full"],
      ["event.summary", "[warning] Disk full on db-1 ()"],
      ["event.dedup_key", "1"],
      ["event.component", null],
    ]);
  });

  test("severity and event_action; priority and escalation policy; suppress, suspend, drop; custom fields; recorded automation and webhooks (header values redacted)", () => {
    const o = orchestration(
      [
        {
          id: "start",
          rules: [
            rule("b1b1b1b1", "event.source matches 'db-1'", {
              severity: "critical",
              event_action: "resolve",
              priority: "PRIO1",
              escalation_policy: "PESC1",
              suspend: 120,
              incident_custom_field_updates: [{ id: "F1", value: "{{event.source}}" }],
              pagerduty_automation_actions: [{ action_id: "01ABC" }],
              automation_actions: [{ name: "hook", url: "https://hooks.test/x", headers: [{ key: "Authorization", value: "Bearer s3cret" }], parameters: [] }],
            }),
          ],
        },
      ],
      { suppress: true },
    );
    const d = run(o).decision;
    expect(d).toMatchObject({ event_action: "resolve", priority: "PRIO1", escalation_policy: "PESC1", suspend: 120, suppress: false, drop: false });
    expect([...d.custom_fields]).toEqual([["F1", "db-1"]]);
    expect(d.automation_actions).toEqual([{ action_id: "01ABC" }]);
    expect(d.webhooks[0]).toMatchObject({ name: "hook", headers: [{ key: "Authorization", value: "(redacted)" }] });
    expect(JSON.stringify(run(o))).not.toContain("s3cret");
    expect(run(o, { source: "elsewhere" }).decision).toMatchObject({ suppress: true, priority: null, event_action: "trigger" });
  });

  test("an extraction into event.severity that is not a severity leaves it, with a warning", () => {
    const o = orchestration([
      { id: "start", rules: [rule("c1c1c1c1", undefined, { extractions: [{ target: "event.severity", template: "sev-{{event.severity}}" }] })] },
    ]);
    const ev = run(o);
    expect(ev.actions[0].warnings).toEqual([expect.stringMatching(/"sev-warning" is not a severity/)]);
  });
});

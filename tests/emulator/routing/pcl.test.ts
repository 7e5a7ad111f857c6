// PCL, per operator, against PagerDuty's "PCL Overview": its examples are the expected results.
// Parsing (errors with their character), then evaluation of each operation.
import { type ConditionContext, evaluateCondition, MISSING } from "../../../emulator/src/pcl/conditions";
import { PclError } from "../../../emulator/src/pcl/pcl-ast";
import { PCL_LIMITS, parsePcl, pclProblem } from "../../../emulator/src/pcl/pcl";
import { renderTemplate } from "../../../emulator/src/pcl/templates";

const at = (iso: string) => Date.parse(iso);

function ctx(data: Record<string, unknown>, now = at("2022-01-03T20:00:00Z"), counts: number[] = []): ConditionContext {
  return {
    root: (name) => (Object.hasOwn(data, name) ? data[name] : MISSING),
    now,
    count: (seconds) => counts.filter((t) => t > now - seconds * 1000).length + 1,
    resetCount: () => counts.splice(0),
  };
}

const run = (expression: string, data: Record<string, unknown> = {}, now?: number) => evaluateCondition(expression, parsePcl(expression), ctx(data, now));
const holds = (expression: string, data: Record<string, unknown> = {}, now?: number) => run(expression, data, now).matched;

describe("parsing: what PagerDuty refuses at write time, with the character it is at", () => {
  const problem = (e: string) => pclProblem(e);

  test.each([
    ["event.summary matches", "expected a value", 22],
    ["event.summary matchs 'x'", "unexpected 'matchs'", 15],
    ["(event.summary matches 'x'", "expected ')' to close the '(' at character 1", 27],
    ["event.summary matches 'x", "this string has no closing quote", 23],
    ["event.summary matches regex '(unclosed'", "not valid RE2: error parsing regexp: missing closing )", 29],
    ["event.summary matches regex '(?<=a)b'", "not valid RE2", 29],
    ["event.summary matches regex event.source", "takes a regular expression in single quotes", 29],
    ["event.custom_details.namespace exists", "'namespace' is a reserved word of PCL: write ['namespace']", 22],
    ["now in Mon,Funday 09:00:00 to 17:00:00 UTC", "'Funday' is not a weekday", 12],
    ["now in Mon 09:00:00 17:00:00 UTC", "expected 'to'", 21],
    ["now in Mon 09:00:00 to 25:00:00 UTC", "expected an end time as HH:MM:SS", 24],
    ["now in Mon 09:00:00 to 17:00:00 Mars/Olympus", "'Mars/Olympus' is not a time zone", 33],
    ["event.summary in Mon 09:00:00 to 17:00:00 UTC", "'in' takes now on its left", 15],
    ["'x' exists", "'exists' follows a path", 1],
    ["trigger_count over 5 > 3", "expected a duration", 20],
    ["trigger_count over 5 seconds 3 seconds > 1", "names seconds twice", 30],
    ["event.summary matches 'a' and", "expected a value", 30],
    ["event.x == 9223372036854775808", "outside the 64-bit range", 12],
    ["", "the condition is empty", 1],
  ])("%s", (expression, reason, column) => {
    const e = problem(expression);
    expect(e).toBeInstanceOf(PclError);
    expect(e?.message).toContain(reason);
    expect(e?.position).toBe(column - 1);
  });

  test("the overview's limits: length, nesting, factors, string length, path elements", () => {
    expect(problem(`event.summary matches '${"x".repeat(PCL_LIMITS.bytes)}'`)?.reason).toMatch(/longer than 2048 bytes/);
    expect(problem(`${"(".repeat(33)}event.x exists${")".repeat(33)}`)?.reason).toMatch(/deeper than 32/);
    expect(problem(`${"(".repeat(32)}event.x exists${")".repeat(32)}`)).toBeUndefined();
    expect(problem(Array.from({ length: 65 }, (_, i) => `event.f${i} exists`).join(" or "))?.reason).toMatch(/more than 64 factors/);
    expect(problem(Array.from({ length: 64 }, (_, i) => `event.f${i} exists`).join(" or "))).toBeUndefined();
    expect(problem(`event.summary matches '${"é".repeat(513)}'`)?.reason).toMatch(/longer than 1024 bytes/);
    expect(problem(`event${".a".repeat(32)} exists`)?.reason).toMatch(/more than 32 elements/);
    expect(problem(`event${".a".repeat(31)} exists`)).toBeUndefined();
  });

  test("what it accepts: the forms of the overview, the Terraform provider's docs and the rules conversion", () => {
    for (const e of [
      "event.summary matches part 'prod' and (event.location == 'US' or event.location == 'Canada')",
      "event.custom_details['system diagnosis'].important_field exists",
      "raw_event.links[0].href matches part 'diag'",
      "event.severity matches 'info' and not (now in Mon,Tue,Wed,Thu,Fri 09:00:00 to 17:00:00 America/Los_Angeles)",
      "now in Sat,Sun 12:00:00 to 12:00:00 Africa/Cairo",
      "now in 2026-01-01 00:00:00 to 2026-01-02 00:00:00 UTC",
      "now > 2020-01-01 00:00:00 Etc/UTC",
      "trigger_count over 1 hour 30 minutes > 5",
      "resetting_trigger_count over 10 seconds > 5",
      "event.summary matches part 'db\\'s' and not event.custom_details.host exists",
      "cache_var.db_triggers >= 5",
      "event.x > -12 and event.y < 4.5e10 and event.z == 0.7",
    ])
      expect([e, problem(e)]).toEqual([e, undefined]);
  });
});

describe("evaluation, per operation", () => {
  const data = { data: { foo: "code" } };

  test("not: higher precedence than and/or; a non-boolean evaluation is false, so not of it is true", () => {
    expect(holds("not data.foo matches 'www'", data)).toBe(true);
    expect(holds("not data.missing exists and data.foo matches 'www'", data)).toBe(false);
    expect(holds("not (data.missing exists and data.foo matches 'www')", data)).toBe(true);
    expect(holds("not (data.foo exists and data.foo matches 'code')", data)).toBe(false);
    expect(holds("raw_event.invalid_path > 2", { raw_event: {} })).toBe(false);
    expect(holds("not raw_event.invalid_path > 2", { raw_event: {} })).toBe(true);
  });

  test("and / or short-circuit: the second side's warnings are not reported", () => {
    expect(run("data.foo matches 'www' and data.missing matches 'hello'", data)).toEqual({
      matched: false,
      warnings: [],
      reads: [{ what: "data.foo", found: true, value: "code" }],
    });
    expect(run("data.missing matches 'hello' and data.foo matches 'www'", data).warnings).toEqual(["data.missing does not exist (nil)"]);
    expect(run("data.foo matches 'code' or data.missing matches 'hello'", data)).toEqual({
      matched: true,
      warnings: [],
      reads: [{ what: "data.foo", found: true, value: "code" }],
    });
    expect(holds("data.foo matches 'www' or data.missing exists", data)).toBe(false);
    expect(holds("event.x > 5 and not event.y < 6 or event.z == 2", { event: { x: 1, y: 9, z: 2 } })).toBe(true);
    expect(holds("event.x > 5 and (not event.y < 6 or event.z == 2)", { event: { x: 1, y: 9, z: 2 } })).toBe(false);
  });

  test("matches: whole value, case-insensitive unless exactly, whitespace counts; nil is false; numbers and objects as text", () => {
    const e = { event: { s: "this is a test", t: "trailing whitespace ", n: 42, o: { a: 1 } } };
    expect(holds("event.s matches 'This Is A Test'", e)).toBe(true);
    expect(holds("event.s matches exactly 'This Is A Test'", e)).toBe(false);
    expect(holds("event.t matches 'trailing whitespace'", e)).toBe(false);
    expect(holds("event.n matches '42'", e)).toBe(true);
    expect(holds("event.o matches '{\"a\":1}'", e)).toBe(true);
    expect(holds("event.missing matches 'x'", e)).toBe(false);
    expect(holds("not event.missing matches 'x'", e)).toBe(true);
  });

  test("matches part: a substring, case-insensitive unless exactly", () => {
    expect(holds("event.s matches part 'prod'", { event: { s: "[PROD] Disk space low" } })).toBe(true);
    expect(holds("event.s matches part 'cpu'", { event: { s: "[TEST] CPU usage high" } })).toBe(true);
    expect(holds("event.s matches part 'disk'", { event: { s: "[PROD] Network down" } })).toBe(false);
    expect(holds("event.s matches part exactly 'prod'", { event: { s: "[PROD] Disk space low" } })).toBe(false);
  });

  test("matches regex: RE2 with i, s and m by default; exactly drops i; flags in the regex win", () => {
    const raw = { raw_event: { important_field: "This is an important value", another_field: "This has a newline\nin it" } };
    expect(holds("raw_event.important_field matches regex 'this'", raw)).toBe(true);
    expect(holds("raw_event.important_field matches regex exactly 'this'", raw)).toBe(false);
    expect(holds("raw_event.important_field matches regex exactly '(?i)this'", raw)).toBe(true);
    expect(holds("raw_event.important_field matches regex '(?-i)this'", raw)).toBe(false);
    expect(holds("raw_event.another_field matches regex '.in it'", raw)).toBe(true);
    expect(holds("raw_event.another_field matches regex '(?-s).in it'", raw)).toBe(false);
    expect(holds("raw_event.another_field matches regex '^in it'", raw)).toBe(true);
    expect(holds("raw_event.another_field matches regex '(?-m)^in it'", raw)).toBe(false);
    // RE2, not JavaScript: \Q...\E quotes, and a backreference would not even parse.
    expect(holds("raw_event.important_field matches regex '\\Q(an)\\E|important'", raw)).toBe(true);
    expect(pclProblem("raw_event.x matches regex '(a)\\\\1'")).toBeInstanceOf(PclError);
    // PCL's only escapes are \' and \\: a regex's other backslashes are written once.
    expect(holds("raw_event.n matches regex '^\\d+$'", { raw_event: { n: "123" } })).toBe(true);
  });

  test("exists: true for a path holding null; paths with brackets and indexes", () => {
    const d = {
      a: { b: null, c: 5 },
      raw_event: { links: [{ href: "https://diag.test/details" }] },
      event: { custom_details: { "system diagnosis": { f: "v" } } },
    };
    expect(holds("a.b exists", d)).toBe(true);
    expect(holds("a.c exists", d)).toBe(true);
    expect(holds("a.d exists", d)).toBe(false);
    expect(holds("raw_event.links[0].href matches 'https://diag.test/details'", d)).toBe(true);
    expect(holds("raw_event.links[1] exists", d)).toBe(false);
    expect(holds("event.custom_details['system diagnosis'].f matches 'v'", d)).toBe(true);
  });

  test("== compares without conversion; > >= < <= compare numbers or datetimes, anything else is a warned false", () => {
    const e = { event: { n: 3, s: "Abc" } };
    expect(holds("event.n == 3.0", e)).toBe(true);
    expect(holds("event.s == 'abc'", e)).toBe(false);
    expect(holds("event.n == '3'", e)).toBe(false);
    expect(holds("event.n >= 3 and event.n < 4 and event.n <= 3 and event.n > 2", e)).toBe(true);
    const mismatch = run("2 > 'two'");
    expect(mismatch.matched).toBe(false);
    expect(mismatch.warnings[0]).toMatch(/Type mismatch in 2 > 'two'.*number > string/);
    expect(holds("not 2 > 'two'")).toBe(true);
    expect(holds("2 >= 'two' or 2 < 10")).toBe(true);
    expect(holds("2 <= 'two' and 2 < 10")).toBe(false);
  });

  test("now and datetimes; a date range, both ends included", () => {
    const now = at("2026-01-01T12:00:00Z");
    expect(holds("now > 2020-01-01 00:00:00 Etc/UTC", {}, now)).toBe(true);
    expect(holds("now < 2026-01-01 08:00:00 America/New_York", {}, now)).toBe(true); // 13:00 UTC
    expect(holds("now in 2026-01-01 00:00:00 to 2026-01-02 00:00:00 UTC", {}, now)).toBe(true);
    expect(holds("now in 2026-01-01 12:00:01 to 2026-01-02 00:00:00 UTC", {}, now)).toBe(false);
    expect(holds("now in 2025-12-31 00:00:00 to 2026-01-01 12:00:00 UTC", {}, now)).toBe(true);
  });

  test("weekly schedules: the overview's Monday-noon-in-Los-Angeles example", () => {
    const mondayNoonLA = at("2022-01-03T20:00:00Z");
    expect(holds("now in Mon,Wed,Fri 01:00:00 to 15:00:00 America/Los_Angeles", {}, mondayNoonLA)).toBe(true);
    expect(holds("now in Mon,Wed,Fri 01:00:00 to 15:00:00 Etc/UTC", {}, mondayNoonLA)).toBe(false);
    // Overnight: Wed 22:00 through Thu 08:00.
    expect(holds("now in Wed 22:00:00 to 08:00:00 Etc/UTC", {}, at("2022-01-06T07:59:59Z"))).toBe(true);
    expect(holds("now in Wed 22:00:00 to 08:00:00 Etc/UTC", {}, at("2022-01-05T07:59:59Z"))).toBe(false);
    // Same start and end: 24 hours from each start day.
    expect(holds("now in Sat 12:00:00 to 12:00:00 Africa/Cairo", {}, at("2022-01-09T09:00:00Z"))).toBe(true); // Sun 11:00 Cairo
    expect(holds("now in Sat 12:00:00 to 12:00:00 Africa/Cairo", {}, at("2022-01-09T11:00:00Z"))).toBe(false); // Sun 13:00
  });

  test.each([
    // The overview's table for Sun 01:30:00 to 03:15:00 America/New_York as DST ends (2021-11-07)...
    ["2021-11-07T05:00:00Z", false],
    ["2021-11-07T05:30:00Z", true],
    ["2021-11-07T06:00:00Z", false],
    ["2021-11-07T06:15:00Z", false],
    ["2021-11-07T06:30:00Z", true],
    ["2021-11-07T08:00:00Z", true],
    ["2021-11-07T08:30:00Z", false],
    // ... and as DST starts (2021-03-14): 2 AM is skipped to 3 AM.
    ["2021-03-14T06:00:00Z", false],
    ["2021-03-14T06:30:00Z", true],
    ["2021-03-14T07:00:00Z", true],
    ["2021-03-14T07:15:00Z", true],
    ["2021-03-14T07:30:00Z", false],
  ])("schedule around daylight saving time, %s: %s", (utc, expected) => {
    expect(holds("now in Sun 01:30:00 to 03:15:00 America/New_York", {}, at(utc))).toBe(expected);
  });

  test("a bare value is the condition: true holds, anything else is false with a warning", () => {
    expect(holds("event.flag", { event: { flag: true } })).toBe(true);
    expect(run("event.flag", { event: { flag: "yes" } })).toEqual({
      matched: false,
      warnings: ["event.flag is string, not true or false (taken as false)"],
      reads: [{ what: "event.flag", found: true, value: "yes" }],
    });
  });

  test("trigger_count counts the current event; resetting_trigger_count starts again once its comparison holds", () => {
    const now = at("2026-01-01T00:00:00Z");
    const counts = [now - 5_000, now - 9_000, now - 20_000];
    const c = ctx({}, now, counts);
    const e = "trigger_count over 10 seconds > 2";
    expect(evaluateCondition(e, parsePcl(e), c).matched).toBe(true); // 2 earlier + this one
    expect(evaluateCondition("trigger_count over 10 seconds > 3", parsePcl("trigger_count over 10 seconds > 3"), c).matched).toBe(false);
    const r = "resetting_trigger_count over 1 minute > 3";
    expect(evaluateCondition(r, parsePcl(r), c).matched).toBe(true);
    expect(counts).toEqual([]);
    expect(evaluateCondition(r, parsePcl(r), c).matched).toBe(false);
  });
});

test("templates: paths in double braces; a missing or broken one renders as nothing, with a warning", () => {
  const root = (n: string) => ({ variables: { ip: "10.0.0.1", subnet: 24 }, event: { severity: "critical", summary: "Disk" } })[n] ?? MISSING;
  expect(renderTemplate("{{variables.ip}}/{{variables.subnet}}", root)).toEqual({ text: "10.0.0.1/24", warnings: [] });
  expect(renderTemplate("{{event.severity}}:{{ event.summary }}", root).text).toBe("critical:Disk");
  expect(renderTemplate("host {{variables.host}}!", root)).toEqual({ text: "host !", warnings: ["{{variables.host}} does not exist (rendered as nothing)"] });
  expect(renderTemplate("{{not a path}}", root).warnings[0]).toMatch(/is not a path/);
});

// provider/cli/routing-time.ts and routing-run.ts: a recorded file's times moved to the emulator's
// clock by whole weeks of 7 × 24 hours: the earliest lands at or after the clock, every instant
// moves as much (gaps kept to the millisecond), the UTC weekday and time stay; across a change of
// daylight saving the local time of a zone with one moves by the hour (the choice the docs state).
import type { CaseFile, RoutingCase } from "../../../../provider/cli/routing-cases";
import { casesAtClock, checkTimes } from "../../../../provider/cli/routing-run";
import { parseCaseTime, type CaseTime, WEEK_MS, weeksToClock } from "../../../../provider/cli/routing-time";

const instant = (iso: string): CaseTime => ({ kind: "instant", ms: Date.parse(iso) });
const oneCase = (name: string, at?: CaseTime): RoutingCase => ({
  name,
  integration: "monitoring",
  ...(at ? { at } : {}),
  event: { event_action: "trigger", summary: "s", source: "x", severity: "error" },
  expect: { outcome: "incident" },
});
const RECORDED = { from: "https://api.pagerduty.com", at: "2026-03-10T00:00:00Z", since: "2026-03-01T00:00:00Z", until: "2026-03-10T00:00:00Z", services: [] };
const times = (cases: RoutingCase[]) => cases.map((c) => (c.at?.kind === "instant" ? new Date(c.at.ms).toISOString() : c.at));
const london = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);

test("whole weeks: none when the earliest is already at or after the clock, else the fewest that reach it", () => {
  const t = Date.parse("2026-03-02T06:00:00Z");
  expect(weeksToClock(t, t)).toBe(0);
  expect(weeksToClock(t + 1, t)).toBe(0);
  expect(weeksToClock(t, t + 1)).toBe(1);
  expect(weeksToClock(t, t + WEEK_MS)).toBe(1);
  expect(weeksToClock(t, t + WEEK_MS + 1)).toBe(2);
});

test("a recorded file: every instant moves by the same whole weeks, the earliest at or after the clock; wall-clock times and untimed cases stay", () => {
  const file: CaseFile = {
    recorded: RECORDED,
    cases: [
      oneCase("a", instant("2026-03-02T06:00:00Z")), // a Monday
      oneCase("b"),
      oneCase("c", instant("2026-03-02T06:09:30.250Z")),
      oneCase("d", parseCaseTime("Sat 03:00 Europe/London") as CaseTime),
      oneCase("e", instant("2026-03-07T23:59:00Z")),
    ],
  };
  const now = Date.parse("2026-12-01T16:00:00Z"); // a Tuesday, 39 weeks and a day after the first
  const moved = casesAtClock(file, now);
  expect(times(moved)).toEqual([
    "2026-12-07T06:00:00.000Z", // the next Monday 06:00 UTC: 40 weeks on
    undefined,
    "2026-12-07T06:09:30.250Z",
    { kind: "wall", day: 6, seconds: 3 * 3600, zone: "Europe/London" },
    "2026-12-12T23:59:00.000Z",
  ]);
  expect(() => checkTimes(moved, now)).not.toThrow();
  // Unshifted, the same file could not run: its instants are behind the clock.
  expect(() => checkTimes(file.cases, now)).toThrow(/cases\[0\]\.at: 2026-03-02T06:00:00\.000Z is before the emulator's clock/);
});

test("a file without a recorded block keeps its instants, unless every file's are to move (replay)", () => {
  const file: CaseFile = { cases: [oneCase("a", instant("2026-03-02T06:00:00Z"))] };
  const now = Date.parse("2026-12-01T16:00:00Z");
  expect(times(casesAtClock(file, now))).toEqual(["2026-03-02T06:00:00.000Z"]);
  expect(times(casesAtClock(file, now, true))).toEqual(["2026-12-07T06:00:00.000Z"]);
});

test("across a change of daylight saving: the UTC time and the gaps stay, London's local time moves by the hour", () => {
  // Recorded in summer (BST, UTC+1): Monday 08:30 and 09:10 in London.
  const file: CaseFile = { recorded: RECORDED, cases: [oneCase("a", instant("2026-07-06T07:30:00Z")), oneCase("b", instant("2026-07-06T08:10:00Z"))] };
  const moved = casesAtClock(file, Date.parse("2026-11-30T00:00:00Z")).map((c) => (c.at as { ms: number }).ms);
  expect(moved.map((ms) => new Date(ms).toISOString())).toEqual(["2026-11-30T07:30:00.000Z", "2026-11-30T08:10:00.000Z"]);
  expect(moved[1] - moved[0]).toBe(40 * 60_000);
  expect([london(Date.parse("2026-07-06T07:30:00Z")), london(moved[0])]).toEqual(["Mon 08:30", "Mon 07:30"]);
  // A recorded pair astride the change itself (London: 01:00 BST → 01:00 GMT on 2026-10-25) keeps its gap too.
  const astride: CaseFile = { recorded: RECORDED, cases: [oneCase("a", instant("2026-10-24T23:30:00Z")), oneCase("b", instant("2026-10-25T01:30:00Z"))] };
  const [x, y] = casesAtClock(astride, Date.parse("2027-01-01T00:00:00Z")).map((c) => (c.at as { ms: number }).ms);
  expect(y - x).toBe(2 * 3600_000);
  expect(new Date(x).getUTCDay()).toBe(6);
});

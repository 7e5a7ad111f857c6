// provider/cli/routing-time.ts: a case's `at`, a wall-clock time in a zone resolved to the next such
// instant at or after the emulator's clock, or an ISO 8601 instant as it is.
import { parseCaseTime, resolveCaseTime, type CaseTime } from "../../../../provider/cli/routing-time";

const at = (text: string, now: string) => new Date(resolveCaseTime(parseCaseTime(text) as CaseTime, Date.parse(now))).toISOString();

test("a weekday and time in a zone: the next one at or after the clock, in the zone's wall-clock time", () => {
  // 2026-11-27 is a Friday; London is on GMT in winter, on BST (UTC+1) in summer.
  expect(at("Sat 03:00 Europe/London", "2026-11-27T12:00:00Z")).toBe("2026-11-28T03:00:00.000Z");
  expect(at("Sat 03:00 Europe/London", "2026-07-03T12:00:00Z")).toBe("2026-07-04T02:00:00.000Z");
  expect(at("Fri 12:00:30 Europe/London", "2026-11-27T12:00:00Z")).toBe("2026-11-27T12:00:30.000Z");
  // Just past it: a week later.
  expect(at("Fri 12:00 Europe/London", "2026-11-27T12:00:01Z")).toBe("2026-12-04T12:00:00.000Z");
  expect(at("Mon 09:00 America/New_York", "2026-11-27T12:00:00Z")).toBe("2026-11-30T14:00:00.000Z");
  expect(at("Mon 09:00 Asia/Kolkata", "2026-11-27T12:00:00Z")).toBe("2026-11-30T03:30:00.000Z");
});

test("a time without a day: the next one, today or tomorrow; across a change of offset the day's own offset", () => {
  expect(at("23:30 UTC", "2026-11-27T12:00:00Z")).toBe("2026-11-27T23:30:00.000Z");
  expect(at("03:00 UTC", "2026-11-27T12:00:00Z")).toBe("2026-11-28T03:00:00.000Z");
  // London goes back to GMT on 2026-10-25 at 02:00 BST: noon that day is 12:00 UTC, the day before 11:00 UTC.
  expect(at("12:00 Europe/London", "2026-10-24T12:00:00Z")).toBe("2026-10-25T12:00:00.000Z");
  expect(at("12:00 Europe/London", "2026-10-24T10:00:00Z")).toBe("2026-10-24T11:00:00.000Z");
});

test("an ISO 8601 instant with a zone is taken as it is (the command refuses one before the clock)", () => {
  expect(at("2026-12-05T03:00:00Z", "2030-01-01T00:00:00Z")).toBe("2026-12-05T03:00:00.000Z");
  expect(at("2026-12-05T03:00:00+01:00", "2026-01-01T00:00:00Z")).toBe("2026-12-05T02:00:00.000Z");
});

test.each([
  ["Someday 03:00 UTC", /is neither "\[Day\] HH:MM\[:SS\] Zone"/],
  ["03:00", /is neither/],
  ["2026-12-05T03:00:00", /is neither/], // no zone: whose 03:00?
  ["25:00 UTC", /25:00 is not a time of day/],
  ["Sat 03:00 Mars/Olympus", /"Mars\/Olympus" is not a time zone/],
])("%s is refused, saying why", (text, message) => {
  expect(parseCaseTime(text)).toMatch(message);
});

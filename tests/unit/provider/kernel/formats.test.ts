// The value formats checked at preview: what the service would refuse fails here, with the reason.
import { clockTime, timeZone } from "../../../../provider/kernel/formats";

const problem = (schema: typeof timeZone | typeof clockTime, value: string) => {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues.map((i) => i.message).join("; ");
};

test.each(["Europe/Berlin", "UTC", "Etc/UTC", "US/Eastern", "Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires"])(
  "the IANA name or link %s is a time zone",
  (zone) => expect(problem(timeZone, zone)).toBeUndefined(),
);

test.each([
  ["Mars/Olympus", '"Mars/Olympus" is not a time zone: use an IANA name such as "Europe/Berlin" or "UTC"'],
  ["", '"" is not a time zone: use an IANA name such as "Europe/Berlin" or "UTC"'],
  ["+01:00", '"+01:00" is not a time zone: use an IANA name such as "Europe/Berlin" or "UTC"'],
  ["europe/berlin", '"europe/berlin" is not a time zone: names are case-sensitive: "Europe/Berlin"'],
])("%j is refused with the reason", (zone, message) => expect(problem(timeZone, zone)).toBe(message));

test.each(["00:00:00", "09:30:00", "23:59:59"])("%s is a time of day", (t) => expect(problem(clockTime, t)).toBeUndefined());

test.each(["25:00:00", "24:00:00", "12:60:00", "12:00:60", "9:00:00", "09:00"])("%s is not a time of day", (t) =>
  expect(problem(clockTime, t)).toBe('must be a time of day "HH:MM:SS" from 00:00:00 to 23:59:59'),
);

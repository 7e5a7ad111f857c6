// PCL's time conditions, judged on the wall clock of a time zone as PCL does (daylight saving time
// included: its overview's tables of the hours around a change are the tests): weekly schedules
// (`now in Mon,Tue 09:00:00 to 17:00:00 America/New_York`) and local datetimes
// (`2026-01-01 00:00:00 UTC`), both read with the ICU time zone data Node ships.
import type { WeeklySchedule } from "./pcl-ast";

export const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, f);
  }
  return f;
}

interface Wall {
  day: number;
  seconds: number;
  asUtc: number;
}

/** The rules of one event ask the same zones at the same second: keep the last answers. */
const recent = new Map<string, Wall>();

/** What a wall clock in `zone` shows at `at` (epoch ms): the day (0 = Monday), seconds after midnight, and that instant read as UTC. */
export function wallClock(at: number, zone: string): Wall {
  const key = `${zone} ${Math.floor(at / 1000)}`;
  let w = recent.get(key);
  if (!w) {
    if (recent.size > 256) recent.clear();
    recent.set(key, (w = readWallClock(at, zone)));
  }
  return w;
}

function readWallClock(at: number, zone: string): Wall {
  const parts: Record<string, string> = {};
  for (const p of format(zone).formatToParts(new Date(at))) parts[p.type] = p.value;
  const seconds = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) + seconds * 1000;
  return { day: DAY_NAMES.indexOf(parts.weekday), seconds, asUtc };
}

/**
 * The instant a wall clock in `zone` shows `local` (the date and time read as if UTC, epoch ms).
 * A time the clocks skip or show twice takes the offset in force just before the change.
 */
export function instantOf(local: number, zone: string): number {
  const offsetAt = (t: number) => wallClock(t, zone).asUtc - Math.floor(t / 1000) * 1000;
  const first = local - offsetAt(local);
  return local - offsetAt(first);
}

/**
 * Whether `at` falls within a weekly schedule. Times are wall-clock times in the schedule's zone;
 * the end is inclusive (PCL's table: `Sun 01:30:00 to 03:15:00` matches at 03:15 EDT). An end
 * earlier than the start ends on the next day; an end equal to the start makes 24 hours.
 */
export function inSchedule(s: WeeklySchedule, at: number): boolean {
  const { day, seconds } = wallClock(at, s.zone);
  const today = s.days.includes(day);
  if (s.start < s.end) return today && seconds >= s.start && seconds <= s.end;
  const yesterday = s.days.includes((day + 6) % 7);
  return (today && seconds >= s.start) || (yesterday && seconds <= s.end);
}

/** `HH:MM:SS` as seconds after midnight, or undefined when it is not a time of day. */
export function timeOfDay(text: string): number | undefined {
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h < 24 && min < 60 && s < 60 ? h * 3600 + min * 60 + s : undefined;
}

/** `YYYY-MM-DD` plus seconds of the day as epoch ms read as UTC, or undefined when no such date. */
export function localDate(date: string, seconds: number): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(t).toISOString().slice(0, 10) !== date) return undefined;
  return t + seconds * 1000;
}

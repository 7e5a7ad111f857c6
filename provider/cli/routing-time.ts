// When a routing case happens: its `at` moves the emulator's clock, which only goes forward, so a
// case names a wall-clock time ("Sat 03:00 Europe/London": the next Saturday 03:00 in London after
// the clock) rather than a date that a later run would find in the past. An ISO 8601 instant with a
// zone is taken as it is and must not be before the clock. Zones are IANA names, read with Intl.

import { ISO_INSTANT } from "../kernel/formats";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const WALL = /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(\S+)$/;

/** A case's time: the instant it resolves to, given the emulator's clock (epoch ms). */
export type CaseTime = { kind: "instant"; ms: number } | { kind: "wall"; day?: number; seconds: number; zone: string };

/** The problem with `text` as a case's `at`, or its meaning. */
export function parseCaseTime(text: string): CaseTime | string {
  const t = text.trim();
  if (ISO_INSTANT.test(t)) {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? `"${t}" is not a date and time` : { kind: "instant", ms };
  }
  const m = WALL.exec(t);
  if (!m) return `"${t}" is neither "[Day] HH:MM[:SS] Zone" (e.g. "Sat 03:00 Europe/London") nor an ISO 8601 instant with a zone (e.g. "2026-12-05T03:00:00Z")`;
  const [, day, h, min, sec, zone] = m;
  if (Number(h) > 23 || Number(min) > 59 || Number(sec ?? 0) > 59) return `"${t}": ${h}:${min}${sec ? `:${sec}` : ""} is not a time of day`;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return `"${t}": "${zone}" is not a time zone (an IANA name such as Europe/London or UTC)`;
  }
  return {
    kind: "wall",
    ...(day ? { day: DAYS.indexOf(day as (typeof DAYS)[number]) } : {}),
    seconds: Number(h) * 3600 + Number(min) * 60 + Number(sec ?? 0),
    zone,
  };
}

/** The wall clock of `zone` at `ms`: its date as UTC fields, its weekday. */
function wallClock(ms: number, zone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number; weekday: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    y: Number(get("year")),
    mo: Number(get("month")) - 1,
    d: Number(get("day")),
    h: Number(get("hour")),
    mi: Number(get("minute")),
    s: Number(get("second")),
    weekday: DAYS.indexOf(get("weekday") as (typeof DAYS)[number]),
  };
}

/** How far `zone` is ahead of UTC at `ms`. */
function offsetAt(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return Date.UTC(w.y, w.mo, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000;
}

/** The instant a local date and time of `zone` names (in a daylight saving gap: the hour after). */
function instantOf(y: number, mo: number, d: number, seconds: number, zone: string): number {
  const local = Date.UTC(y, mo, d) + seconds * 1000;
  const guess = local - offsetAt(local, zone);
  return local - offsetAt(guess, zone);
}

/** The instant `time` names, given the clock `now`: an instant as it is, a wall-clock time the next one at or after `now`. */
export function resolveCaseTime(time: CaseTime, now: number): number {
  if (time.kind === "instant") return time.ms;
  const today = wallClock(now, time.zone);
  for (let ahead = 0; ahead <= 8; ahead++) {
    const date = new Date(Date.UTC(today.y, today.mo, today.d + ahead));
    if (time.day !== undefined && date.getUTCDay() !== time.day) continue;
    const at = instantOf(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), time.seconds, time.zone);
    if (at >= now) return at;
  }
  throw new Error(`no ${time.seconds} s past midnight in ${time.zone} within 8 days`); // unreachable: every week has the day
}

/** A week: recorded times move by whole ones, so the weekday and the UTC time of day stay as recorded. */
export const WEEK_MS = 7 * 24 * 3600_000;

/**
 * How many whole weeks a recorded file's instants move so the earliest lands at or after `now`
 * (none when it already does). Weeks of exactly 7 × 24 hours keep the gaps between events to the
 * millisecond (cache-variable windows, dedup) and the UTC weekday and time; in a zone with daylight
 * saving the local time is an hour off when the recorded and replayed weeks lie on different sides
 * of a change (docs/testing-routing.md, "Replay and diff").
 */
export function weeksToClock(earliest: number, now: number): number {
  return earliest >= now ? 0 : Math.ceil((now - earliest) / WEEK_MS);
}

/** `time` moved `weeks` weeks on: an instant moves, a wall-clock time already names the next one. */
export const shiftedTime = (time: CaseTime, weeks: number): CaseTime => (time.kind === "instant" ? { kind: "instant", ms: time.ms + weeks * WEEK_MS } : time);

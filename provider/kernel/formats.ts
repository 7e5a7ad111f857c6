// Value formats more than one resource checks at preview, so the message a user sees names the
// program's field (`supportHours.startTime`), not the API's, and nothing is created first.
import { z } from "zod";

/**
 * Whether Node's ICU data knows `name` as an IANA name or link (case-insensitively). An offset
 * ("+01:00") is no name: Intl takes it since Node.js 22 (ECMA-402's offset time zones), PagerDuty not.
 */
function knownZone(name: string): boolean {
  if (/^[+\-\u2212]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** ICU's canonical names by their lower case, built on first use. */
let canonical: Map<string, string> | undefined;

/**
 * The right spelling of a canonical name written in another case ("europe/berlin"): ICU takes any
 * case, PagerDuty's lookup (tzinfo) only the exact one. Links in another case pass unnoticed.
 */
function otherCaseOf(name: string): string | undefined {
  canonical ??= new Map(Intl.supportedValuesOf("timeZone").map((n) => [n.toLowerCase(), n]));
  const exact = canonical.get(name.toLowerCase());
  return exact !== undefined && exact !== name ? exact : undefined;
}

/**
 * A time zone PagerDuty stores: an IANA name or one of its links ("Europe/Berlin", "UTC",
 * "US/Eastern"), as Node's ICU data knows them. (The service also takes ActiveSupport's display
 * names such as "Eastern Time (US & Canada)"; the IANA name is the portable spelling.)
 */
export const timeZone = z.string().superRefine((name, ctx) => {
  const exact = knownZone(name) ? otherCaseOf(name) : null;
  if (exact === undefined) return;
  const fix = exact === null ? 'use an IANA name such as "Europe/Berlin" or "UTC"' : `names are case-sensitive: "${exact}"`;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(name)} is not a time zone: ${fix}` });
});

/** A time of day "HH:MM:SS", 00:00:00 to 23:59:59. */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be a time of day "HH:MM:SS" from 00:00:00 to 23:59:59');

/** ISO 8601 date and time with seconds optional, a fraction, and an offset or Z (RFC 3339's profile, minutes optional). */
export const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an ISO 8601 time with an offset names (epoch ms), or undefined when it is not one: a
 * day the month lacks (Date.parse rolls "02-30" over into March) and a time without an offset (which
 * PagerDuty would read in the account's zone) are not.
 */
export function instantOf(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const [offsetHours, offsetMinutes] = [Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

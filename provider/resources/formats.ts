// Value formats more than one resource checks at preview, so the message a user sees names the
// program's field (`supportHours.startTime`), not the API's, and nothing is created first.
import { z } from "zod";

/**
 * A time zone the service stores: an IANA name or one of its links ("Europe/Berlin", "UTC",
 * "US/Eastern"), as Node's ICU data knows them. (The service also takes ActiveSupport's display
 * names such as "Eastern Time (US & Canada)"; the IANA name is the portable spelling.)
 */
export const timeZone = z.string().refine(
  (name) => {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone.length > 0;
    } catch {
      return false;
    }
  },
  (name) => ({ message: `${JSON.stringify(name)} is not a time zone: use an IANA name such as "Europe/Berlin" or "UTC"` }),
);

/** A time of day "HH:MM:SS", 00:00:00 to 23:59:59. */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be a time of day "HH:MM:SS" from 00:00:00 to 23:59:59');

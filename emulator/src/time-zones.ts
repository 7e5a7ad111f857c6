// Time zone names the emulator accepts: IANA names and their links (the ICU data Node ships knows
// both: "America/Lima", "UTC", "Etc/UTC", "US/Eastern"). The service also accepts ActiveSupport's
// display names ("Eastern Time (US & Canada)"); the emulator does not know those (REJECTIONS.md).

/** Whether `name` is a time zone the emulator knows. */
export function isTimeZone(name: string): boolean {
  // Intl takes an offset ("+01:00") as a zone since Node.js 22 (ECMA-402's offset time zones); tzinfo does not.
  if (/^[+\-\u2212]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

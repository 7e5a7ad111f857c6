// What `pagerduty-routing-test record` leaves out of the events it writes: a case file is committed
// and read in pull requests, and a real account's events carry credentials and personal data. The
// rule, field by field of the event (its PD-CEF fields and custom details, at any depth):
//   - a custom detail whose key names a credential (password, secret, token, api key, authorization,
//     cookie, session, private key, signature, routing or integration key) loses its value;
//   - one whose key names personal data (email, phone, user name, address, IP address) loses it too;
//   - in every remaining text: email addresses, bearer and `token=` credentials, the user:password
//     part of URLs, IPv4 and IPv6 addresses are cut out.
// What goes is replaced by a marker saying what was removed (`[redacted: email]`), so a reader sees
// the shape and knows the value was there. `--keep-fields` names paths written verbatim. The dedup
// key is redacted the same way, but each removed value's marker carries a short keyed hash of it,
// so two events with one key still share it, and two keys stay two.
import { createHmac, randomBytes } from "node:crypto";

/** Why a value was removed: the marker's word. */
export type Removed = "credential" | "personal data" | "email" | "token" | "url credentials" | "ip address";

const CREDENTIAL_KEY = new RegExp(
  [
    "pass(word|wd|phrase)?$",
    "secret",
    "token",
    "api[-_]?key",
    "auth(orization)?$",
    "cookie",
    "session",
    "private[-_]?key",
    "access[-_]?key",
    "^pwd$",
    "signature",
    "credential",
    "(routing|integration)[-_]?key",
  ].join("|"),
  "i",
);
const PERSONAL_KEY = /e-?mail|phone|mobile|^(user(_?name)?|login|owner|full_?name|first_?name|last_?name)$|address|^ip$|[-_]ip$|^client_?ip/i;

/** Each pattern in text, in the order they are applied (URL credentials before emails: `user:pw@host` looks like one). */
const IN_TEXT: readonly [Removed, RegExp][] = [
  ["url credentials", /(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+(?=@)/gi],
  ["token", /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi],
  // `token=`, `access_token=`, `api_key:`, `password=` ... wherever they stand (`_` is a word character, so no \b).
  ["token", /(?<![A-Za-z0-9])(access_?token|refresh_?token|token|api[-_]?key|apikey|password|passwd|pwd|secret|client_?secret)[=:]\s*[^\s&"',;]{4,}/gi],
  ["email", /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+/g],
  ["ip address", /\b(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/g],
  ["ip address", /\b([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|\b([0-9a-f]{1,4}:){1,6}:([0-9a-f]{1,4}(:[0-9a-f]{1,4}){0,5})?\b/gi],
];

export const marker = (why: Removed, tag?: string): string => `[redacted: ${why}${tag ? ` ${tag}` : ""}]`;

export interface Redactor {
  /** The event with what the rule removes replaced by markers, and what was removed (counts by kind). */
  event<T extends Record<string, unknown>>(event: T): T;
  /** Free text (a note the rules wrote, which may quote the event) with what the text rule removes replaced. */
  text(s: string): string;
  /** What was removed so far, by kind. */
  readonly removed: ReadonlyMap<Removed, number>;
}

/** A path of `--keep-fields` as the event names it: `source`, `custom_details.user.email`. */
export function checkKeptField(path: string): string | undefined {
  if (!/^[A-Za-z_][\w-]*(\.[\w-]+)*$/.test(path)) return `"${path}" is not a field path (e.g. source or custom_details.user_email)`;
  return undefined;
}

/**
 * A redactor for one recording: `keep` the paths kept verbatim; `key` keys the hashes of dedup keys
 * (random by default, so they cannot be matched across recordings or guessed back from a file).
 */
export function redactor(keep: readonly string[] = [], key: Buffer = randomBytes(32)): Redactor {
  const removed = new Map<Removed, number>();
  const count = (why: Removed) => removed.set(why, (removed.get(why) ?? 0) + 1);
  const kept = (path: string) => keep.some((k) => path === k || path.startsWith(`${k}.`));
  const tag = (value: string) => createHmac("sha256", key).update(value).digest("hex").slice(0, 8);

  const text = (s: string, path: string, tagged: boolean): string => {
    if (kept(path)) return s;
    let out = s;
    for (const [why, re] of IN_TEXT)
      out = out.replace(re, (m) => {
        count(why);
        return marker(why, tagged ? tag(m) : undefined);
      });
    return out;
  };

  const whole = (why: Removed): string => {
    count(why);
    return marker(why);
  };

  const value = (v: unknown, path: string, inDetails: boolean): unknown => {
    if (kept(path)) return v;
    if (typeof v === "string") return text(v, path, false);
    if (Array.isArray(v)) return v.map((x, i) => value(x, `${path}.${i}`, inDetails));
    if (v && typeof v === "object")
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => {
          const p = `${path}.${k}`;
          if (inDetails && !kept(p) && x !== null && x !== "") {
            if (CREDENTIAL_KEY.test(k)) return [k, whole("credential")];
            if (PERSONAL_KEY.test(k)) return [k, whole("personal data")];
          }
          return [k, value(x, p, inDetails)];
        }),
      );
    return v;
  };

  return {
    removed,
    text: (s) => text(s, "", false),
    event(e) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e)) {
        if (k === "dedup_key" && typeof v === "string") out[k] = text(v, k, true);
        else if (k === "custom_details") out[k] = value(v, k, true);
        else out[k] = value(v, k, false);
      }
      return out as typeof e;
    },
  };
}

// Reads the API's error body `{"error": {"message", "code", "errors"}}` while tolerating what
// proxies and older endpoints send instead: `errors` as a string, array or map, or no JSON at all.
import { redactDeep, scrub } from "../errors";

export interface ParsedError {
  apiCode?: number;
  apiMessage?: string;
  errors: string[];
  /** The body as kept on the error: parsed JSON with secrets masked, or scrubbed text. */
  body: unknown;
}

const MAX_TEXT = 300;
const MAX_ERRORS = 10;

/** `secrets` are values the caller sent (the access token); PagerDuty might echo them. */
export function parseErrorBody(text: string, secrets: readonly string[] = []): ParsedError {
  const clean = (s: string) => truncate(scrub(s, secrets).replace(/\s+/g, " ").trim());
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const plain = clean(text.replace(/<[^>]*>/g, " "));
    return { errors: [], body: plain, ...(plain ? { apiMessage: plain } : {}) };
  }
  const root = isRecord(json) ? json : {};
  const error = root.error;
  const detail = isRecord(error) ? error : {};
  const message = typeof error === "string" ? error : stringOf(detail.message ?? root.message);
  const code = Number(detail.code ?? root.code);
  const errors = [...flatten(detail.errors ?? root.errors)];
  const required = [...flatten(detail.required_scopes ?? root.required_scopes)];
  if (required.length) errors.push(`required scopes: ${required.join(" ")}`);
  const parsed: ParsedError = {
    errors: errors.slice(0, MAX_ERRORS).map(clean),
    body: redactDeep(json, secrets),
  };
  if (message) parsed.apiMessage = clean(message);
  if (Number.isInteger(code)) parsed.apiCode = code;
  return parsed;
}

/** Strings from a string, an array, or a map of field → message(s) ("name can't be blank"). */
function* flatten(v: unknown, prefix = ""): Generator<string> {
  if (v === undefined || v === null) return;
  if (Array.isArray(v)) {
    for (const item of v) yield* flatten(item, prefix);
  } else if (isRecord(v)) {
    for (const [k, item] of Object.entries(v)) yield* flatten(item, `${prefix}${k} `);
  } else {
    yield prefix + stringOf(v);
  }
}

function stringOf(v: unknown): string {
  return typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function truncate(s: string): string {
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
}

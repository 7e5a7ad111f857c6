// The case file of pagerduty-routing-test: YAML (JSON is YAML too, so one parser reads both), each
// case an integration, an event and what should come of it. Every mistake is found before any event
// is sent and names the field (`cases[2].expect.urgency: ...`); the file is read whole or not at all.
import { readFileSync } from "node:fs";
import { CORE_SCHEMA, load, YAMLException } from "js-yaml";
import { z } from "zod";
import { PagerDutyError } from "../errors";
import { propertyPath } from "../kernel/check";
import { type CaseTime, parseCaseTime } from "./routing-time";

/** A case file that cannot be run: nothing was sent. */
export class CasesError extends PagerDutyError {
  constructor(message: string) {
    super("ERR_CASES", message);
    this.name = "CasesError";
  }
}

const SEVERITIES = ["critical", "error", "warning", "info"] as const;

/**
 * What a case may expect of the outcome: the trace's outcome kinds, plus `incident` (opened or
 * joined) and `held` (suspended), the words a reader of the rules uses.
 */
export const OUTCOMES = [
  "incident",
  "incident_opened",
  "alert_added_to_incident",
  "suppressed",
  "held",
  "suspended",
  "dropped",
  "deduplicated",
  "acknowledged",
  "resolved",
  "no_open_alert",
  "ignored",
] as const;

const text = z.string().min(1, "must not be empty");
/** A name or an id, or null for none. */
const named = text.nullable();

const event = z
  .object({
    event_action: z.enum(["trigger", "acknowledge", "resolve"]).default("trigger"),
    dedup_key: text.max(255, "must be at most 255 characters").optional(),
    summary: text.max(1024, "must be at most 1024 characters").optional(),
    source: text.optional(),
    severity: z.enum(SEVERITIES).optional(),
    timestamp: text.optional(),
    component: text.optional(),
    group: text.optional(),
    class: text.optional(),
    custom_details: z.record(z.unknown()).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.event_action !== "trigger") {
      if (!e.dedup_key) ctx.addIssue({ code: "custom", path: ["dedup_key"], message: `is required when event_action is "${e.event_action}"` });
      return;
    }
    for (const field of ["summary", "source", "severity"] as const)
      if (e[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "is required for a trigger event (the Events API refuses one without it)" });
  });

const expectation = z
  .object({
    outcome: z.enum(OUTCOMES).optional(),
    service: text.optional(),
    severity: z.enum(SEVERITIES).optional(),
    urgency: z.enum(["high", "low"]).optional(),
    priority: named.optional(),
    escalation_policy: named.optional(),
    annotations: z.array(z.string()).optional(),
    summary: z.string().optional(),
    event_action: z.enum(["trigger", "acknowledge", "resolve"]).optional(),
    dedup_key: text.optional(),
    suspend: z.number().int().positive().nullable().optional(),
    incident_custom_fields: z.record(z.string()).optional(),
    variables: z.record(z.string()).optional(),
  })
  .strict()
  .refine((x) => Object.keys(x).length > 0, "names nothing to check (outcome, severity, urgency, ...)");

export type Expectation = z.infer<typeof expectation>;

const timeOfCase = text.transform((t, ctx): CaseTime => {
  const parsed = parseCaseTime(t);
  if (typeof parsed === "string") {
    ctx.addIssue({ code: "custom", message: parsed });
    return z.NEVER;
  }
  return parsed;
});

const oneCase = z
  .object({
    name: text,
    integration: text.optional(),
    at: timeOfCase.optional(),
    event,
    expect: expectation,
  })
  .strict();

/**
 * Where and when a file's cases were recorded (`pagerduty-routing-test record`): its events happened
 * at the instants their `at` gives, in the past, and the expectations are what PagerDuty did.
 */
const recorded = z
  .object({
    /** The REST API the events were read from (its origin, never a credential). */
    from: text,
    /** When the file was written (ISO 8601). */
    at: text,
    /** The window the events were read over (ISO 8601 instants). */
    since: text,
    until: text,
    /** The services read, by id, with the name each had. */
    services: z.array(z.object({ id: text, name: text.nullable() }).strict()),
    /** The event fields kept unredacted (`--keep-fields`). */
    kept_fields: z.array(text).optional(),
  })
  .strict();

export type Recorded = z.infer<typeof recorded>;

const caseFile = z
  .object({
    recorded: recorded.optional(),
    /** The integration of every case that names none. */
    integration: text.optional(),
    cases: z.array(oneCase).min(1, "must list at least one case"),
  })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.cases.forEach((c, i) => {
      if (!c.integration && !f.integration)
        ctx.addIssue({ code: "custom", path: ["cases", i, "integration"], message: "is required (or give a top-level integration for every case)" });
      if (seen.has(c.name)) ctx.addIssue({ code: "custom", path: ["cases", i, "name"], message: `"${c.name}" names an earlier case too` });
      seen.add(c.name);
    });
  });

export type RoutingEvent = z.infer<typeof event>;

export interface RoutingCase {
  name: string;
  /** A stack output or a ServiceIntegration's resource name. */
  integration: string;
  at?: CaseTime;
  event: RoutingEvent;
  expect: Expectation;
}

/** A case file: its cases and, for a recorded one, where and when it was recorded. */
export interface CaseFile {
  recorded?: Recorded;
  cases: RoutingCase[];
}

/** The cases of a file's text; `file` names it in errors. */
export function parseCases(source: string, file: string): RoutingCase[] {
  return parseCaseFile(source, file).cases;
}

/** A case file's text read whole; `file` names it in errors. */
export function parseCaseFile(source: string, file: string): CaseFile {
  let doc: unknown;
  try {
    // The core schema: no YAML timestamps, so an unquoted `at: 2026-12-05T03:00:00Z` stays the text it reads as.
    doc = load(source, { filename: file, schema: CORE_SCHEMA });
  } catch (e) {
    throw new CasesError(
      e instanceof YAMLException ? `${file} is not valid YAML or JSON: ${e.reason} (line ${e.mark.line + 1}, column ${e.mark.column + 1})` : String(e),
    );
  }
  if (doc === undefined || doc === null) throw new CasesError(`${file} is empty: it lists no cases`);
  const parsed = caseFile.safeParse(doc);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${propertyPath(i.path) || "(the file)"}${caseLabel(doc, i.path)}: ${i.message}`);
    throw new CasesError(`${file} has ${problems.length === 1 ? "a mistake" : `${problems.length} mistakes`}; nothing was sent:\n${problems.join("\n")}`);
  }
  const cases = parsed.data.cases.map((c) => ({ ...c, integration: (c.integration ?? parsed.data.integration)! }));
  return { ...(parsed.data.recorded ? { recorded: parsed.data.recorded } : {}), cases };
}

/**
 * Which case a mistake is in, as the table and the failures count them (from 1) and with its name:
 * ` (case 3, "db pages")` after `cases[2]...`, whose index counts from 0 as the file's path does.
 */
function caseLabel(doc: unknown, path: readonly PropertyKey[]): string {
  if (path[0] !== "cases" || typeof path[1] !== "number") return "";
  const entry = (doc as { cases?: unknown[] }).cases?.[path[1]] as { name?: unknown } | undefined;
  const name = typeof entry?.name === "string" && entry.name.trim() ? `, ${JSON.stringify(entry.name)}` : "";
  return ` (case ${path[1] + 1}${name})`;
}

/** The cases of a file. */
export function readCases(file: string): RoutingCase[] {
  return readCaseFile(file).cases;
}

/** A case file, read whole. */
export function readCaseFile(file: string): CaseFile {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (e) {
    throw new CasesError(`cannot read the case file ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  return parseCaseFile(source, file);
}

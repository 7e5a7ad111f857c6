// The fidelity corpus: every routing behaviour the emulator implements, each with the PagerDuty page
// (and section) it follows, or, where the pages are silent, the emulator's choice and why. Each case
// runs events through a real emulator over HTTP and asserts an outcome that would change with the
// behaviour; an assumed case also asserts that its event's trace lists the assumption. The README's
// fidelity table (emulator/README.md) names the same cases, and the last test keeps the two in step.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ASSUMPTIONS, type AssumptionId } from "../../../emulator/src/pcl/assumptions";
import { admin, bearer, type Client, type Emu, sendEvent, serviceWithKey, startWithClient, trigger } from "../helpers";

type Json = Record<string, unknown>;

interface Source {
  url: string;
  section: string;
}

interface FidelityCase {
  name: string;
  behaviour: string;
  /** The page that documents it; or `assumed`: the emulator's own choice (an id of ASSUMPTIONS). */
  source?: Source;
  assumed?: AssumptionId;
  check: () => Promise<void>;
}

const PCL = "https://developer.pagerduty.com/docs/pcl-overview";
const EO = "https://support.pagerduty.com/main/docs/event-orchestration";
const EOX = "https://support.pagerduty.com/main/docs/event-orchestration-examples";
const DN = "https://support.pagerduty.com/main/docs/dynamic-notifications";
const EVENTS = "https://developer.pagerduty.com/docs/events-api-v2/overview/";
const REGEX = "https://support.pagerduty.com/main/docs/regular-expressions";

let e: Emu;
let api: Client;
/** One service whose orchestration each condition case rewrites, evaluated by dry runs. */
let probe: { id: string; key: string };
beforeAll(async () => {
  ({ e, api } = await startWithClient());
  probe = await serviceWithKey(e, api);
});
afterAll(() => e.close());

async function orchestrate(sid: string, sets: Json[], catchAll: Json = {}) {
  const res = await api.put(`/event_orchestrations/services/${sid}`, { orchestration_path: { sets, catch_all: { actions: catchAll } } });
  expect(res.status).toBe(200);
  expect((await api.put(`/event_orchestrations/services/${sid}/active`, { active: true })).status).toBe(200);
}

/** A new service with an Events API v2 integration and this orchestration, active. */
async function routed(sets: Json[], catchAll: Json = {}, serviceExtra: Json = {}) {
  const s = await serviceWithKey(e, api, serviceExtra);
  await orchestrate(s.id, sets, catchAll);
  return s;
}

/** Send an event and return its trace. */
async function send(body: Json): Promise<Json> {
  const res = await sendEvent(e, body);
  expect(res.status).toBe(202);
  return (await admin(e, "GET", `/events/${res.headers.get("x-emulator-event-id")}/trace`)).json;
}

/** The trace of a dry run of `body` on the probe service, its orchestration one rule of `expression`. */
async function dry(expression: string, payload: Json = {}, extra: Json = {}): Promise<Json> {
  await orchestrate(probe.id, [{ id: "start", rules: [{ conditions: [{ expression }], actions: { priority: "PHIT" } }] }]);
  return (await admin(e, "POST", "/events/dry-run", trigger(probe.key, extra, payload))).json;
}

const matched = (t: Json) => (t.sets as { rules: { result: string }[] }[])[0].rules[0].result === "matched";
const holds = async (expression: string, payload: Json = {}, extra: Json = {}) => matched(await dry(expression, payload, extra));
const condition = (t: Json) => (t.sets as { rules: { conditions: Json[] }[] }[])[0].rules[0].conditions[0];
const assumedIds = (t: Json) => ((t.assumed as { id: string }[]) ?? []).map((a) => a.id);
const incidents = async (sid: string) => (await api.get(`/incidents?service_ids[]=${sid}&sort_by=incident_number`)).json.incidents as Json[];
const notes = async (incidentId: string) => ((await api.get(`/incidents/${incidentId}/notes`)).json.notes as Json[]).map((n) => n.content);
const alerts = async (sid: string) => (await admin(e, "GET", `/services/${sid}/alerts`)).json.alerts as Json[];
/** Move the emulator's clock (forward only) and take a token valid at the new time. */
async function setClock(at: string) {
  expect((await admin(e, "POST", "/clock", { at })).status).toBe(200);
  api = await bearer(e);
}
const SEVERITY_BASED = { incident_urgency_rule: { type: "constant", urgency: "severity_based" } };

const CASES: FidelityCase[] = [
  // ---- PCL conditions ----
  {
    name: "pcl-matches",
    behaviour: "`matches` compares the whole value, case-insensitive",
    source: { url: PCL, section: "Operators (matches)" },
    check: async () => {
      expect(await holds("event.summary matches 'DISK FULL ON DB-1'")).toBe(true);
      expect(await holds("event.summary matches 'disk full'")).toBe(false);
    },
  },
  {
    name: "pcl-matches-part",
    behaviour: "`matches part` finds a substring, case-insensitive",
    source: { url: PCL, section: "Operators (matches part)" },
    check: async () => {
      expect(await holds("event.summary matches part 'FULL'")).toBe(true);
      expect(await holds("event.summary matches part 'empty'")).toBe(false);
    },
  },
  {
    name: "pcl-exactly",
    behaviour: "`exactly` makes `matches`, `matches part` and `matches regex` case-sensitive",
    source: { url: PCL, section: "Operators (exactly)" },
    check: async () => {
      expect(await holds("event.summary matches exactly 'Disk full on db-1'")).toBe(false);
      expect(await holds("event.summary matches exactly 'disk full on db-1'")).toBe(true);
      expect(await holds("event.summary matches part exactly 'FULL'")).toBe(false);
      expect(await holds("event.summary matches regex exactly 'DISK'")).toBe(false);
    },
  },
  {
    name: "pcl-matches-regex",
    behaviour: "`matches regex` is RE2, found anywhere in the value unless anchored, case-insensitive",
    source: { url: REGEX, section: "Regular Expressions (Event Orchestration rules)" },
    check: async () => {
      expect(await holds("event.source matches regex 'DB-[0-9]'")).toBe(true);
      expect(await holds("event.source matches regex '^b-1'")).toBe(false);
      expect(await holds("event.source matches regex '^db-[0-9]+$'")).toBe(true);
    },
  },
  {
    name: "pcl-regex-flags",
    behaviour: "a regex runs multi-line and dot-all; a flag written in the regex wins over the defaults",
    source: { url: PCL, section: "Operators (matches regex)" },
    check: async () => {
      expect(await holds("event.summary matches regex '^second'", { summary: "first\nsecond" })).toBe(true);
      expect(await holds("event.summary matches regex 'first.second'", { summary: "first\nsecond" })).toBe(true);
      expect(await holds("event.summary matches regex '(?-i)DISK'")).toBe(false);
    },
  },
  {
    name: "pcl-equals",
    behaviour: "`==` compares without conversion: strings case-sensitive, a number never equals its text",
    source: { url: PCL, section: "Operators (==)" },
    check: async () => {
      expect(await holds("event.severity == 'critical'")).toBe(true);
      expect(await holds("event.severity == 'CRITICAL'")).toBe(false);
      expect(await holds("event.custom_details.n == '42'", { custom_details: { n: 42 } })).toBe(false);
      expect(await holds("event.custom_details.n == 42.0", { custom_details: { n: 42 } })).toBe(true);
    },
  },
  {
    name: "pcl-comparisons",
    behaviour: "`<`, `<=`, `>`, `>=` compare numbers (integers and floats alike)",
    source: { url: PCL, section: "Operators (<, <=, >, >=)" },
    check: async () => {
      const n = { custom_details: { load: 2.5 } };
      expect(await holds("event.custom_details.load > 2", n)).toBe(true);
      expect(await holds("event.custom_details.load >= 2.5", n)).toBe(true);
      expect(await holds("event.custom_details.load < 2.5", n)).toBe(false);
      expect(await holds("event.custom_details.load <= 3", n)).toBe(true);
    },
  },
  {
    name: "pcl-number-vs-string",
    behaviour: "comparing a number with a string (or nil) is false with a warning, never an error",
    source: { url: PCL, section: "Non-boolean evaluations" },
    check: async () => {
      const t = await dry("event.custom_details.load > 'two'", { custom_details: { load: 3 } });
      expect(matched(t)).toBe(false);
      expect(condition(t).warnings).toEqual([expect.stringMatching(/^Type mismatch in event.custom_details.load > 'two'/)]);
    },
  },
  {
    name: "pcl-matches-converts",
    behaviour: "`matches` reads numbers, booleans, objects and lists as their text",
    source: { url: PCL, section: "Operators (matches)" },
    check: async () => {
      expect(await holds("event.custom_details.n matches '42'", { custom_details: { n: 42 } })).toBe(true);
      expect(await holds("event.custom_details.ok matches 'TRUE'", { custom_details: { ok: true } })).toBe(true);
    },
  },
  {
    name: "pcl-exists",
    behaviour: "`exists` holds for a path that is there, even holding null, and not for a missing one",
    source: { url: PCL, section: "Operators (exists)" },
    check: async () => {
      expect(await holds("event.custom_details.x exists", { custom_details: { x: null } })).toBe(true);
      expect(await holds("event.custom_details.y exists", { custom_details: { x: null } })).toBe(false);
    },
  },
  {
    name: "pcl-missing-field",
    behaviour: "a missing path is nil: `matches` of it is false, and the trace names the path",
    source: { url: PCL, section: "Paths (missing fields are nil)" },
    check: async () => {
      const t = await dry("event.custom_details.env matches 'prod'");
      expect(matched(t)).toBe(false);
      expect(condition(t)).toMatchObject({
        warnings: ["event.custom_details.env does not exist (nil)"],
        reads: [{ what: "event.custom_details.env", found: false, value: null }],
      });
    },
  },
  {
    name: "pcl-reads-in-trace",
    behaviour: "each condition's trace carries the values it read",
    source: { url: PCL, section: "Paths" },
    check: async () => {
      const t = await dry("event.custom_details.env == 'stage'", { custom_details: { env: "staging" } });
      expect(condition(t)).toMatchObject({ matched: false, reads: [{ what: "event.custom_details.env", found: true, value: "staging" }] });
    },
  },
  {
    name: "pcl-precedence",
    behaviour: "parentheses first, then `not`, then `and`, then `or`; `and` and `or` stop at the first side that decides",
    source: { url: PCL, section: "Logical operators (precedence)" },
    check: async () => {
      // `not a and b or c`: ((not a) and b) or c
      expect(await holds("not event.severity matches 'info' and event.source matches 'db-1' or event.source matches 'x'")).toBe(true);
      expect(await holds("not (event.severity matches 'critical' and event.source matches 'x')")).toBe(true);
      expect(await holds("event.source matches 'x' and event.source matches 'db-1' or event.source matches 'y'")).toBe(false);
      const t = await dry("event.source matches 'db-1' or event.custom_details.missing matches 'x'");
      expect(condition(t).warnings).toEqual([]);
    },
  },
  {
    name: "pcl-event-action",
    behaviour: "`event.event_action` is the event's action (trigger, acknowledge, resolve)",
    source: { url: EOX, section: "Capture Unrouted Trigger Events" },
    check: async () => {
      expect(await holds("event.event_action matches 'trigger'")).toBe(true);
      expect(await holds("event.event_action matches 'resolve'")).toBe(false);
    },
  },
  {
    name: "pcl-raw-event",
    behaviour: "`raw_event` is the body as sent, without its routing key",
    source: { url: PCL, section: "Paths (raw_event)" },
    check: async () => {
      expect(await holds("raw_event.client matches 'Nagios'", {}, { client: "nagios" })).toBe(true);
      expect(await holds("raw_event.routing_key exists")).toBe(false);
    },
  },
  // ---- the walk ----
  {
    name: "walk-first-match",
    behaviour:
      "rules are tried in order and the first that matches applies its actions; a rule matches when any of its conditions does, always when it has none",
    source: { url: EO, section: "Step 2: Create Rules (rules are evaluated in order)" },
    check: async () => {
      const s = await routed([
        {
          id: "start",
          rules: [
            { conditions: [{ expression: "event.source matches 'web'" }, { expression: "event.severity matches 'critical'" }], actions: { priority: "PA" } },
            { conditions: [], actions: { priority: "PB" } },
          ],
        },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "first" }));
      expect((t.result as Json).priority).toMatchObject({ id: "PA" });
      expect((t.sets as Json[])[0]).toMatchObject({ matched: { index: 0 } });
      const u = await send(trigger(s.key, { dedup_key: "second" }, { severity: "info" }));
      expect((u.result as Json).priority).toMatchObject({ id: "PB" });
    },
  },
  {
    name: "walk-disabled",
    behaviour: "a disabled rule is skipped",
    source: { url: EO, section: "Step 2: Create Rules (disable a rule)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ disabled: true, conditions: [], actions: { suppress: true } }] }]);
      const t = await send(trigger(s.key, { dedup_key: "d" }));
      expect(t.outcome).toMatchObject({ kind: "incident_opened" });
      expect((t.sets as { rules: Json[] }[])[0].rules[0]).toMatchObject({ result: "disabled" });
    },
  },
  {
    name: "walk-route-to",
    behaviour: "`route_to` continues in the named set, with the event as the actions left it; a matched rule without it ends the walk",
    source: { url: EO, section: "Step 2: Create Rules (nested rule sets (route to))" },
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { severity: "info", route_to: "next" } }] },
        { id: "next", rules: [{ conditions: [{ expression: "event.severity matches 'info'" }], actions: { suppress: true } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "r" }));
      expect((t.sets as Json[]).map((x) => x.set)).toEqual(["start", "next"]);
      expect(t.outcome).toMatchObject({ kind: "suppressed" });
    },
  },
  {
    name: "walk-catch-all",
    behaviour: "a set whose rules all fail applies the catch-all's actions and ends the walk",
    source: { url: EO, section: "Step 2: Create Rules (catch-all rule)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [{ expression: "event.source matches 'nope'" }], actions: {} }] }], { suppress: true });
      const t = await send(trigger(s.key, { dedup_key: "c" }));
      expect((t.sets as Json[])[0]).toMatchObject({ catch_all: true, matched: null });
      expect(t.outcome).toMatchObject({ kind: "suppressed" });
    },
  },
  {
    name: "walk-route-loop",
    behaviour: "a `route_to` back into a set the event already went through ends the walk there",
    assumed: "route-loop-ends",
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { route_to: "b" } }] },
        { id: "b", rules: [{ conditions: [], actions: { annotate: "in b", route_to: "start" } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "loop" }));
      expect((t.sets as Json[]).map((x) => x.set)).toEqual(["start", "b"]);
      expect(assumedIds(t)).toContain("route-loop-ends");
    },
  },
  {
    name: "walk-later-set-sees-extractions",
    behaviour: "a later set's conditions see the event as earlier sets' extractions left it",
    assumed: "later-set-sees-extractions",
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { extractions: [{ target: "event.summary", template: "rewritten" }], route_to: "b" } }] },
        { id: "b", rules: [{ conditions: [{ expression: "event.summary matches 'rewritten'" }], actions: { suppress: true } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "x" }));
      expect(t.outcome).toMatchObject({ kind: "suppressed" });
      expect(assumedIds(t)).toContain("later-set-sees-extractions");
    },
  },
  // ---- actions ----
  {
    name: "action-severity",
    behaviour: "`severity` sets the alert's severity; on a severity-based service it decides the incident's urgency",
    source: { url: DN, section: "Using Severity to Control Urgency" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { severity: "warning" } }] }], {}, SEVERITY_BASED);
      await send(trigger(s.key, { dedup_key: "sev" }));
      const [i] = await incidents(s.id);
      expect(i).toMatchObject({ urgency: "low" });
      expect((await alerts(s.id))[0]).toMatchObject({ severity: "warning" });
    },
  },
  {
    name: "action-priority",
    behaviour: "`priority` sets the incident's priority",
    source: { url: EO, section: "Step 2: Create Rules (set incident priority)" },
    check: async () => {
      const priorities = (await api.get("/priorities")).json.priorities as Json[];
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { priority: priorities[0].id } }] }]);
      await send(trigger(s.key, { dedup_key: "p" }));
      const [i] = await incidents(s.id);
      expect(i.priority).toMatchObject({ id: priorities[0].id });
    },
  },
  {
    name: "action-escalation-policy",
    behaviour: "`escalation_policy` gives the incident that policy instead of the service's",
    source: { url: EO, section: "Step 2: Create Rules (escalation policy)" },
    check: async () => {
      const other = (await admin(e, "POST", "/escalation-policies", { account: "acme", name: "Fidelity team" })).json;
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { escalation_policy: other.id } }] }]);
      await send(trigger(s.key, { dedup_key: "ep" }));
      const [i] = await incidents(s.id);
      expect(i.escalation_policy).toMatchObject({ id: other.id });
    },
  },
  {
    name: "action-annotate-last-note",
    behaviour: "when several matched rules annotate, only the note of the most recently evaluated rule is added",
    source: { url: EO, section: "Step 2: Create Rules (add a note to the incident)" },
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { annotate: "first note", route_to: "b" } }] },
        { id: "b", rules: [{ conditions: [], actions: { annotate: "last note for {{event.source}}" } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "n" }));
      const [i] = await incidents(s.id);
      expect(await notes(i.id as string)).toEqual(["last note for db-1"]);
      expect((t.result as Json).annotations).toEqual(["last note for db-1"]);
    },
  },
  {
    name: "action-extraction",
    behaviour: "`extractions` set an event field from a template, or from a regex's capture group on a source field",
    source: { url: REGEX, section: "Capture Group" },
    check: async () => {
      const s = await routed([
        {
          id: "start",
          rules: [
            {
              conditions: [],
              actions: {
                extractions: [
                  { target: "event.summary", template: "[{{event.source}}] {{event.summary}}" },
                  { target: "event.custom_details.host", source: "event.source", regex: "db-(\\d+)" },
                ],
              },
            },
          ],
        },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "ex" }));
      expect(t.result).toMatchObject({ summary: "[db-1] disk full on db-1", event: { custom_details: { host: "1" } } });
      expect((await incidents(s.id))[0].title).toBe("[db-1] disk full on db-1");
    },
  },
  {
    name: "action-variables",
    behaviour: "`variables` take a regex's capture group from a path, for the rule's templates",
    source: { url: EO, section: "Step 2: Create Rules (variables)" },
    check: async () => {
      const s = await routed([
        {
          id: "start",
          rules: [
            {
              conditions: [],
              actions: { variables: [{ name: "host", path: "event.summary", type: "regex", value: "on (\\S+)" }], annotate: "host {{variables.host}}" },
            },
          ],
        },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "v" }));
      expect(t.result).toMatchObject({ variables: { host: "db-1" }, annotations: ["host db-1"] });
    },
  },
  {
    name: "action-incident-custom-fields",
    behaviour: "`incident_custom_field_updates` set the incident's custom field values, templates rendered",
    source: { url: EO, section: "Step 2: Create Rules (incident custom fields)" },
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { incident_custom_field_updates: [{ id: "PFIELD1", value: "{{event.source}}" }] } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "cf" }));
      expect((t.result as Json).incident_custom_fields).toEqual([{ id: "PFIELD1", value: "db-1" }]);
    },
  },
  {
    name: "action-drop-event",
    behaviour: "`drop_event` makes nothing: no alert, no incident",
    source: { url: EO, section: "Step 2: Create Rules (drop event)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { drop_event: true } }] }]);
      const t = await send(trigger(s.key, { dedup_key: "drop" }));
      expect(t.outcome).toMatchObject({ kind: "dropped" });
      expect(await alerts(s.id)).toEqual([]);
      expect(await incidents(s.id)).toEqual([]);
    },
  },
  {
    name: "action-event-action",
    behaviour: "`event_action` turns a trigger into a resolve: the open alert with its dedup key resolves",
    source: { url: EO, section: "Step 2: Create Rules (event action)" },
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [{ expression: "event.summary matches part 'recovered'" }], actions: { event_action: "resolve" } }] },
      ]);
      await send(trigger(s.key, { dedup_key: "flap" }));
      const t = await send(trigger(s.key, { dedup_key: "flap" }, { summary: "recovered" }));
      expect(t.outcome).toMatchObject({ kind: "resolved" });
      expect((await incidents(s.id))[0]).toMatchObject({ status: "resolved" });
    },
  },
  {
    name: "action-event-action-field",
    behaviour: "after an `event_action` action, `event.event_action` reads the new action in later sets",
    assumed: "event-action-field-follows-action",
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [], actions: { event_action: "resolve", route_to: "b" } }] },
        { id: "b", rules: [{ conditions: [{ expression: "event.event_action matches 'resolve'" }], actions: { annotate: "saw resolve" } }] },
      ]);
      const t = await send(trigger(s.key, { dedup_key: "ea" }));
      expect((t.sets as Json[])[1]).toMatchObject({ matched: { index: 0 } });
      expect(assumedIds(t)).toContain("event-action-field-follows-action");
    },
  },
  {
    name: "action-ack-resolve-through-orchestration",
    behaviour: "acknowledge and resolve events go through the orchestration, and its actions apply to them",
    assumed: "ack-resolve-through-orchestration",
    check: async () => {
      const s = await routed([
        { id: "start", rules: [{ conditions: [{ expression: "event.event_action matches 'acknowledge'" }], actions: { event_action: "resolve" } }] },
      ]);
      await send(trigger(s.key, { dedup_key: "ack" }));
      const t = await send({ routing_key: s.key, event_action: "acknowledge", dedup_key: "ack" });
      expect(t.outcome).toMatchObject({ kind: "resolved" });
      expect(assumedIds(t)).toContain("ack-resolve-through-orchestration");
    },
  },
  // ---- suppress and suspend lifecycles ----
  {
    name: "suppress-lifecycle",
    behaviour: "`suppress` makes an alert without an incident; a resolve with its dedup key resolves it",
    source: { url: EO, section: "Step 2: Create Rules (suppress)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { suppress: true } }] }]);
      expect((await send(trigger(s.key, { dedup_key: "q" }))).outcome).toMatchObject({ kind: "suppressed" });
      expect((await alerts(s.id))[0]).toMatchObject({ suppressed: true, status: "triggered" });
      expect((await send({ routing_key: s.key, event_action: "resolve", dedup_key: "q" })).outcome).toMatchObject({ kind: "resolved" });
      expect((await alerts(s.id))[0]).toMatchObject({ status: "resolved" });
      expect(await incidents(s.id)).toEqual([]);
    },
  },
  {
    name: "suspend-lifecycle",
    behaviour: "`suspend` holds the alert that many seconds, then it opens its incident; a resolve before then opens nothing",
    source: { url: EO, section: "Step 2: Create Rules (suspend)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { suspend: 120 } }] }]);
      expect((await send(trigger(s.key, { dedup_key: "held" }))).outcome).toMatchObject({ kind: "suspended" });
      await send(trigger(s.key, { dedup_key: "gone" }));
      await send({ routing_key: s.key, event_action: "resolve", dedup_key: "gone" });
      expect(await incidents(s.id)).toEqual([]);
      await admin(e, "POST", "/clock", { advanceSeconds: 121 });
      expect((await incidents(s.id)).map((i) => i.incident_key)).toEqual(["held"]);
    },
  },
  {
    name: "held-alert-no-acknowledge",
    behaviour: "an acknowledge of a suppressed or suspended alert changes nothing: it has no incident",
    assumed: "held-alert-no-acknowledge",
    check: async () => {
      const s = await routed([{ id: "start", rules: [] }], { suppress: true });
      await send(trigger(s.key, { dedup_key: "quiet" }));
      const t = await send({ routing_key: s.key, event_action: "acknowledge", dedup_key: "quiet" });
      expect(t.outcome).toMatchObject({ kind: "no_open_alert" });
      expect(assumedIds(t)).toContain("held-alert-no-acknowledge");
    },
  },
  {
    name: "release-after-disable",
    behaviour: "a suspended alert triggers when its hold ends even if its service was disabled since",
    assumed: "release-after-disable",
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { suspend: 60 } }] }]);
      const t = await send(trigger(s.key, { dedup_key: "later" }));
      expect((await api.put(`/services/${s.id}`, { service: { status: "disabled" } })).status).toBe(200);
      await admin(e, "POST", "/clock", { advanceSeconds: 61 });
      expect((await incidents(s.id)).map((i) => i.incident_key)).toEqual(["later"]);
      const after = (await admin(e, "GET", `/events/${t.id}/trace`)).json;
      expect(assumedIds(after)).toContain("release-after-disable");
    },
  },
  // ---- dedup and Dynamic Notifications ----
  {
    name: "dedup-same-key",
    behaviour: "a trigger with an open alert's dedup key adds to that alert: no second alert or incident",
    source: { url: EVENTS, section: "Alert de-duplication (dedup_key)" },
    check: async () => {
      const s = await routed([{ id: "start", rules: [] }]);
      await send(trigger(s.key, { dedup_key: "same" }));
      const t = await send(trigger(s.key, { dedup_key: "same" }));
      expect(t.outcome).toMatchObject({ kind: "deduplicated" });
      expect(await alerts(s.id)).toEqual([expect.objectContaining({ triggers: 2 })]);
      expect(await incidents(s.id)).toHaveLength(1);
    },
  },
  {
    name: "dedup-severity-raise",
    behaviour:
      "a later trigger with the same dedup key and a higher severity raises the alert's severity, and on a severity-based service the incident's urgency from low to high",
    source: { url: DN, section: "Using Severity to Control Urgency" },
    check: async () => {
      const { id, key } = await serviceWithKey(e, api, SEVERITY_BASED); // no orchestration: the plain Events API path
      await send(trigger(key, { dedup_key: "up" }, { severity: "warning" }));
      expect((await incidents(id))[0]).toMatchObject({ urgency: "low" });
      const t = await send(trigger(key, { dedup_key: "up" }, { severity: "critical" }));
      expect(t.outcome).toMatchObject({ kind: "deduplicated", alert: { severity: "critical" }, incident: { urgency: "high" } });
      expect((await alerts(id))[0]).toMatchObject({ severity: "critical" });
      expect((await incidents(id))[0]).toMatchObject({ urgency: "high" });
    },
  },
  {
    name: "dedup-severity-by-rules",
    behaviour: "the severity the rules give a repeat is the one that raises the open alert's",
    source: { url: DN, section: "Event/Alert Severity Levels (set using Event Orchestration)" },
    check: async () => {
      const s = await routed(
        [{ id: "start", rules: [{ conditions: [{ expression: "event.summary matches part 'worse'" }], actions: { severity: "error" } }] }],
        {},
        SEVERITY_BASED,
      );
      await send(trigger(s.key, { dedup_key: "r" }, { severity: "info" }));
      await send(trigger(s.key, { dedup_key: "r" }, { severity: "info", summary: "worse" }));
      expect((await alerts(s.id))[0]).toMatchObject({ severity: "error" });
      expect((await incidents(s.id))[0]).toMatchObject({ urgency: "high" });
    },
  },
  {
    name: "dedup-urgency-constant",
    behaviour: "on a service whose urgency does not go by severity, a higher severity leaves the incident's urgency as it was",
    source: { url: DN, section: "Using Severity to Control Urgency" },
    check: async () => {
      const { id, key } = await serviceWithKey(e, api, { incident_urgency_rule: { type: "constant", urgency: "low" } });
      await send(trigger(key, { dedup_key: "c" }, { severity: "info" }));
      await send(trigger(key, { dedup_key: "c" }, { severity: "critical" }));
      expect((await alerts(id))[0]).toMatchObject({ severity: "critical" });
      expect((await incidents(id))[0]).toMatchObject({ urgency: "low" });
    },
  },
  {
    name: "dedup-lower-severity",
    behaviour: "a repeat with a lower severity leaves the alert's severity and the incident's urgency as they were",
    assumed: "dedup-lower-severity",
    check: async () => {
      const { id, key } = await serviceWithKey(e, api, SEVERITY_BASED);
      await send(trigger(key, { dedup_key: "down" }, { severity: "critical" }));
      const t = await send(trigger(key, { dedup_key: "down" }, { severity: "info" }));
      expect((await alerts(id))[0]).toMatchObject({ severity: "critical" });
      expect((await incidents(id))[0]).toMatchObject({ urgency: "high" });
      expect(assumedIds(t)).toContain("dedup-lower-severity");
    },
  },
  {
    name: "dedup-no-actions",
    behaviour: "a deduplicated trigger applies no actions again: no second note, no new priority",
    assumed: "dedup-no-actions",
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { annotate: "seen {{event.severity}}" } }] }]);
      await send(trigger(s.key, { dedup_key: "once" }, { severity: "critical" }));
      const t = await send(trigger(s.key, { dedup_key: "once" }, { severity: "critical" }));
      const [i] = await incidents(s.id);
      expect(await notes(i.id as string)).toEqual(["seen critical"]);
      expect(assumedIds(t)).toContain("dedup-no-actions");
    },
  },
  {
    name: "joined-incident-urgency",
    behaviour: "an alert of higher severity that joins an open incident raises its urgency on a severity-based service",
    source: { url: DN, section: "Using Severity to Control Urgency (an alert added to an incident)" },
    check: async () => {
      const { id, key } = await serviceWithKey(e, api, SEVERITY_BASED);
      const second = (await api.post(`/services/${id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
      await send(trigger(key, { dedup_key: "j" }, { severity: "warning" }));
      const t = await send(trigger(second.integration_key, { dedup_key: "j" }, { severity: "error" }));
      expect(t.outcome).toMatchObject({ kind: "alert_added_to_incident", incident: { urgency: "high" } });
      expect(await alerts(id)).toHaveLength(2);
    },
  },
  {
    name: "joined-incident-keeps-fields",
    behaviour: "an alert that joins an open incident leaves its notes, priority, escalation policy and custom fields as they were",
    assumed: "joined-incident-keeps-fields",
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [], actions: { annotate: "from {{event.source}}" } }] }]);
      const second = (await api.post(`/services/${s.id}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration;
      await send(trigger(s.key, { dedup_key: "k" }, { source: "a" }));
      const t = await send(trigger(second.integration_key, { dedup_key: "k" }, { source: "b" }));
      const [i] = await incidents(s.id);
      expect(await notes(i.id as string)).toEqual(["from a"]);
      expect(assumedIds(t)).toContain("joined-incident-keeps-fields");
    },
  },
  // ---- cache variables ----
  {
    name: "cache-recent-value",
    behaviour: "a `recent_value` cache variable keeps what its regex takes from the latest matching event, read as `cache_var.<name>`",
    source: { url: EO, section: "Cache Variables (recent value)" },
    check: async () => {
      const { id, key } = await serviceWithKey(e, api);
      const cv = await api.post(`/event_orchestrations/services/${id}/cache_variables`, {
        cache_variable: { name: "last_host", configuration: { type: "recent_value", source: "event.source", regex: "web-(\\d+)" } },
      });
      expect(cv.status).toBe(200);
      await orchestrate(id, [{ id: "start", rules: [{ conditions: [{ expression: "cache_var.last_host matches '2'" }], actions: { suppress: true } }] }]);
      expect((await send(trigger(key, { dedup_key: "h1" }, { source: "web-1" }))).outcome).toMatchObject({ kind: "incident_opened" });
      expect((await send(trigger(key, { dedup_key: "h2" }, { source: "web-2" }))).outcome).toMatchObject({ kind: "suppressed" });
      // A source the regex does not take leaves the value.
      expect((await send(trigger(key, { dedup_key: "h3" }, { source: "db-9" }))).outcome).toMatchObject({ kind: "suppressed" });
    },
  },
  {
    name: "cache-trigger-count",
    behaviour: "a `trigger_event_count` cache variable counts the matching trigger events of its sliding `ttl_seconds` window, the current one included",
    source: { url: EO, section: "Cache Variables (trigger event count)" },
    check: async () => {
      const { id, key } = await serviceWithKey(e, api);
      const cv = await api.post(`/event_orchestrations/services/${id}/cache_variables`, {
        cache_variable: {
          name: "n",
          conditions: [{ expression: "event.source matches 'batch'" }],
          configuration: { type: "trigger_event_count", ttl_seconds: 60 },
        },
      });
      expect(cv.status).toBe(200);
      await orchestrate(id, [{ id: "start", rules: [{ conditions: [{ expression: "cache_var.n >= 2" }], actions: { suppress: true } }] }]);
      expect((await send(trigger(key, { dedup_key: "b1" }, { source: "batch" }))).cache_variables).toEqual([expect.objectContaining({ value: 1 })]);
      expect((await send(trigger(key, { dedup_key: "b2" }, { source: "other" }))).cache_variables).toEqual([
        expect.objectContaining({ value: 1, matched: false }),
      ]);
      expect((await send(trigger(key, { dedup_key: "b3" }, { source: "batch" }))).outcome).toMatchObject({ kind: "suppressed" });
      await admin(e, "POST", "/clock", { advanceSeconds: 61 });
      expect((await send(trigger(key, { dedup_key: "b4" }, { source: "batch" }))).cache_variables).toEqual([expect.objectContaining({ value: 1 })]);
    },
  },
  {
    name: "trigger-count-per-rule",
    behaviour: "`trigger_count over <duration>` counts the rule's trigger events in the window, the current one included",
    assumed: "trigger-count-per-rule",
    check: async () => {
      const s = await routed([{ id: "start", rules: [{ conditions: [{ expression: "trigger_count over 5 minutes > 2" }], actions: { suppress: true } }] }]);
      const traces = [];
      for (const n of [1, 2, 3]) traces.push(await send(trigger(s.key, { dedup_key: `t${n}` })));
      expect(traces.map((t) => (t.outcome as Json).kind)).toEqual(["incident_opened", "incident_opened", "suppressed"]);
      expect(assumedIds(traces[2])).toContain("trigger-count-per-rule");
      expect((traces[2].sets as { rules: { conditions: Json[] }[] }[])[0].rules[0].conditions[0].reads).toEqual([
        { what: "trigger_count over 5 minutes", found: true, value: 3 },
      ]);
    },
  },
  // ---- time (last: the clock only moves forward) ----
  {
    name: "time-weekly-schedule",
    behaviour: "`now in Mon,Tue 09:00:00 to 17:00:00 <zone>` reads the wall clock in the zone",
    source: { url: EOX, section: "On a Recurring Weekly Schedule" },
    check: async () => {
      await setClock("2031-03-03T14:30:00Z"); // Monday 09:30 in New York (EST)
      const t = await dry("now in Mon 09:00:00 to 17:00:00 America/New_York");
      expect(matched(t)).toBe(true);
      expect(condition(t).reads).toEqual([{ what: "now", found: true, value: "Mon 09:30:00 America/New_York" }]);
      expect(await holds("now in Mon 10:00:00 to 17:00:00 America/New_York")).toBe(false);
      expect(await holds("now in Mon 08:00:00 to 09:31:00 America/New_York")).toBe(true);
    },
  },
  {
    name: "time-overnight",
    behaviour: "a weekly window whose end is before its start ends the next day",
    source: { url: PCL, section: "Time-based conditions (now in)" },
    check: async () => {
      await setClock("2031-03-04T07:00:00Z"); // Tuesday 02:00 in New York
      expect(await holds("now in Mon 22:00:00 to 06:00:00 America/New_York")).toBe(true);
      expect(await holds("now in Tue 22:00:00 to 06:00:00 America/New_York")).toBe(false);
    },
  },
  {
    name: "time-dst",
    behaviour: "a weekly window follows the zone's daylight saving time",
    source: { url: PCL, section: "Time-based conditions (time zones)" },
    check: async () => {
      // 13:30 UTC is 08:30 on 3 March (EST) but 09:30 on 10 March (EDT, from 9 March 2031).
      await setClock("2031-03-10T13:30:00Z");
      expect(await holds("now in Mon 09:00:00 to 10:00:00 America/New_York")).toBe(true);
      expect(await holds("now in Mon 09:00:00 to 10:00:00 Etc/UTC")).toBe(false);
    },
  },
  {
    name: "time-range",
    behaviour: "`now in <datetime> to <datetime> <zone>` holds between the two datetimes, read in the zone",
    source: { url: PCL, section: "Time-based conditions (date ranges)" },
    check: async () => {
      await setClock("2031-03-11T00:00:00Z");
      // The clock runs on from the time set: a minute's margin.
      expect(await holds("now in 2031-03-10 00:00:00 to 2031-03-11 00:01:00 Etc/UTC")).toBe(true);
      expect(await holds("now in 2031-03-11 00:01:00 to 2031-03-12 00:00:00 Etc/UTC")).toBe(false);
    },
  },
];

describe("fidelity corpus", () => {
  for (const c of CASES) test(`${c.name}: ${c.behaviour}`, c.check);
});

/** The README's fidelity table: behaviour | source or "assumed: ..." | case name. */
function readmeTable(): { behaviour: string; source: string; name: string }[] {
  const readme = readFileSync(join(__dirname, "../../../emulator/README.md"), "utf8");
  const start = readme.indexOf("## Fidelity: every routing behaviour and its source");
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1) === -1 ? undefined : readme.indexOf("\n## ", start + 1));
  return section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| Behaviour") && !/^\|[-| ]+\|$/.test(l))
    .map((l) => {
      const [behaviour, source, name] = l
        .slice(2, -2)
        .split(" | ")
        .map((x) => x.trim());
      return { behaviour, source, name: name.replace(/`/g, "") };
    });
}

test("the README's fidelity table and the corpus list the same behaviours, sources and assumptions", () => {
  const rows = readmeTable();
  expect(rows.map((r) => r.name).sort()).toEqual(CASES.map((c) => c.name).sort());
  for (const c of CASES) {
    const row = rows.find((r) => r.name === c.name)!;
    expect(`${c.name}: ${row.behaviour}`).toBe(`${c.name}: ${c.behaviour}`);
    if (c.assumed) expect(`${c.name}: ${row.source}`).toBe(`${c.name}: assumed: ${ASSUMPTIONS[c.assumed]}`);
    else expect(`${c.name}: ${row.source}`).toBe(`${c.name}: [${c.source!.section}](${c.source!.url})`);
  }
  // Every choice the emulator can make is one a case shows in a trace.
  expect(
    CASES.map((c) => c.assumed)
      .filter(Boolean)
      .sort(),
  ).toEqual(Object.keys(ASSUMPTIONS).sort());
});

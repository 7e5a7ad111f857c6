// record's pure parts: its command line (the window bounded as PagerDuty bounds incident listings),
// the redaction rule, and the mapping of incidents and alerts to cases.
import { parseCommandLine, UsageError } from "../../../../provider/cli/command-line";
import { parseCaseFile } from "../../../../provider/cli/routing-cases";
import { type ApiAlert, eventOfAlert, type ReadIncident } from "../../../../provider/cli/routing-readback";
import { caseFileText, casesOf, recordCommand, recordedBlock, type RecordedService, recordOptions } from "../../../../provider/cli/routing-record";
import { redactor } from "../../../../provider/cli/routing-redact";

const NOW = new Date("2026-12-01T12:00:00Z");
const options = (argv: string[]) => parseCommandLine(recordCommand({ now: () => NOW }), argv);

describe("the command line", () => {
  test("--last ends the window now; --service takes ID or ID=INTEGRATION", () => {
    const o = options(["--service", "PSVC1", "--service", "PSVC2=db_events", "--last", "24h"]);
    expect(o.since.toISOString()).toBe("2026-11-30T12:00:00.000Z");
    expect(o.until).toEqual(NOW);
    expect([...o.services]).toEqual([
      ["PSVC1", "PSVC1"],
      ["PSVC2", "db_events"],
    ]);
    expect(o.maxEvents).toBe(1000);
  });

  test.each([
    [["--last", "24h"], "--service ID is required"],
    [["--service", "P1"], "the window is required"],
    [["--service", "P1", "--last", "1y"], '--last: "1y" is not a duration'],
    [["--service", "P1", "--last", "181d"], "longer than 180 days: PagerDuty lists incidents over at most 6 months"],
    [["--service", "P1", "--since", "yesterday"], '--since: "yesterday" is not an ISO 8601 instant'],
    [["--service", "P1", "--since", "2026-12-01T00:00:00Z", "--until", "2026-11-01T00:00:00Z"], "must be after --since"],
    [["--service", "P1", "--last", "1h", "--since", "2026-12-01T00:00:00Z"], "--last and --since both start the window"],
    [["--service", "P1=", "--last", "1h"], '"P1=" is not ID or ID=INTEGRATION'],
    [["--service", "P1", "--last", "1h", "--max-events", "0"], "--max-events"],
    [["--service", "P1", "--last", "1h", "--max-events", "10001"], "from 1 to 10000"],
    [["--service", "P1", "--last", "1h", "--keep-fields", "custom_details..x"], '"custom_details..x" is not a field path'],
  ])("%j is refused: %s", (argv, message) => {
    expect(() => options(argv)).toThrow(UsageError);
    expect(() => options(argv)).toThrow(message);
  });

  test("--since alone runs to now", () => {
    expect(recordOptions({ service: ["P1"], since: "2026-11-29T00:00:00Z" }, NOW).until).toEqual(NOW);
  });
});

describe("the redaction rule", () => {
  test("credentials written as key=value in free text go, whatever precedes the key (access_token=, api_key:, password=)", () => {
    const r = redactor([], Buffer.alloc(32));
    const e = r.event({
      summary: "GET https://x/y?access_token=abcdef123456&page=2 failed; api_key: ZZZZ9999 rejected; password=hunter22",
      source: "host",
      custom_details: { message: "retry with secret=s3cr3tvalue", auth_header: "Basic dXNlcjpwYXNz", pwd: "x1y2z3", access_key: "AKIAXXXX" },
    });
    const text = JSON.stringify(e);
    for (const secret of ["abcdef123456", "ZZZZ9999", "hunter22", "s3cr3tvalue", "dXNlcjpwYXNz", "x1y2z3", "AKIAXXXX"]) expect(text).not.toContain(secret);
    expect(e.summary).toContain("page=2");
    expect(r.text("token=abcdefgh and nothing else")).toBe("[redacted: token] and nothing else");
  });

  test("credential and personal keys of custom details lose their values; emails, tokens, URL credentials, IPs are cut from text", () => {
    const r = redactor([], Buffer.alloc(32));
    const out = r.event({
      summary: "login failed for jane@example.com from 203.0.113.9",
      source: "https://svc:hunter2@db.internal/x",
      custom_details: {
        password: "hunter2",
        Authorization: "Bearer abcdefghijklmnop",
        nested: { phone: "+44 20 7946 0000", session_id: "s-1", why: "header was Bearer abcdefghijkl" },
        ip: "2001:db8::1",
        host: "web-1",
        list: ["ok", "x@y.org"],
        count: 3,
      },
    });
    expect(out).toEqual({
      summary: "login failed for [redacted: email] from [redacted: ip address]",
      source: "https://[redacted: url credentials]@db.internal/x",
      custom_details: {
        password: "[redacted: credential]",
        Authorization: "[redacted: credential]",
        nested: { phone: "[redacted: personal data]", session_id: "[redacted: credential]", why: "header was [redacted: token]" },
        ip: "[redacted: personal data]",
        host: "web-1",
        list: ["ok", "[redacted: email]"],
        count: 3,
      },
    });
    expect(Object.fromEntries(r.removed)).toEqual({ email: 2, "ip address": 1, "url credentials": 1, credential: 3, "personal data": 2, token: 1 });
  });

  test("--keep-fields keeps a path and what is under it verbatim", () => {
    const out = redactor(["summary", "custom_details.user"]).event({
      summary: "a@b.co",
      custom_details: { user: { email: "a@b.co" }, email: "a@b.co" },
    });
    expect(out).toEqual({ summary: "a@b.co", custom_details: { user: { email: "a@b.co" }, email: "[redacted: personal data]" } });
  });

  test("a dedup key keeps its identity: equal keys stay equal, different ones different, the value is gone", () => {
    const r = redactor([], Buffer.alloc(32, 1));
    const a = r.event({ dedup_key: "login:jane@example.com" }).dedup_key as string;
    const b = r.event({ dedup_key: "login:jane@example.com" }).dedup_key as string;
    const c = r.event({ dedup_key: "login:john@example.com" }).dedup_key as string;
    expect(a).toMatch(/^login:\[redacted: email [0-9a-f]{8}\]$/);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toContain("jane");
  });
});

const service: RecordedService = { id: "PSVC", name: "Checkout", escalationPolicy: "PEP1", integration: "checkout_events" };
const alert = (id: string, at: string, extra: Partial<ApiAlert> = {}): ApiAlert => ({
  id,
  created_at: at,
  alert_key: `key-${id}`,
  severity: "critical",
  body: { cef_details: { summary: `alert ${id}`, source_location: "host-1", severity: "critical", details: { a: 1 }, creation_time: at } },
  ...extra,
});
const incident = (n: number, alerts: ApiAlert[], extra: Partial<ReadIncident["incident"]> = {}, notes: string[] = []): ReadIncident => ({
  incident: {
    id: `I${n}`,
    incident_number: n,
    created_at: alerts[0].created_at,
    urgency: "high",
    service: { id: "PSVC", summary: "Checkout" },
    priority: null,
    escalation_policy: { id: "PEP1", summary: "Default" },
    ...extra,
  },
  alerts,
  notes: notes.map((content) => ({ content, created_at: alerts[0].created_at })),
});

describe("incidents and alerts as cases", () => {
  test("one case per alert in order of arrival; the opener carries the notes; a policy other than the service's is named", () => {
    const reads = [
      incident(2, [alert("b", "2026-12-01T10:05:00Z"), alert("d", "2026-12-01T10:20:00Z")], { priority: { id: "PP1", summary: "P1" } }, ["runbook"]),
      incident(1, [alert("a", "2026-12-01T10:00:00Z")], { urgency: "low", escalation_policy: { id: "PEP2", summary: "DB team" } }),
    ];
    const { cases, cut } = casesOf(reads, new Map([["PSVC", service]]), redactor(), 10);
    expect(cut).toBe(false);
    expect(cases.map((c) => [c.name, c.at])).toEqual([
      ["#1 alert a", "2026-12-01T10:00:00.000Z"],
      ["#2.1 alert b", "2026-12-01T10:05:00.000Z"],
      ["#2.2 alert d", "2026-12-01T10:20:00.000Z"],
    ]);
    expect(cases[0].expect).toEqual({
      outcome: "incident",
      service: "Checkout",
      severity: "critical",
      urgency: "low",
      priority: null,
      escalation_policy: "DB team",
      annotations: [],
    });
    expect(cases[1].expect).toMatchObject({ priority: "P1", escalation_policy: null, annotations: ["runbook"] });
    expect(cases[2].expect).not.toHaveProperty("annotations");
    expect(cases[0].event).toEqual({
      event_action: "trigger",
      dedup_key: "key-a",
      summary: "alert a",
      source: "host-1",
      severity: "critical",
      timestamp: "2026-12-01T10:00:00Z",
      custom_details: { a: 1 },
    });
  });

  test("a resolve comes before a later alert reuses a resolved alert's key, so a replay does not deduplicate it", () => {
    const first = alert("a", "2026-12-01T10:00:00Z", { alert_key: "disk", resolved_at: "2026-12-01T10:30:00Z" });
    const again = alert("b", "2026-12-01T11:00:00Z", { alert_key: "disk" });
    const { cases } = casesOf([incident(1, [first]), incident(2, [again])], new Map([["PSVC", service]]), redactor(), 10);
    expect(cases.map((c) => [c.name, c.event.event_action, c.at])).toEqual([
      ["#1 alert a", "trigger", "2026-12-01T10:00:00.000Z"],
      ["#1 resolved", "resolve", "2026-12-01T10:30:00.000Z"],
      ["#2 alert b", "trigger", "2026-12-01T11:00:00.000Z"],
    ]);
    expect(cases[1]).toMatchObject({ event: { dedup_key: "disk" }, expect: { outcome: "resolved" } });
  });

  test("without resolved_at, a resolved alert whose key comes back is resolved just before it", () => {
    const first = alert("a", "2026-12-01T10:00:00Z", { alert_key: "disk", status: "resolved" });
    const again = alert("b", "2026-12-01T11:00:00Z", { alert_key: "disk" });
    const { cases } = casesOf([incident(1, [first]), incident(2, [again])], new Map([["PSVC", service]]), redactor(), 10);
    expect(cases.map((c) => [c.event.event_action, c.at])).toEqual([
      ["trigger", "2026-12-01T10:00:00.000Z"],
      ["resolve", "2026-12-01T10:59:59.999Z"],
      ["trigger", "2026-12-01T11:00:00.000Z"],
    ]);
  });

  test("a resolve whose resolved_at precedes alerts of other keys stands in time order among them (a run refuses a file out of order)", () => {
    const first = alert("a", "2026-12-01T10:00:00Z", { alert_key: "disk", resolved_at: "2026-12-01T10:10:00Z" });
    const between = alert("c", "2026-12-01T10:20:00Z", { alert_key: "cpu" });
    const again = alert("b", "2026-12-01T10:30:00Z", { alert_key: "disk" });
    const { cases } = casesOf([incident(1, [first]), incident(3, [between]), incident(2, [again])], new Map([["PSVC", service]]), redactor(), 10);
    expect(cases.map((c) => [c.event.dedup_key, c.event.event_action, c.at])).toEqual([
      ["disk", "trigger", "2026-12-01T10:00:00.000Z"],
      ["disk", "resolve", "2026-12-01T10:10:00.000Z"],
      ["cpu", "trigger", "2026-12-01T10:20:00.000Z"],
      ["disk", "trigger", "2026-12-01T10:30:00.000Z"],
    ]);
  });

  test("the rules' notes, which may quote the event, are redacted by the text rule as the event is", () => {
    const reads = [incident(1, [alert("a", "2026-12-01T10:00:00Z")], {}, ["paged for ops@example.com, see https://x/y?access_token=abcdef123456"])];
    const { cases } = casesOf(reads, new Map([["PSVC", service]]), redactor(), 10);
    const notes = JSON.stringify(cases[0].expect.annotations);
    expect(notes).not.toContain("ops@example.com");
    expect(notes).not.toContain("abcdef123456");
    expect(notes).toContain("[redacted: email]");
    expect(notes).toContain("[redacted: token]");
  });

  test("--max-events cuts the list; several services name their integration per case", () => {
    const other: RecordedService = { ...service, id: "POTHER", integration: "other_events" };
    const reads = [incident(1, [alert("a", "2026-12-01T10:00:00Z"), alert("b", "2026-12-01T10:01:00Z")])];
    const { cases, cut } = casesOf(
      reads,
      new Map([
        ["PSVC", service],
        ["POTHER", other],
      ]),
      redactor(),
      1,
    );
    expect(cut).toBe(true);
    expect(cases).toHaveLength(1);
    expect(cases[0].integration).toBe("checkout_events");
  });

  test("an alert body without PD-CEF fields still makes a valid event", () => {
    expect(eventOfAlert({ id: "x", created_at: "2026-12-01T10:00:00Z", alert_key: "k", severity: "bogus", body: null })).toEqual({
      event_action: "trigger",
      dedup_key: "k",
      summary: "(no summary)",
      source: "(no source)",
      severity: "critical",
    });
  });

  test("the written file reads back as a case file, with its header and recorded block", () => {
    const r = redactor();
    const { cases, cut } = casesOf([incident(1, [alert("a", "2026-12-01T10:00:00Z")])], new Map([["PSVC", service]]), r, 10);
    const opts = recordOptions({ service: ["PSVC=checkout_events"], last: "24h" }, NOW);
    const recorded = recordedBlock("https://api.pagerduty.com/", NOW, opts, [service]);
    const text = caseFileText(recorded, [service], cases, cut, r);
    expect(text.startsWith("# Recorded by pagerduty-routing-test record from https://api.pagerduty.com at 2026-12-01T12:00:00.000Z,\n")).toBe(true);
    const file = parseCaseFile(text, "recorded.yaml");
    expect(file.recorded).toEqual({
      from: "https://api.pagerduty.com",
      at: NOW.toISOString(),
      since: "2026-11-30T12:00:00.000Z",
      until: NOW.toISOString(),
      services: [{ id: "PSVC", name: "Checkout" }],
    });
    expect(file.cases).toEqual([expect.objectContaining({ name: "#1 alert a", integration: "checkout_events" })]);
  });
});

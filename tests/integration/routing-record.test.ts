// `pagerduty-routing-test record` against an emulator standing in for a real account: 300 events
// through an active orchestration, recorded over HTTP with the account's OAuth app, 429s injected
// on the listing and on an incident's alerts. The file holds every event that made an alert once,
// in order of arrival, with what the emulator did; suppressed alerts and deduplicated triggers are
// absent (PagerDuty's REST API does not serve them); credentials and personal data are not written.
import { readFileSync, writeFileSync } from "node:fs";
import { CORE_SCHEMA, dump, load } from "js-yaml";
import { readCaseFile } from "../../provider/cli/routing-cases";
import { outcomeOfTrace } from "../../provider/cli/routing-outcome";
import { admin, type Client, type Emu, startWithClient } from "../emulator/helpers";
import { routingTestCommand } from "../../provider/cli/routing-test";
import { fault, makeTraffic, recordTraffic, run, type Traffic } from "../support/recorded-traffic";

let e: Emu;
let api: Client;
let traffic: Traffic;
/** The recording of the whole window, with the 429s. */
let recordedFile: string;

beforeAll(async () => {
  ({ e, api } = await startWithClient());
  traffic = await makeTraffic(e, api, 300);
}, 60_000);
afterAll(() => e?.close());

/** The events that made an alert: the ones the REST API serves. */
const alerting = () => traffic.sent.filter((s) => ["incident_opened", "alert_added_to_incident"].includes(s.trace.outcome.kind));

test("the traffic is what the recording needs: more incidents than a page, suppressed and deduplicated events among them", () => {
  const kinds = traffic.sent.map((s) => s.trace.outcome.kind);
  expect(alerting().length).toBeGreaterThan(200);
  expect(kinds.filter((k) => k === "suppressed").length).toBeGreaterThan(10);
  expect(kinds.filter((k) => k === "deduplicated").length).toBeGreaterThan(10);
  expect(traffic.sent.filter((s) => s.trace.result.annotations.length).length).toBeGreaterThan(10);
});

describe("a recording of the window, with 429s on the way", () => {
  let file: string;
  let text: string;
  let err: string;

  beforeAll(async () => {
    expect((await fault(e, { route: "GET /incidents", status: 429, count: 1 })).status).toBe(201);
    expect((await fault(e, { route: "GET /incidents/:id/alerts", status: 429, count: 2 })).status).toBe(201);
    const { file: f, ran } = await recordTraffic(e, traffic);
    expect(ran).toMatchObject({ code: 0, out: "" });
    file = f;
    recordedFile = f;
    err = ran.err;
    text = readFileSync(file, "utf8");
  }, 60_000);

  test("the 429s were waited out: both faults were used up and the run succeeded", async () => {
    expect((await admin(e, "GET", "/faults")).json.faults).toEqual([]);
    expect(err).toMatch(/wrote \d+ cases to /);
  });

  test("every event that made an alert is there once, in order of arrival, with what the emulator did", () => {
    const { cases } = readCaseFile(file);
    const expected = alerting();
    expect(cases.length).toBe(expected.length);
    cases.forEach((c, i) => {
      const sent = expected[i];
      expect(c.event.dedup_key).toBe(sent.dedup_key);
      // The alert's created_at: when the event arrived, the few ms of its evaluation later.
      const at = c.at?.kind === "instant" ? c.at.ms : Number.NaN;
      expect(at - Date.parse(sent.at)).toBeGreaterThanOrEqual(0);
      expect(at - Date.parse(sent.at)).toBeLessThan(5_000);
      expect(c.integration).toBe("alerts");
      const did = outcomeOfTrace(sent.trace);
      const { annotations, ...fields } = did;
      expect(c.expect).toEqual({ ...fields, escalation_policy: null, annotations });
      expect(c.event.severity).toBe(sent.trace.result.severity);
    });
    // Suppressed and deduplicated events are not served, so not recorded.
    const keys = new Set(cases.map((c) => c.event.dedup_key));
    for (const s of traffic.sent.filter((x) => x.trace.outcome.kind === "suppressed")) expect(keys.has(s.dedup_key)).toBe(false);
    expect(keys.size).toBe(cases.length);
  });

  test("the event is the one that arrived: summary, source, component, custom details", () => {
    const { cases } = readCaseFile(file);
    const db = cases.find((c) => c.event.dedup_key === "evt-12")!;
    expect(db.event).toMatchObject({
      event_action: "trigger",
      summary: "database db-2 slow (12)",
      source: "db-2",
      severity: "critical",
      component: "postgres",
      custom_details: { kind: "signal", seq: 12 },
    });
    expect(db.expect).toMatchObject({ outcome: "incident", priority: "P1", urgency: "high", annotations: ["DB runbook: db-2"] });
    expect(db.name).toMatch(/^#\d+ database db-2 slow \(12\)$/);
  });

  test("credentials and personal data are replaced by markers", () => {
    for (const secret of ["oncall1@example.com", "tok-1-abcdefgh", "ops1@example.com", "10.1.2.1", "192.168.7.2", e.seed.oauth.clientSecret])
      expect(text).not.toContain(secret);
    const { cases } = readCaseFile(file);
    const one = cases.find((c) => c.event.dedup_key === "evt-1")!;
    expect(one.event.custom_details).toEqual({
      kind: "signal",
      seq: 1,
      user_email: "[redacted: personal data]",
      api_token: "[redacted: credential]",
      note: "ask [redacted: email] at [redacted: ip address]",
    });
    expect(text).toMatch(/# Redacted \(credentials, personal data; keep fields with --keep-fields\): .*\d+ credential/);
  });

  test("the file says where and when it was recorded, and what it cannot hold", () => {
    const { recorded } = readCaseFile(file);
    expect(recorded).toEqual({
      from: e.apiUrl,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      since: new Date(traffic.since).toISOString(),
      until: new Date(traffic.until).toISOString(),
      services: [{ id: traffic.serviceId, name: traffic.serviceName }],
    });
    expect(text.split("\n")[0]).toBe(`# Recorded by pagerduty-routing-test record from ${e.apiUrl} at ${recorded!.at},`);
    expect(text).toContain("suppressed alerts (they open no incident)");
  });
});

test("--keep-fields writes the named fields verbatim, --max-events stops early and says so", async () => {
  const { file, ran } = await recordTraffic(e, traffic, ["--keep-fields", "custom_details.host,custom_details.note", "--max-events", "20"]);
  expect(ran.code).toBe(0);
  expect(ran.err).toContain("wrote 20 cases");
  expect(ran.err).toContain("(stopped at --max-events)");
  const { cases, recorded } = readCaseFile(file);
  expect(cases).toHaveLength(20);
  expect(recorded?.kept_fields).toEqual(["custom_details.host", "custom_details.note"]);
  const text = readFileSync(file, "utf8");
  expect(text).toContain("192.168.7.2");
  expect(text).toContain("ask ops1@example.com at 10.1.2.1");
  expect(text).not.toContain("oncall1@example.com");
  expect(text).toContain("stopped at --max-events");
});

test("a service the account does not have is named, and nothing is written", async () => {
  const { ran } = await recordTraffic(e, { ...traffic, serviceId: "PNOSUCH" });
  expect(ran.code).toBe(1);
  expect(ran.err).toMatch(/pagerduty-routing-test record: .*\/services\/PNOSUCH.*404/);
});

test("run again through the same orchestration (last: it replaces the window's incidents), every recorded case passes", async () => {
  // Without `at`: the recorded instants are behind the emulator's clock, which only moves forward.
  const doc = load(readFileSync(recordedFile, "utf8"), { schema: CORE_SCHEMA }) as { cases: Record<string, unknown>[] };
  for (const c of doc.cases) delete c.at;
  const again = recordedFile.replace(/\.yaml$/, "-now.yaml");
  writeFileSync(again, dump(doc));
  const pulumi = () => JSON.stringify({ alerts: traffic.routingKey });
  const r = await run(routingTestCommand({ pulumi, env: { PAGERDUTY_EMULATOR_ADMIN_TOKEN: e.adminToken } }), ["--cases", again, "--url", e.url]);
  expect(r.out).toContain(`${doc.cases.length} of ${doc.cases.length} cases passed`);
  expect(r.code).toBe(0);
}, 60_000);

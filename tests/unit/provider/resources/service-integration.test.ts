import { resource, toBody, toOutputs } from "../../../../provider/resources/service-integration";
import { offline } from "../../support/resource-api";

const provider = offline(resource);

const events = {
  id: "PINT1",
  type: "events_api_v2_inbound_integration",
  name: "Events API V2",
  summary: "Events API V2",
  html_url: "https://acme.pagerduty.com/services/PSVC1/integrations/PINT1",
  created_at: "2026-11-22T00:00:00Z",
  service: { id: "PSVC1", type: "service_reference" },
  vendor: null,
  integration_key: "0123456789abcdef0123456789abcdef",
};
const email = {
  id: "PINT2",
  type: "generic_email_inbound_integration",
  name: "Mail",
  summary: "Mail",
  service: { id: "PSVC1" },
  vendor: null,
  integration_email: "ops@acme.pagerduty.example",
  email_incident_creation: "on_new_email",
  email_filter_mode: "all-email",
  email_filters: [{ subject_mode: "match", subject_regex: "ERR", body_mode: "always", body_regex: null, from_email_mode: "always", from_email_regex: null }],
  email_parsers: [],
  email_parsing_fallback: "open_new_incident",
};

describe("mapping", () => {
  test("outputs of an events integration: the key, references as ids, email settings null", () => {
    expect(toOutputs(events, "PSVC1")).toEqual({
      service: "PSVC1",
      type: "events_api_v2_inbound_integration",
      vendor: null,
      name: "Events API V2",
      integrationEmail: null,
      emailIncidentCreation: null,
      emailFilterMode: null,
      emailFilters: null,
      emailParsers: null,
      emailParsingFallback: null,
      integrationKey: events.integration_key,
      htmlUrl: events.html_url,
      summary: "Events API V2",
      createdAt: events.created_at,
    });
  });
  test("outputs of an email integration: settings camelCased deep", () => {
    const out = toOutputs(email, "PSVC1");
    expect(out).toMatchObject({
      integrationEmail: "ops@acme.pagerduty.example",
      emailIncidentCreation: "on_new_email",
      emailFilterMode: "all-email",
      emailFilters: [{ subjectMode: "match", subjectRegex: "ERR", bodyMode: "always", bodyRegex: null, fromEmailMode: "always", fromEmailRegex: null }],
      emailParsers: [],
      emailParsingFallback: "open_new_incident",
      integrationKey: null,
    });
  });
  test("a vendor integration reports the vendor id", () => {
    expect(toOutputs({ ...events, vendor: { id: "PVEN1" } }, "PSVC1").vendor).toBe("PVEN1");
  });
  test("body: snake_case, references typed, type only on create, adoptId never sent", () => {
    const inputs = {
      service: "PSVC1",
      type: "generic_email_inbound_integration",
      name: "Mail",
      integrationEmail: "a@b.c",
      emailIncidentCreation: "use_rules" as const,
      emailFilterMode: "and-rules-email" as const,
      emailParsingFallback: "discard" as const,
      emailFilters: [
        { subjectMode: "match" as const, subjectRegex: "x", bodyMode: "always" as const, fromEmailMode: "no-match" as const, fromEmailRegex: "spam" },
      ],
      emailParsers: [
        {
          action: "trigger" as const,
          matchPredicate: { type: "all" as const, children: [{ type: "contains" as const, part: "subject" as const, matcher: "db" }] },
          valueExtractors: [{ type: "regex" as const, part: "body" as const, valueName: "host", regex: "h=(\\w+)" }],
        },
      ],
      adoptId: "PX",
    };
    expect(toBody(inputs, { includeType: true })).toEqual({
      type: "generic_email_inbound_integration",
      name: "Mail",
      integration_email: "a@b.c",
      email_incident_creation: "use_rules",
      email_filter_mode: "and-rules-email",
      email_parsing_fallback: "discard",
      email_filters: [{ subject_mode: "match", subject_regex: "x", body_mode: "always", from_email_mode: "no-match", from_email_regex: "spam" }],
      email_parsers: [
        {
          action: "trigger",
          match_predicate: { type: "all", children: [{ type: "contains", part: "subject", matcher: "db" }] },
          value_extractors: [{ type: "regex", part: "body", value_name: "host", regex: "h=(\\w+)" }],
        },
      ],
      service: { id: "PSVC1", type: "service_reference" },
    });
    expect(toBody(inputs, { includeType: false })).not.toHaveProperty("type");
    expect(toBody({ service: "PSVC1", vendor: "PVEN1" }, { includeType: true })).toEqual({
      vendor: { id: "PVEN1", type: "vendor_reference" },
      service: { id: "PSVC1", type: "service_reference" },
    });
  });
});

describe("diff", () => {
  const olds = toOutputs(email, "PSVC1");
  const base = { service: "PSVC1", type: "generic_email_inbound_integration" };
  const diff = (news: Record<string, unknown>) => provider.diff!("PINT2", olds, { ...base, ...news, __provider: "p" });

  test("no diff when only server defaults differ, or against the generated address and key", async () => {
    await expect(diff({})).resolves.toMatchObject({ changes: false, replaces: [] });
    await expect(
      diff({ name: "Mail", emailFilters: [{ subjectMode: "match", subjectRegex: "ERR", bodyMode: "always", fromEmailMode: "always" }] }),
    ).resolves.toMatchObject({ changes: false });
    await expect(diff({ adoptId: "PINT9" })).resolves.toMatchObject({ changes: false });
  });
  test("every settable field updates in place", async () => {
    const cases: Record<string, unknown> = {
      name: "Inbox",
      integrationEmail: "other@acme.pagerduty.example",
      emailIncidentCreation: "use_rules",
      emailFilterMode: "or-rules-email",
      emailFilters: [{ subjectMode: "no-match", bodyMode: "always", fromEmailMode: "always" }],
      emailParsers: [{ action: "resolve", matchPredicate: { type: "any", children: [] } }],
      emailParsingFallback: "discard",
    };
    for (const [field, value] of Object.entries(cases)) {
      await expect(diff({ [field]: value }).then((r) => ({ field, ...r }))).resolves.toMatchObject({ field, changes: true, replaces: [] });
    }
  });
  test("service, type and vendor replace", async () => {
    await expect(diff({ service: "PSVC2" })).resolves.toMatchObject({ changes: true, replaces: ["service"] });
    await expect(diff({ type: "events_api_v2_inbound_integration" })).resolves.toMatchObject({ changes: true, replaces: ["type"] });
    await expect(provider.diff!("PINT2", olds, { service: "PSVC1", vendor: "PVEN1" })).resolves.toMatchObject({ changes: true, replaces: ["vendor"] });
  });
});

describe("check", () => {
  const check = (news: Record<string, unknown>) => provider.check!({}, { service: "PSVC1", ...news });
  test("exactly one of type and vendor", async () => {
    await expect(check({})).resolves.toMatchObject({ failures: [{ property: "", reason: 'type: set exactly one of "type" and "vendor"' }] });
    await expect(check({ type: "events_api_v2_inbound_integration", vendor: "PVEN1" })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^vendor: /) }],
    });
    await expect(check({ vendor: "PVEN1" })).resolves.not.toHaveProperty("failures");
  });
  test("email settings only on the email type, and each names its property", async () => {
    await expect(check({ type: "events_api_v2_inbound_integration", emailFilterMode: "all-email" })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'emailFilterMode: applies only to type "generic_email_inbound_integration"' }],
    });
    const t = { type: "generic_email_inbound_integration" };
    await expect(check({ ...t, integrationEmail: "nope" })).resolves.toMatchObject({
      failures: [{ property: "", reason: "integrationEmail: must be an email address" }],
    });
    await expect(check({ ...t, emailFilters: [{ subjectMode: "sometimes", bodyMode: "always", fromEmailMode: "always" }] })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^emailFilters\[0\]\.subjectMode: /) }],
    });
    await expect(check({ ...t, emailParsers: [{ action: "trigger", matchPredicate: { type: "all", children: [{ type: "maybe" }] } }] })).resolves.toMatchObject(
      {
        failures: [{ property: "", reason: expect.stringMatching(/^emailParsers\[0\]\.matchPredicate\.children\[0\]\.type: /) }],
      },
    );
    await expect(check({ ...t, emailParsingFallback: "ignore" })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^emailParsingFallback: /) }],
    });
  });
  test("service is required, unknown inputs are refused, name may not be blank", async () => {
    await expect(provider.check!({}, { type: "events_api_v2_inbound_integration" })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^service: /) }],
    });
    await expect(check({ type: "events_api_v2_inbound_integration", integrationKey: "k" })).resolves.toMatchObject({
      failures: [{ reason: expect.stringContaining("integrationKey") }],
    });
    await expect(check({ type: "events_api_v2_inbound_integration", name: " " })).resolves.toMatchObject({
      failures: [{ property: "", reason: "name: must not be empty" }],
    });
  });
});

test("an unknown type fails at check, listing every type whole", async () => {
  const r = await provider.check!({}, { service: "PSVC", type: "carrier_pigeon_inbound_integration" });
  expect(r.failures).toHaveLength(1);
  expect(r.failures![0].property).toBe("");
  expect(r.failures![0].reason).toMatch(
    /^type: "carrier_pigeon_inbound_integration" is not an integration type; the types are: events_api_v2_inbound_integration, .*, sql_monitor_inbound_integration \(or set `vendor` instead\)$/,
  );
});

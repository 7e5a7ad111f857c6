// Bad input never crashes the emulator and never gets a 5xx: malformed JSON, wrong content types,
// oversized bodies, wrong field types, unknown routes and methods all get a 4xx with an error
// body. A fast-check property over every route the app registers.
import fc from "fast-check";
import { ACCEPT, appToken, bearer, createService, type Emu, prototypeFields, send, start } from "./helpers";

const BODY_LIMIT = 4096;
let e: Emu;
let token: string;
const ids: Record<string, string[]> = { id: [], integration_id: [], rule_id: [], field_id: [], feature_name: ["aiops"], fault_id: ["1"] };

beforeAll(async () => {
  e = await start({ bodyLimit: BODY_LIMIT, rateLimit: 1_000_000 });
  token = await appToken(e);
  const api = await bearer(e);
  for (let n = 0; n < 3; n++) {
    const sid = await createService(e, api);
    ids.id.push(sid);
    ids.integration_id.push(
      (await api.post(`/services/${sid}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } })).json.integration.id,
    );
    ids.rule_id.push((await api.post(`/services/${sid}/rules`, { rule: {} })).json.rule.id);
  }
  ids.field_id = (await api.get("/services/custom_fields")).json.fields.map((f: { id: string }) => f.id);
});
afterAll(() => e.close());

// Whatever a case sends, no object of the process gains a field (an id such as "__proto__" once
// reached Object's prototype through an admin route).
const pristine = prototypeFields();
afterEach(() => expect(prototypeFields()).toEqual(pristine));

const FIELDS = [
  "name",
  "description",
  "escalation_policy",
  "auto_resolve_timeout",
  "acknowledgement_timeout",
  "status",
  "incident_urgency_rule",
  "support_hours",
  "scheduled_actions",
  "alert_creation",
  "alert_grouping_parameters",
  "auto_pause_notifications_parameters",
  "type",
  "vendor",
  "integration_email",
  "email_filters",
  "email_parsers",
  "email_filter_mode",
  "position",
  "disabled",
  "conditions",
  "time_frame",
  "variables",
  "actions",
  "display_name",
  "data_type",
  "field_type",
  "field_options",
  "default_value",
  "enabled",
  "id",
  "value",
];
const KEYS = ["service", "services", "integration", "rule", "field", "custom_fields", "enablement", "rule_id"];
const FORM_KEYS = [
  "grant_type",
  "client_id",
  "client_secret",
  "scope",
  "code",
  "redirect_uri",
  "code_verifier",
  "refresh_token",
  "request_id",
  "email",
  "password",
  "decision",
];

/** Objects shaped like the real envelopes, with arbitrary values: exercises every validator. */
const fieldValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(-1, 1.5, Number.POSITIVE_INFINITY, "", null, [], {}, true));
const shapedObject = fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 6 });
const shapedBody = fc.oneof(
  fc
    .record({ key: fc.constantFrom(...KEYS), inner: fc.oneof(shapedObject, fc.array(shapedObject, { maxLength: 3 }), fieldValue) })
    .map(({ key, inner }) => JSON.stringify({ [key]: inner })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom("{", "[1,", '{"service":', "null", '"x"', "", '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
  fc.constant("x".repeat(BODY_LIMIT + 10)).map((s) => JSON.stringify({ service: { name: s } })),
);
const formBody = fc
  .dictionary(
    fc.constantFrom(...FORM_KEYS),
    fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("client_credentials", "authorization_code", "refresh_token", "as_account-us.acme services.read")),
    { maxKeys: 6 },
  )
  .map((d) => new URLSearchParams(d).toString());

const CONTENT_TYPES = [
  undefined,
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data; boundary=x",
  "application/vnd.pagerduty+json;version=2",
];

function fill(url: string, pick: (name: string) => string): string {
  return url.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(pick(name)));
}

interface Case {
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  auth?: string;
  accept?: string;
}

async function check(c: Case): Promise<void> {
  const headers: Record<string, string> = {};
  if (c.contentType) headers["content-type"] = c.contentType;
  if (c.auth) headers.authorization = c.auth;
  if (c.accept) headers.accept = c.accept;
  const hasBody = c.body !== undefined && c.method !== "GET" && c.method !== "HEAD";
  const res = await send(e.url + c.path, { method: c.method, headers, body: hasBody ? c.body : undefined });
  const where = `${c.method} ${c.path} [${c.contentType}] ${String(c.body).slice(0, 80)} → ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  if (res.status >= 400 && c.method !== "HEAD") {
    const html = /text\/html/.test(res.headers.get("content-type") ?? "");
    // REST `{error: {message}}`, OAuth `{error, error_description}`, Events API `{status, message}`.
    const events = c.path.split("?")[0].endsWith("/v2/enqueue") && typeof res.json?.status === "string" && typeof res.json?.message === "string";
    const ok = html || events || (res.json && (typeof res.json.error === "string" || typeof res.json.error?.message === "string"));
    if (!ok) throw new Error(`4xx without an error body: ${where}`);
  }
}

test("every registered route is covered by the property below", () => {
  const urls = new Set(e.core.routes.map((r) => `${r.method} ${r.url}`));
  expect(urls.size).toBeGreaterThanOrEqual(35);
  expect(urls).toContain("PUT /services/:id/custom_fields/values");
  expect(urls).toContain("POST /oauth/token");
});

test("fuzz: arbitrary method, path, content type, body and credentials → never 5xx, 4xx always with an error body", async () => {
  const routes = e.core.routes.filter((r) => !r.url.startsWith("/_emulator/faults"));
  const authFor = (kind: number) => [`Bearer ${token}`, `Token token=${e.seed.apiKey}`, undefined, "Bearer nope", "Token token=", "Basic Zm9vOmJhcg=="][kind];
  const arbitraryCase = fc.record({
    route: fc.constantFrom(...routes),
    otherMethod: fc.option(fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"), { freq: 4 }),
    validIds: fc.boolean(),
    garbage: fc.string({ minLength: 1, maxLength: 12 }),
    idIndex: fc.nat(5),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    body: fc.oneof(shapedBody, formBody, fc.constant(undefined)),
    auth: fc.nat(5),
    accept: fc.constantFrom(ACCEPT, undefined, "application/vnd.pagerduty+json;version=1", "*/*", "text/html", 'application/vnd.pagerduty+json;version="2"'),
    query: fc.constantFrom(
      "",
      "?limit=0",
      "?limit=-1",
      "?offset=x",
      "?total=true&limit=101",
      "?sort_by=zzz",
      "?include[]=x",
      "?since=bad",
      "?cursor=%%%",
      "?client_secret=x",
      "?query=%00",
    ),
    admin: fc.boolean(),
  });
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(arbitraryCase, async (c) => {
      runs++;
      const path = fill(c.route.url, (name) => (c.validIds && ids[name] ? ids[name][c.idIndex % ids[name].length] : c.garbage)) + c.query;
      await check({
        method: c.otherMethod ?? c.route.method,
        path,
        contentType: c.contentType,
        body: c.body,
        auth: c.admin && path.startsWith("/_emulator") ? undefined : authFor(c.auth),
        accept: c.accept,
      });
    }),
    { numRuns: 1500 },
  );
  expect(runs).toBe(1500);
  // Still alive and serving.
  expect((await send(`${e.url}/_emulator/health`)).status).toBe(200);
}, 120_000);

test("each route with malformed JSON, a wrong content type and an oversized body → 4xx with an error body", async () => {
  for (const r of e.core.routes) {
    const path = fill(r.url, (name) => ids[name]?.[0] ?? "x");
    for (const [contentType, body] of [
      ["application/json", "{not json"],
      ["text/plain", "hello"],
      ["application/json", JSON.stringify({ service: { name: "x".repeat(BODY_LIMIT) } })],
      ["application/json", "[]"],
    ] as const) {
      await check({ method: r.method, path, contentType, body, auth: `Bearer ${token}`, accept: ACCEPT });
    }
  }
  // About 1 s alone; every route sends a 1 MiB body, which takes longer on a loaded machine.
}, 60_000);

test("unknown routes and methods → 404 with the error body", async () => {
  for (const [method, path] of [
    ["GET", "/nope"],
    ["PATCH", "/services"],
    ["DELETE", "/services"],
    ["POST", `/services/${ids.id[0]}`],
    ["GET", "/services/a/b/c/d"],
  ]) {
    const res = await send(e.url + path, { method, headers: { authorization: `Bearer ${token}` } });
    expect([method, path, res.status]).toEqual([method, path, 404]);
    expect(res.json.error.code).toBe(2100);
  }
});

test("fuzz: admin controls with the admin token and arbitrary bodies → never 5xx", async () => {
  const routes = e.core.routes.filter((r) => r.url.startsWith("/_emulator"));
  const seedish = fc.dictionary(
    fc.constantFrom("accounts", "users", "apps", "apiKeys", "escalationPolicies", "customFields"),
    fc.array(
      fc.dictionary(
        fc.constantFrom(
          "account",
          "subdomain",
          "region",
          "email",
          "kind",
          "name",
          "scopes",
          "token",
          "user",
          "id",
          "clientId",
          "installs",
          "redirectUris",
          "confidential",
          "data_type",
          "display_name",
        ),
        fieldValue,
        { maxKeys: 6 },
      ),
      { maxLength: 3 },
    ),
    { maxKeys: 3 },
  );
  const adminBody = fc.oneof(
    seedish.map((v) => JSON.stringify(v)),
    fc
      .dictionary(
        fc.constantFrom(
          "advanceMs",
          "advanceSeconds",
          "perMinute",
          "route",
          "status",
          "latencyMs",
          "count",
          "fraction",
          "drop",
          "published",
          "redirectUris",
          "account",
          "aiopsEntitled",
          "name",
        ),
        fieldValue,
        { maxKeys: 4 },
      )
      .map((v) => JSON.stringify(v)),
    shapedBody,
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes),
      fc.string({ maxLength: 10 }),
      adminBody,
      fc.constantFrom(...CONTENT_TYPES),
      async (r, param, body, contentType) => {
        const path = fill(r.url, () => param || "x");
        const headers: Record<string, string> = { "x-emulator-admin-token": e.adminToken };
        if (contentType) headers["content-type"] = contentType;
        const res = await send(e.url + path, { method: r.method, headers, body: r.method === "GET" ? undefined : body });
        if (res.status >= 500) throw new Error(`5xx: ${r.method} ${path} ${body.slice(0, 200)} → ${res.text.slice(0, 300)}`);
        // Keep injected faults from leaking into later cases: latency and drops only slow things down.
        await send(`${e.url}/_emulator/faults`, { method: "DELETE", headers: { "x-emulator-admin-token": e.adminToken } });
      },
    ),
    { numRuns: 600 },
  );
  expect((await send(`${e.url}/_emulator/health`)).status).toBe(200);
}, 120_000);

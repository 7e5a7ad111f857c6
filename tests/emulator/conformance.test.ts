// Conformance to PagerDuty's official API description: ../shared/openapi/pagerduty-rest-services.json
// (the services area) and ../shared/openapi/pagerduty-rest-around-services.json (what surrounds it;
// the emulator serves its incidents): for every operation of the descriptions the emulator serves,
// the description's own request examples (ids substituted by real ones) are sent, the status must be
// one the operation lists and the reply must validate against that status's schema (ajv, OpenAPI
// 3.0 `nullable`, `$ref`s within each file); the scope the emulator demands must equal
// `x-pd-requires-scope`; and the provider's own request bodies must validate against the request
// schemas. Where a description contradicts itself or the service's known behaviour, EXCEPTIONS names
// the case and why; each exception is asserted to still fail, so a stale one is noticed instead of
// hiding a regression.
//
// The descriptions live beside the project (../shared), not in it: a clone of the project alone has
// none. Then one test says so plainly and asserts it is not this repository's CI (.ci/run sets
// PAGERDUTY_CONFORMANCE=required: ../shared exists there and the suite runs in full); nothing is
// skipped either way.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { toBody as integrationBody } from "../../provider/resources/service-integration";
import { toBody as ruleBody } from "../../provider/resources/service-event-rule";
import { toBody as serviceBody } from "../../provider/resources/service";
import { toOutputs as conversionOutputs } from "../../provider/resources/service-event-rules-conversion";
import { toBody as cacheVariableBody } from "../../provider/resources/service-orchestration-cache-variable";
import { admin, bearer, client, type Client, type Emu, type Registry, registry, type Res, sendEvent, start } from "./helpers";

const OPENAPI = join(__dirname, "..", "..", "..", "shared", "openapi");
/** Each description and the ajv key its schemas are registered under. */
const FILES = { pd: "pagerduty-rest-services.json", around: "pagerduty-rest-around-services.json" } as const;
type Source = keyof typeof FILES;
const absent = Object.values(FILES).filter((f) => !existsSync(join(OPENAPI, f)));

if (absent.length === Object.keys(FILES).length) {
  const line = "conformance ran against nothing: ../shared/openapi not present";
  console.warn(`${line} (${OPENAPI}); the API descriptions are beside the project in its CI`);
  test(line, () => {
    expect(absent).toEqual(Object.values(FILES));
    // This repository's CI (.ci/run) has ../shared and says so: there the suite must run, not this.
    // Any other CI (a fork's, CI=true) runs without it.
    expect(process.env.PAGERDUTY_CONFORMANCE).not.toBe("required");
  });
} else {
  test("both API descriptions are present (../shared/openapi)", () => expect(absent).toEqual([]));
  conformance();
}

function conformance(): void {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Json = any;
  const docs: Record<Source, Json> = {
    pd: JSON.parse(readFileSync(join(OPENAPI, FILES.pd), "utf8")),
    around: JSON.parse(readFileSync(join(OPENAPI, FILES.around), "utf8")),
  };
  const doc = docs.pd;

  /**
   * OpenAPI 3.0 `nullable` next to `$ref`/`allOf` (no `type`), which ajv's `nullable` support
   * refuses: rewritten as "that, or null", the meaning OpenAPI gives it.
   */
  function nullableRefs(n: Json): void {
    if (!n || typeof n !== "object") return;
    Object.values(n).forEach(nullableRefs);
    if (!Array.isArray(n) && n.nullable === true && n.type === undefined) {
      const { nullable: _n, description: _d, ...rest } = n;
      for (const k of Object.keys(n)) if (k !== "description") delete n[k];
      n.anyOf = [rest, { type: "null" }];
    }
  }

  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  // Formats of the description that JSON Schema does not define, and `time` as the description uses
  // it ("09:00:00", without the zone RFC 3339 requires).
  ajv.addFormat("tzinfo", /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/);
  ajv.addFormat("activesupport-time-zone", /^[A-Za-z_ ()+:0-9/-]+$/);
  ajv.addFormat("url", /^https?:\/\/\S+$/);
  ajv.addFormat("time", /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
  for (const key of Object.keys(FILES) as Source[]) {
    const schemaDoc = structuredClone(docs[key]);
    nullableRefs(schemaDoc);
    ajv.addSchema(schemaDoc, key);
  }
  const pointer = (source: Source, ...parts: string[]) => `${source}#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
  const validators = new Map<string, ValidateFunction>();
  function validator(ref: string): ValidateFunction {
    let v = validators.get(ref);
    if (!v) validators.set(ref, (v = ajv.compile({ $ref: ref })));
    return v;
  }

  /** Follows a `#/...` $ref inside a description (responses, examples). */
  function deref(node: Json, source: Json = doc): Json {
    while (node && typeof node.$ref === "string")
      node = node.$ref
        .slice(2)
        .split("/")
        .reduce((o: Json, k: string) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], source);
    return node;
  }

  interface Operation {
    source: Source;
    method: string;
    path: string;
    id: string;
    scope?: string;
    op: Json;
  }

  const OPERATIONS: Operation[] = (Object.keys(FILES) as Source[]).flatMap((source) =>
    Object.entries(docs[source].paths as Record<string, Json>).flatMap(([path, item]) =>
      ["get", "post", "put", "delete"]
        .filter((m) => item[m])
        .map((m) => ({ source, method: m.toUpperCase(), path, id: item[m].operationId, scope: item[m]["x-pd-requires-scope"], op: item[m] })),
    ),
  );
  /** `deref` within the operation's own description. */
  const derefIn = (o: Operation, node: Json): Json => deref(node, docs[o.source]);

  /** A route of the emulator in the description's path syntax. */
  const served = (e: Emu, o: Operation) =>
    e.core.routes.some((r) => r.method === o.method && r.url.replace(/:\w+/g, "{}") === o.path.replace(/\{[^}]+\}/g, "{}"));

  // Why an operation of the description is not served: the emulator covers the services area and
  // what clients call around it; escalation policies are created by seeding.
  const NOT_SERVED: Record<string, string> = {
    createEscalationPolicy: "escalation policies are read-only in the emulator (seeded or created through the admin API)",
    updateEscalationPolicy: "escalation policies are read-only in the emulator",
    deleteEscalationPolicy: "escalation policies are read-only in the emulator",
    // The around-services description: the emulator serves its incidents (they set a service's status).
    createIncident: "incidents open from events (POST /v2/enqueue), as monitoring tools open them; the REST create is not served",
    updateIncidents: "incidents are updated one at a time (PUT /incidents/{id}); the bulk update is not served",
    updateBusinessService: "business services are minimal (a side of a service dependency): create, list, show and delete only",
  };

  /**
   * Known disagreements: an operation (or "*"), the reply's data path (indices as "*") and ajv's
   * message, and why. Each must still occur somewhere in the run.
   */
  const EXCEPTIONS: { op: string; at: string; reason: string }[] = [
    {
      op: "getVendor",
      at: "/vendor must be array",
      reason:
        'the description types `vendor` as an array though its summary says "the vendor requested"; like every show endpoint (API-NOTES §2) the service answers an object, which is what clients such as the Terraform provider\'s vendor data source read',
    },
    {
      op: "*",
      at: "/description must be string",
      reason:
        "an unset description is null on services and escalation policies; the description omits `nullable` there, the provider and API-NOTES treat null as unset",
    },
    { op: "*", at: "/last_incident_timestamp must be string", reason: "a service that never had an incident has none (null), as the service answers" },
    {
      op: "*",
      at: "/support_hours must be object",
      reason: "support hours are optional (null when unset; the provider clears them with null), the description's SupportHours is not nullable",
    },
    {
      op: "*",
      at: "/auto_pause_notifications_parameters/timeout must be (integer|equal to one of the allowed values)",
      reason: "with auto-pause disabled the timeout is null (API-NOTES §3 lists null as allowed)",
    },
    {
      op: "*",
      at: "/integration/vendor must be object",
      reason: "an integration created by `type` has no vendor (API-NOTES §3: `type` or `vendor`); VendorReference is not nullable in the description",
    },
    {
      op: "*",
      at: "/integration/email_(parsers|filters) must NOT have fewer than 1 items",
      reason: 'an email integration without parsers or filters has empty lists; minItems: 1 cannot express "none"',
    },
    {
      op: "*",
      at: "/rules?(/\\*)?/time_frame must be object",
      reason: "a rule active all the time has time_frame null (the provider reads null as unset); the description's time_frame is not nullable",
    },
    {
      op: "(get|update)ServiceCustomFieldValues",
      at: "/custom_fields/\\*/value must (be object|match exactly one schema in oneOf)",
      reason: "the description's value schemas wrap the value as {value: x} while its own request examples, API-NOTES §3 and the service use the plain value",
    },
    {
      op: "listServices",
      at: "/services/\\*/integrations/\\*/type must be equal to one of the allowed values",
      reason:
        "with include[]=integrations the description says the integrations are full objects, yet types their items as IntegrationReference (types ending in _reference)",
    },
    {
      op: "(list|get|update)Incidents?",
      at: "/incidents?(/\\*)?/(resolved_at must be string|resolve_reason must be object)",
      reason:
        "an open incident has `resolved_at: null` and an incident not merged `resolve_reason: null`, as the description's own getIncident example shows; neither schema is nullable",
    },
    {
      op: "(list|get|update)Incidents?",
      at: "/incidents?(/\\*)?/priority must be object",
      reason: "an incident without a priority has `priority: null` (go-pagerduty's `Priority` is a pointer, read as none); the Priority schema is not nullable",
    },
    {
      op: "(list|get)Incidents?",
      at: "/incidents?(/\\*)?/service( must match exactly one schema in oneOf|/type must be equal to one of the allowed values)",
      reason:
        "with include[]=services the service is the full object, which departs from the Service schema only where the exceptions above say (null description and support_hours, null auto-pause timeout); inside `oneOf` ajv reports the whole branch",
    },
    {
      op: "(list|get)BusinessServices?",
      at: "/business_services?(/\\*)?/point_of_contact must be string",
      reason: "a business service made without a point of contact has `point_of_contact: null`; the description's field is not nullable",
    },
    {
      op: "listServiceFeatureEnablements",
      at: "/enablements/\\*/updated_at must be string",
      reason: "API-NOTES §3: an enablement never set is `enabled: true, updated_at: null`",
    },
  ];

  const excepted = (op: string, error: string) =>
    EXCEPTIONS.find((x) => new RegExp(`^(${x.op === "*" ? ".*" : x.op})$`).test(op) && new RegExp(`${x.at}$`).test(error));

  /** Ids of objects made for one case: the examples' ids are replaced by these. */
  interface Fixture {
    service: string;
    /** Two more services: the examples name up to three (alert grouping settings, dependencies). */
    service2: string;
    service3: string;
    /** An alert grouping setting of service3, and a business service the examples' dependencies name. */
    setting: string;
    business: string;
    incident: string;
    policy: string;
    integration: string;
    rule: string;
    /** A recent_value cache variable of the service's orchestration (the update examples change its conditions and type). */
    cacheVariable: string;
    field: string;
    fieldName: string;
    multiField: string;
    options: string[];
    priority: string;
  }

  async function fixture(api: Client, e: Emu): Promise<Fixture> {
    const must = (r: Res, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
      return r.json;
    };
    await admin(e, "POST", "/reset");
    const policy = e.seed.escalationPolicyId;
    const service = must(
      await api.post("/services", {
        service: {
          type: "service",
          name: `conformance-${Math.random().toString(36).slice(2)}`,
          escalation_policy: { id: policy, type: "escalation_policy_reference" },
        },
      }),
      "service",
    ).service.id;
    const another = async (n: number) =>
      must(
        await api.post("/services", {
          service: {
            type: "service",
            name: `conformance-${n}-${Math.random().toString(36).slice(2)}`,
            escalation_policy: { id: policy, type: "escalation_policy_reference" },
          },
        }),
        `service ${n}`,
      ).service.id as string;
    const [service2, service3] = [await another(2), await another(3)];
    const setting = must(
      await api.post("/alert_grouping_settings", {
        alert_grouping_setting: { name: "Fixture", type: "time", config: { timeout: 0 }, services: [{ id: service3 }] },
      }),
      "alert grouping setting",
    ).alert_grouping_setting.id;
    const business = must(await api.post("/business_services", { business_service: { name: "Fixture business" } }), "business service").business_service.id;
    must(
      await api.post("/service_dependencies/associate", {
        relationships: [
          { supporting_service: { id: service, type: "service" }, dependent_service: { id: business, type: "business_service" } },
          { supporting_service: { id: business, type: "business_service" }, dependent_service: { id: service2, type: "service" } },
        ],
      }),
      "dependencies",
    );
    const integration = must(
      await api.post(`/services/${service}/integrations`, { integration: { type: "generic_email_inbound_integration", name: "Mail" } }),
      "integration",
    ).integration.id;
    const rule = must(
      await api.post(`/services/${service}/rules`, {
        rule: {
          conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "db" } }] },
          actions: { severity: { value: "info" } },
        },
      }),
      "rule",
    ).rule.id;
    const cacheVariable = must(
      await api.post(`/event_orchestrations/services/${service}/cache_variables`, {
        cache_variable: { name: "fixture_var", configuration: { type: "recent_value", source: "event.summary", regex: "(.*)" } },
      }),
      "cache variable",
    ).cache_variable.id;
    const fieldName = "environment";
    const field = must(
      await api.post("/services/custom_fields", {
        field: {
          name: fieldName,
          display_name: "Environment",
          data_type: "string",
          field_type: "single_value_fixed",
          field_options: ["production", "staging"].map((value) => ({ data: { data_type: "string", value } })),
        },
      }),
      "field",
    ).field;
    const multiField = must(
      await api.post("/services/custom_fields", {
        field: {
          name: "regions",
          display_name: "Regions",
          data_type: "string",
          field_type: "multi_value_fixed",
          field_options: ["production", "staging"].map((value) => ({ data: { data_type: "string", value } })),
        },
      }),
      "multi field",
    ).field.id;
    const priority = must(await api.get("/priorities"), "priorities").priorities[0].id;
    const routingKey = must(
      await api.post(`/services/${service}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } }),
      "events integration",
    ).integration.integration_key;
    must(
      await sendEvent(e, {
        routing_key: routingKey,
        event_action: "trigger",
        payload: { summary: "The server is on fire.", source: "db-1", severity: "critical" },
      }),
      "event",
    );
    const incident = must(await api.get(`/incidents?service_ids[]=${service}`), "incidents").incidents[0].id;
    return {
      service,
      service2,
      service3,
      setting,
      business,
      incident,
      policy,
      integration,
      rule,
      cacheVariable,
      field: field.id,
      fieldName,
      multiField,
      options: field.field_options.map((o: { id: string }) => o.id),
      priority,
    };
  }

  /** The description's example with its ids (and clashing unique values) replaced by the fixture's. */
  function substitute(o: Operation, body: Json, f: Fixture): Json {
    const b = structuredClone(body);
    const seen: Record<string, string> = {};
    const walk = (n: Json, key?: string): Json => {
      if (Array.isArray(n)) return n.map((x) => walk(x, key));
      if (!n || typeof n !== "object") return n;
      for (const k of Object.keys(n)) n[k] = walk(n[k], k);
      if (key === "escalation_policy") n.id = f.policy;
      if (key === "service" && n.id) n.id = f.service;
      // The examples' services in order of appearance, and their business services.
      if ((key === "services" || key === "supporting_service" || key === "dependent_service") && typeof n.id === "string")
        n.id = n.type === "business_service" ? f.business : (seen[n.id] ??= [f.service, f.service2][Object.keys(seen).length] ?? f.service2);
      if (key === "vendor" && n.id) n.id = n.id === "PZD94QK" ? "PEMA1L0" : "PEVAPI2"; // the examples' email vendor → the catalogue's
      if (key === "priority" && typeof n.value === "string") n.value = f.priority;
      if (key === "custom_fields") n.id &&= Array.isArray(n.value) ? f.multiField : f.field;
      if (key === "field_options" && typeof n.id === "string") n.id = n.id === "OPT1" ? f.options[0] : f.options[1];
      return n;
    };
    walk(b);
    if (b.rule_id) b.rule_id = f.rule;
    if (b.integration?.integration_email) b.integration.integration_email = `conformance-${Math.random().toString(36).slice(2)}@acme.pagerduty.example`;
    // The fixture already made an "environment" field; the create examples must not clash with it.
    if (o.id === "createServiceCustomField") {
      b.field.name = `${b.field.name}_new`;
      b.field.display_name = `${b.field.display_name} (new)`;
    }
    if (o.id === "createServiceCustomFieldOption") b.field_option.data.value = "canary";
    // The update example names the setting it updates in its body too.
    if (o.id === "putAlertGroupingSetting") b.alert_grouping_setting.id = f.setting;
    return b;
  }

  function pathOf(o: Operation, f: Fixture): string {
    const ids: Record<string, string> = {
      integration_id: f.integration,
      rule_id: f.rule,
      cache_variable_id: f.cacheVariable,
      field_id: f.field,
      field_option_id: f.options[0],
      feature_name: "aiops",
      service_id: f.service,
      id: o.path.startsWith("/escalation_policies")
        ? f.policy
        : o.path.startsWith("/vendors")
          ? "PZQ6AUS"
          : o.path.startsWith("/abilities")
            ? "teams"
            : o.path.startsWith("/incidents")
              ? f.incident
              : o.path.startsWith("/alert_grouping_settings")
                ? f.setting
                : o.path.includes("business_services")
                  ? f.business
                  : f.service,
    };
    return o.path.replace(/\{(\w+)\}/g, (_m, k: string) => ids[k]);
  }

  /** Request bodies of an operation: each named example (or none). */
  function examples(o: Operation): [string, Json][] {
    // A body may be given by reference (components/requestBodies), as the cache variables' are.
    const content = derefIn(o, o.op.requestBody)?.content?.["application/json"];
    if (!content) return [["no body", undefined]];
    if (content.examples) return Object.entries(content.examples as Record<string, Json>).map(([name, ex]) => [name, derefIn(o, ex).value]);
    return [["example", content.example]];
  }

  /** Extra query strings worth checking per operation (the description's include[] values). */
  const QUERIES: Record<string, string[]> = {
    listServiceEventRules: ["include[]=migrated_metadata"],
    getServiceIntegration: ["include[]=services"],
    listServices: ["include[]=integrations&total=true"],
    listIncidents: ["include[]=services&statuses[]=triggered&total=true"],
    getIncident: ["include[]=services"],
  };

  /** Sends `o`'s method to `path` (a body for POST and PUT). */
  const call = (c: Client, o: Operation, path: string, body: unknown): Promise<Res> =>
    o.method === "GET" ? c.get(path) : o.method === "DELETE" ? c.delete(path) : o.method === "POST" ? c.post(path, body) : c.put(path, body, fromHeader(o));

  /** The user an account key names in `From` where the operation takes that header (incident writes). */
  const fromHeader = (o: Operation): Record<string, string> =>
    (o.op.parameters ?? []).some((p: Json) => String(p.$ref).endsWith("/from_header")) ? { from: "admin@acme.example" } : {};

  jest.setTimeout(300_000);

  let e: Emu;
  let api: Client;
  let reg: Registry;

  beforeAll(async () => {
    e = await start();
    reg = await registry(e);
    api = client(e, `Token token=${reg.apiKeys.find((k) => k.kind === "account" && !k.readOnly && k.account === "acme")!.token}`);
  });
  afterAll(() => e.close());

  interface Outcome {
    key: string;
    problem?: string;
  }

  /** Sends one case and returns its problems (empty when it conforms). */
  async function check(o: Operation, name: string, body: Json, query = ""): Promise<Outcome[]> {
    const f = await fixture(api, e);
    const caller = o.id === "getCurrentUser" ? client(e, `Token token=${reg.apiKeys.find((k) => k.kind === "user")!.token}`) : api;
    const path = pathOf(o, f) + (query ? `?${query}` : "");
    const sent = body === undefined ? undefined : substitute(o, body, f);
    const res = await call(caller, o, path, sent);
    const out: Outcome[] = [];
    const statuses = Object.keys(o.op.responses);
    const ok = statuses.includes(String(res.status)) && res.status < 300;
    out.push({
      key: `${o.id} ${name}${query ? ` ?${query}` : ""} status`,
      problem: ok ? undefined : `${o.method} ${path} → ${res.status} (description: ${statuses.join(", ")}): ${res.text.slice(0, 300)}`,
    });
    const schema = derefIn(o, o.op.responses[String(res.status)])?.content?.["application/json"]?.schema;
    if (ok && schema) {
      // A response given by reference (components/responses) is validated where it is defined.
      const shared: string | undefined = o.op.responses[String(res.status)]?.$ref;
      const ref = shared
        ? `${o.source}${shared}/content/application~1json/schema`
        : pointer(o.source, "paths", o.path, o.method.toLowerCase(), "responses", String(res.status), "content", "application/json", "schema");
      const v = validator(ref);
      if (!v(res.json)) {
        for (const err of v.errors ?? [])
          out.push({ key: `${o.id} ${err.instancePath.replace(/\/\d+/g, "/*")} ${err.message}`, problem: `${o.method} ${path}` });
      }
      out.push({ key: `${o.id} response schema` });
    }
    return out;
  }

  test("every operation of the description is served or listed as not served, with a reason", () => {
    const missing = OPERATIONS.filter((o) => !served(e, o) && !NOT_SERVED[o.id]).map((o) => `${o.method} ${o.path}`);
    expect(missing).toEqual([]);
    for (const id of Object.keys(NOT_SERVED)) expect(OPERATIONS.find((o) => o.id === id && !served(e, o))).toBeDefined();
  });

  test("the description's request examples get a listed status and replies that validate against its schemas", async () => {
    const results: Outcome[] = [];
    for (const o of OPERATIONS.filter((x) => served(e, x))) {
      for (const [name, body] of examples(o)) results.push(...(await check(o, name, body)));
      for (const q of QUERIES[o.id] ?? []) results.push(...(await check(o, "no body", undefined, q)));
    }
    const errorOf = (r: Outcome) => r.key.split(" ").slice(1).join(" ");
    const problems = [...new Set(results.filter((r) => r.problem && !excepted(r.key.split(" ")[0], errorOf(r))).map((r) => `${r.key}: ${r.problem}`))];
    expect(problems).toEqual([]);
    // Every exception still is one (a fixed one must leave the table).
    const stale = EXCEPTIONS.filter((x) => !results.some((r) => r.problem && excepted(r.key.split(" ")[0], errorOf(r)) === x)).map((x) => `${x.op} ${x.at}`);
    expect(stale).toEqual([]);
    // Sanity: the loop covered every served operation.
    expect(new Set(results.map((r) => r.key.split(" ")[0])).size).toBe(OPERATIONS.filter((x) => served(e, x)).length);
  });

  /** Properties the description requires in a request body: top-level ones and those of the envelope's object. */
  function requiredPaths(o: Operation): string[][] {
    const schema = derefIn(o, derefIn(o, o.op.requestBody)?.content?.["application/json"]?.schema);
    if (!schema) return [];
    const requiredOf = (n: Json): string[] => {
      const r = derefIn(o, n);
      if (!r) return [];
      return [...(r.required ?? []), ...(r.allOf ?? []).flatMap(requiredOf)];
    };
    const out: string[][] = (schema.required ?? []).map((k: string) => [k]);
    for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      if (derefIn(o, sub)?.type === "array") continue;
      for (const k of requiredOf(sub)) out.push([key, k]);
    }
    return out;
  }

  // Required by the description, yet deliberately optional here: each follows what a production
  // client sends (emulator/REJECTIONS.md has the evidence).
  const OPTIONAL_HERE: Record<string, string> = {
    "updateService service.type": "PUT is a partial update (API-NOTES §2); the description reuses the create schema",
    "updateService service.escalation_policy": "PUT is a partial update (API-NOTES §2); the description reuses the create schema",
    "createService service.type":
      "PagerDuty's Terraform provider (go-pagerduty `Service.Type` is `omitempty` and never set), python `pagerduty` and `@pagerduty/pdjs` examples post services without `type`",
    "updateServiceEventRule rule_id":
      'the Terraform provider\'s UpdateEventRule, python `pagerduty` `rput` and `@pagerduty/pdjs` `put` send `{"rule": {...}}` only',
  };

  test("a body without a property the description requires is a 400 naming it", async () => {
    const accepted: string[] = [];
    const used = new Set<string>();
    const checked = new Set<string>();
    for (const o of OPERATIONS.filter((x) => served(e, x))) {
      const [[, example]] = examples(o);
      if (example === undefined) continue;
      for (const path of requiredPaths(o)) {
        const key = `${o.id} ${path.join(".")}`;
        const f = await fixture(api, e);
        const body = substitute(o, example, f);
        const parent = path.slice(0, -1).reduce((n: Json, k) => n?.[k], body);
        if (!parent || !(path[path.length - 1] in parent)) continue; // the example itself leaves it out
        delete parent[path[path.length - 1]];
        checked.add(key);
        const res = o.method === "POST" ? await api.post(pathOf(o, f), body) : await api.put(pathOf(o, f), body);
        if (OPTIONAL_HERE[key]) {
          used.add(key);
          expect({ key, status: res.status }).toEqual({ key, status: res.status < 300 ? res.status : "2xx" });
          continue;
        }
        if (res.status !== 400 || !String(res.json?.error?.errors ?? "").includes(path[path.length - 1]))
          accepted.push(`${key}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(Object.keys(OPTIONAL_HERE).filter((k) => !used.has(k))).toEqual([]);
    // The issue's cases are among those checked.
    expect([...checked]).toEqual(
      expect.arrayContaining([
        "createService service.type",
        "createService service.escalation_policy",
        "updateServiceEventRule rule_id",
        "createServiceCustomField field.field_type",
        "createServiceCustomField field.name",
        "updateServiceFeatureEnablement enablement.enabled",
      ]),
    );
  });

  test("the scope each operation demands equals x-pd-requires-scope", async () => {
    const appScopes = e.seed.oauth.scopes.split(" ");
    const tokens = new Map<string, Client>();
    const without = async (scope: string) => {
      if (!tokens.has(scope)) tokens.set(scope, await bearer(e, appScopes.filter((s) => s !== scope).join(" ")));
      return tokens.get(scope)!;
    };
    const f = await fixture(api, e);
    const mismatches: string[] = [];
    for (const o of OPERATIONS.filter((x) => served(e, x))) {
      const path = pathOf(o, f);
      if (!o.scope) {
        // No scope: a user credential gets through (here: Uma's user key).
        const res = await client(e, `Token token=${reg.apiKeys.find((k) => k.kind === "user")!.token}`).get(path);
        if (res.status === 403) mismatches.push(`${o.id}: demands a scope, the description none`);
        continue;
      }
      if (!appScopes.includes(o.scope)) {
        mismatches.push(`${o.id}: the seeded app lacks ${o.scope}`);
        continue;
      }
      const c = await without(o.scope);
      const res = await call(c, o, path, {});
      const demanded = res.status === 403 ? res.json?.error?.required_scopes : undefined;
      if (JSON.stringify(demanded) !== JSON.stringify([o.scope])) mismatches.push(`${o.id}: without ${o.scope} → ${res.status} ${JSON.stringify(demanded)}`);
    }
    expect(mismatches).toEqual([]);
  });

  describe("the provider's request bodies validate against the request schemas", () => {
    const request = (path: string, method: string) => validator(pointer("pd", "paths", path, method, "requestBody", "content", "application/json", "schema"));
    /** Where the provider deliberately sends what the description does not allow, and why. */
    const BODY_EXCEPTIONS: { at: RegExp; reason: string }[] = [
      { at: /^\/service\/auto_resolve_timeout must be integer$/, reason: "null turns auto-resolve off (API-NOTES §3); the description omits nullable" },
      {
        at: /^\/service must have required property 'escalation_policy'$/,
        reason:
          "PUT is a partial update (API-NOTES §2, read-only and absent fields stay): the provider sends only what changed, though the description reuses the create schema",
      },
      {
        at: /^\/rule\/actions\/(annotate|event_action|priority|severity|suppress|suspend) must be object$/,
        reason: "an action the program no longer declares is cleared by sending null (rule updates are partial)",
      },
      {
        at: /^\/custom_fields\/\d+(\/value)? must (have required property 'id'|be object|match exactly one schema in oneOf)$/,
        reason:
          "values go by field name with plain values, as the description's own example_with_custom_field_name does; its schema wraps values as {value: x}",
      },
    ];
    const seen = new Set<RegExp>();
    const expectValid = (v: ValidateFunction, body: unknown) => {
      v(body);
      const errors = (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
      for (const err of errors) BODY_EXCEPTIONS.filter((x) => x.at.test(err)).forEach((x) => seen.add(x.at));
      expect(errors.filter((err) => !BODY_EXCEPTIONS.some((x) => x.at.test(err)))).toEqual([]);
    };
    afterAll(() => {
      // Each body exception still occurs (a stale one must leave the table).
      expect(BODY_EXCEPTIONS.filter((x) => !seen.has(x.at)).map((x) => String(x.at))).toEqual([]);
    });

    test("Service: create and update", () => {
      const full = {
        name: "Checkout",
        description: "d",
        escalationPolicy: "PPOLICY",
        autoResolveTimeout: null,
        acknowledgementTimeout: 600,
        status: "active",
        incidentUrgencyRule: {
          type: "use_support_hours",
          duringSupportHours: { type: "constant", urgency: "high" },
          outsideSupportHours: { type: "constant", urgency: "low" },
        },
        supportHours: { type: "fixed_time_per_day", timeZone: "America/Lima", startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1, 2, 3, 4, 5] },
        scheduledActions: [{ type: "urgency_change", at: { type: "named_time", name: "support_hours_start" }, toUrgency: "high" }],
        alertCreation: "create_alerts_and_incidents",
        alertGroupingParameters: { type: "time", config: { timeout: 2 } },
        autoPauseNotificationsParameters: { enabled: true, timeout: 300 },
      } as never;
      expectValid(request("/services", "post"), { service: serviceBody(full, { includeStatus: false }) });
      expectValid(request("/services/{id}", "put"), { service: serviceBody(full, { includeStatus: true }) });
      expectValid(request("/services/{id}", "put"), { service: serviceBody({ name: "Renamed" } as never, { includeStatus: true }) });
    });

    test("ServiceIntegration: events by type, by vendor, and email with filters", () => {
      const post = request("/services/{id}/integrations", "post");
      expectValid(post, {
        integration: integrationBody({ service: "PSVC", type: "events_api_v2_inbound_integration", name: "Alerts" } as never, { includeType: true }),
      });
      expectValid(post, { integration: integrationBody({ service: "PSVC", vendor: "PZQ6AUS", name: "CloudWatch" } as never, { includeType: true }) });
      const email = {
        service: "PSVC",
        type: "generic_email_inbound_integration",
        name: "Inbox",
        emailIncidentCreation: "on_new_email_subject",
        emailFilterMode: "or-rules-email",
        emailFilters: [{ subjectMode: "match", subjectRegex: "^ALERT", bodyMode: "always", fromEmailMode: "always" }],
      } as never;
      expectValid(post, { integration: integrationBody(email, { includeType: true }) });
      expectValid(request("/services/{id}/integrations/{integration_id}", "put"), { integration: integrationBody(email, { includeType: false }) });
    });

    test("ServiceEventRule: create and update (the update names the rule in rule_id)", () => {
      const rule = {
        service: "PSVC",
        position: 0,
        disabled: false,
        conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "class", value: "mysql" } }] },
        timeFrame: { activeBetween: { startTime: 1577880000000, endTime: 1580558400000 } },
        actions: {
          severity: { value: "warning" },
          annotate: { value: "note" },
          extractions: [{ target: "dedup_key", source: "custom_details.host", regex: "(.*)" }],
        },
      } as never;
      expectValid(request("/services/{id}/rules", "post"), { rule: ruleBody(rule) });
      expectValid(request("/services/{id}/rules/{rule_id}", "put"), { rule_id: "7123bdd1-74e8-4aa7-aa38-4a9ebe123456", rule: ruleBody(rule) });
    });

    test("ServiceEventRulesConversion reads the description's convert reply", () => {
      const reply = deref(doc.paths["/services/{id}/rules/convert"].post.responses["200"]).content["application/json"].examples.response.value;
      expect(conversionOutputs("PSVC1", reply)).toMatchObject({ convertStatus: "completed", convertedTo: "PC2D9ML", convertedToType: null });
    });

    test("ServiceOrchestrationCacheVariable: each type, on create and update", () => {
      // The around-services description gives its bodies by reference (components/requestBodies).
      const body = (name: string) => validator(pointer("around", "components", "requestBodies", name, "content", "application/json", "schema"));
      const variables = [
        {
          name: "last_host",
          conditions: [{ expression: "event.source exists" }],
          configuration: { type: "recent_value", source: "event.source", regex: "(.*)" },
        },
        { name: "db_triggers", disabled: true, conditions: [], configuration: { type: "trigger_event_count", ttlSeconds: 60 } },
        { name: "in_maintenance", configuration: { type: "external_data", dataType: "boolean", ttlSeconds: 7200 } },
      ];
      for (const v of variables) {
        const sent = { cache_variable: cacheVariableBody({ service: "PSVC", ...v } as never) };
        expectValid(body("OrchestrationCacheVariablePostRequest"), sent);
        expectValid(body("OrchestrationCacheVariablePutRequest"), sent);
      }
    });

    test("ServiceCustomFieldValues and ServiceEnablement", () => {
      expectValid(request("/services/{id}/custom_fields/values", "put"), {
        custom_fields: [
          { name: "environment", value: "production" },
          { name: "regions", value: ["eu"] },
          { name: "pci", value: null },
        ],
      });
      expectValid(request("/services/{id}/enablements/{feature_name}", "put"), { enablement: { enabled: false } });
    });
  });
}

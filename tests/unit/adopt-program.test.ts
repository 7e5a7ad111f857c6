import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { environmentTerms, parseArgs, UsageError } from "../../provider/cli/adopt";
import { adoptable, literal, renderProgram, slug, type ServiceSnapshot } from "../../provider/cli/program";
import { serviceInputs } from "../../provider/resources/service";

const ROOT = path.resolve(__dirname, "../..");

const checkout: ServiceSnapshot = {
  service: {
    id: "PCHK", type: "service", name: "Checkout API", description: null, status: "active", escalation_policy: { id: "PEP", type: "escalation_policy_reference" },
    auto_resolve_timeout: null, acknowledgement_timeout: 1800, alert_creation: "create_alerts_and_incidents",
    incident_urgency_rule: { type: "constant", urgency: "high" }, support_hours: null, scheduled_actions: [],
    alert_grouping_parameters: { type: null }, auto_pause_notifications_parameters: { enabled: false, timeout: null },
    html_url: "https://x/PCHK", created_at: "2026-01-01T00:00:00Z", integrations: [{ id: "PI1" }],
  },
  integrations: [
    { id: "PI1", type: "events_api_v2_inbound_integration", name: "Events", integration_key: "0123456789abcdef0123456789abcdef", service: { id: "PCHK" } },
    { id: "PI2", type: "generic_email_inbound_integration", name: "Events", integration_email: "chk@acme.example", email_incident_creation: "on_new_email", email_filter_mode: "all-email", service: { id: "PCHK" } },
  ],
  rules: [
    { id: "r-2", position: 1, disabled: true, conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "summary" } }] }, actions: { annotate: { value: "x" }, severity: null, extractions: [] } },
    { id: "r-1", position: 0, disabled: false, conditions: { operator: "or", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "db" } }] }, actions: { severity: { value: "critical" } } },
  ],
  customFields: [
    { id: "F1", name: "tier", value: "gold" },
    { id: "F2", name: "runbook", value: null },
    { id: "F3", name: "pci", value: false },
  ],
  enablements: [{ feature: "aiops", enabled: false, updated_at: "t" }, { feature: "future_feature", enabled: true }],
};
const search: ServiceSnapshot = {
  service: { id: "PSRC", name: "checkout api", escalation_policy: { id: "PEP" }, auto_resolve_timeout: 14400, alert_grouping_parameters: { type: "weird", config: {} } },
  integrations: [], rules: [], customFields: [{ id: "F1", name: "tier", value: null }], enablements: [],
};

describe("adoptable", () => {
  test("keeps null where the schema allows it and drops refused values, noting those that are not null", () => {
    const a = adoptable(serviceInputs, { adoptId: "P1" }, { name: "A", escalationPolicy: "PEP", autoResolveTimeout: null, description: null, status: "paused" }, ["name", "escalationPolicy", "autoResolveTimeout", "description", "status"]);
    expect(a.args).toEqual({ adoptId: "P1", name: "A", escalationPolicy: "PEP", autoResolveTimeout: null });
    expect(a.dropped.map((d) => d.key)).toEqual(["status"]);
    expect(a.dropped.find((d) => d.key === "status")!.reason).toMatch(/^status: /);
  });
  test("a refused fixed value is an error", () => {
    expect(() => adoptable(serviceInputs, { adoptId: "" }, { name: "A", escalationPolicy: "PEP" }, ["name", "escalationPolicy"])).toThrow(/cannot adopt: adoptId/);
  });
});

describe("renderProgram", () => {
  const program = renderProgram([checkout, search], "http://127.0.0.1:1234");

  test("adopts each object by id with its current values and references the service", () => {
    expect(program).toContain('const checkoutApi = new pagerduty.Service("checkout-api", {\n  adoptId: "PCHK",');
    expect(program).toContain("autoResolveTimeout: null");
    expect(program).toContain('new pagerduty.ServiceIntegration("checkout-api-events", {\n  service: checkoutApi.id,\n  adoptId: "PI1",');
    expect(program).toContain('new pagerduty.ServiceIntegration("checkout-api-events-2"');
    expect(program).toContain('integrationEmail: "chk@acme.example"');
    // rules in position order
    expect(program.indexOf('adoptId: "r-1"')).toBeLessThan(program.indexOf('adoptId: "r-2"'));
    expect(program).toContain('new pagerduty.ServiceCustomFieldValues("checkout-api-custom-fields", {\n  service: checkoutApi.id,\n  values: {\n    tier: "gold",\n    pci: false,\n  },\n});');
    expect(program).toContain('new pagerduty.ServiceEnablement("checkout-api-aiops", {\n  service: checkoutApi.id,\n  feature: "aiops",\n  enabled: false,\n});');
    expect(program).not.toContain("future_feature");
  });

  test("names stay unique; unset values and refused shapes are left out, with a note", () => {
    expect(program).toContain('const checkoutApi2 = new pagerduty.Service("checkout-api-2"');
    expect(program).toContain("// not managed (alertGroupingParameters.type:");
    expect(program).not.toContain("runbook");
    expect(program).not.toContain("description: null");
    expect(program).not.toContain('"checkout-api-2-custom-fields"');
  });

  test("never prints the integration key", () => {
    expect(program).not.toContain("0123456789abcdef0123456789abcdef");
    expect(program).not.toMatch(/integrationKey/);
  });

  test("type-checks against the SDK", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-"));
    try {
      const file = path.join(dir, "index.ts");
      fs.writeFileSync(file, program);
      const options: ts.CompilerOptions = {
        strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, esModuleInterop: true, skipLibCheck: true,
        moduleResolution: ts.ModuleResolutionKind.Node10, types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")],
        baseUrl: ROOT, paths: { "pulumi-pagerduty-dynamic": ["sdk/index.ts"], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
      };
      const p = ts.createProgram([file], options);
      const diags = ts.getPreEmitDiagnostics(p).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diags).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("literal quotes only non-identifier keys", () => {
  expect(literal({ a: 1, "b-c": [true, null], d: {} })).toBe('{\n  a: 1,\n  "b-c": [\n    true,\n    null,\n  ],\n  d: {},\n}');
  expect(slug("  Checkout: API v2 ")).toBe("checkout-api-v2");
  expect(slug("!!!")).toBe("service");
});

test("arguments", () => {
  expect(parseArgs(["--service", "P1", "--service=P2", "--name", "Checkout API", "--out", "x.ts"])).toEqual({ ids: ["P1", "P2"], names: ["Checkout API"], out: "x.ts" });
  expect(() => parseArgs(["--name"])).toThrow(UsageError);
  expect(() => parseArgs(["--bogus"])).toThrow(/Unknown option '--bogus'/);
  expect(() => parseArgs(["--service="])).toThrow(/--service needs a value/);
  expect(() => parseArgs(["stray"])).toThrow(UsageError);
  for (const flag of ["--help", "-h", "--version"]) {
    let thrown: unknown;
    try {
      parseArgs([flag]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ exitCode: 0 });
  }
  const help = (() => {
    try {
      parseArgs(["--help"]);
    } catch (e) {
      return (e as Error).message;
    }
  })();
  for (const flag of ["--service", "--name", "--out", "--help", "--version", "PAGERDUTY_TOKEN", "PAGERDUTY_CLIENT_SECRET"]) expect(help).toContain(flag);
});

test("settings errors are said in environment-variable terms: the command reads no stack config", () => {
  expect(environmentTerms('no PagerDuty credentials: set "pagerduty:clientId" (env PAGERDUTY_CLIENT_ID) and "pagerduty:clientSecret" (env PAGERDUTY_CLIENT_SECRET)')).toBe(
    "no PagerDuty credentials: set PAGERDUTY_CLIENT_ID and PAGERDUTY_CLIENT_SECRET",
  );
});

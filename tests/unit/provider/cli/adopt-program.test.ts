import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { ADOPT, adopt, environmentTerms } from "../../../../provider/cli/adopt";
import { parseCommandLine, UsageError } from "../../../../provider/cli/command-line";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import { adoptable, literal, renderProgram, slug, type ServiceSnapshot } from "../../../../provider/cli/adopt-program";
import { serviceInputs } from "../../../../provider/resources/service";
import { useMockAgent } from "../../support/http-mock";
import { apiService } from "../../support/api-objects";

const ROOT = path.resolve(__dirname, "../../../..");

const checkout: ServiceSnapshot = {
  service: apiService("PCHK", "Checkout API", {
    escalation_policy: { id: "PEP", type: "escalation_policy_reference" },
    auto_resolve_timeout: null,
    html_url: "https://x/PCHK",
    created_at: "2026-01-01T00:00:00Z",
    summary: undefined,
    integrations: [{ id: "PI1" }],
  }),
  integrations: [
    { id: "PI1", type: "events_api_v2_inbound_integration", name: "Events", integration_key: "0123456789abcdef0123456789abcdef", service: { id: "PCHK" } },
    {
      id: "PI2",
      type: "generic_email_inbound_integration",
      name: "Events",
      integration_email: "chk@acme.example",
      email_incident_creation: "on_new_email",
      email_filter_mode: "all-email",
      service: { id: "PCHK" },
    },
  ],
  rules: [
    {
      id: "r-2",
      position: 1,
      disabled: true,
      conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "summary" } }] },
      actions: { annotate: { value: "x" }, severity: null, extractions: [] },
    },
    {
      id: "r-1",
      position: 0,
      disabled: false,
      conditions: { operator: "or", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "db" } }] },
      actions: { severity: { value: "critical" } },
    },
  ],
  customFields: [
    { id: "F1", name: "tier", value: "gold" },
    { id: "F2", name: "runbook", value: null },
    { id: "F3", name: "pci", value: false },
  ],
  enablements: [
    { feature: "aiops", enabled: false, updated_at: "t" },
    { feature: "future_feature", enabled: true },
  ],
};
const search: ServiceSnapshot = {
  service: {
    id: "PSRC",
    name: "checkout api",
    escalation_policy: { id: "PEP" },
    auto_resolve_timeout: 14400,
    alert_grouping_parameters: { type: "weird", config: {} },
  },
  integrations: [],
  rules: [],
  customFields: [{ id: "F1", name: "tier", value: null }],
  enablements: [],
};

describe("adoptable", () => {
  test("keeps null where the schema allows it and drops refused values, noting those that are not null", () => {
    const a = adoptable(
      serviceInputs,
      { adoptId: "P1" },
      { name: "A", escalationPolicy: "PEP", autoResolveTimeout: null, description: null, status: "paused" },
      ["name", "escalationPolicy", "autoResolveTimeout", "description", "status"],
    );
    expect(a.args).toEqual({ adoptId: "P1", name: "A", escalationPolicy: "PEP", autoResolveTimeout: null });
    expect(a.dropped.map((d) => d.key)).toEqual(["status"]);
    expect(a.dropped.find((d) => d.key === "status")!.reason).toMatch(/^status: /);
  });
  test("a refused fixed value is an error", () => {
    expect(() => adoptable(serviceInputs, { adoptId: "" }, { name: "A", escalationPolicy: "PEP" }, ["name", "escalationPolicy"])).toThrow(
      /cannot adopt: adoptId/,
    );
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
    expect(program).toContain(
      'new pagerduty.ServiceCustomFieldValues("checkout-api-custom-fields", {\n  service: checkoutApi.id,\n  values: {\n    tier: "gold",\n    pci: false,\n  },\n});',
    );
    expect(program).toContain(
      'new pagerduty.ServiceEnablement("checkout-api-aiops", {\n  service: checkoutApi.id,\n  feature: "aiops",\n  enabled: false,\n});',
    );
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
    expect(typeErrors(program)).toEqual([]);
  });

  test("declares no account unless asked", () => {
    expect(program).not.toMatch(/account/);
  });
});

/** The TypeScript errors of a generated program compiled against the SDK. */
function typeErrors(source: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-"));
  try {
    const file = path.join(dir, "index.ts");
    fs.writeFileSync(file, source);
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      esModuleInterop: true,
      skipLibCheck: true,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules/@types")],
      baseUrl: ROOT,
      paths: { "pulumi-pagerduty-dynamic": ["sdk/index.ts"], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
    };
    const p = ts.createProgram([file], options);
    return ts.getPreEmitDiagnostics(p).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each `new pagerduty.X(...)` statement of a program. */
const declarations = (program: string) => program.split(/(?=(?:const \w+ = )?new pagerduty\.)/).filter((part) => part.includes("new pagerduty."));

describe("renderProgram in a named account", () => {
  const program = renderProgram([checkout, search], "http://127.0.0.1:1234", { account: "eu" });

  test("every resource declares the account, after its own fields; the header says which account", () => {
    const all = declarations(program);
    expect(all).toHaveLength(8);
    for (const d of all) expect(d).toMatch(/\n {2}account: "eu",\n\}\);\n/);
    expect(program).toContain('const checkoutApi = new pagerduty.Service("checkout-api", {\n  adoptId: "PCHK",');
    expect(program).toMatch(
      /^\/\/ Generated by pagerduty-adopt from http:\/\/127\.0\.0\.1:1234 \(account "eu"\)\.\n\/\/ Every resource is in account "eu": the stack config must declare "pagerduty:accounts\.eu"\./,
    );
  });

  test("type-checks against the SDK", () => {
    expect(typeErrors(program)).toEqual([]);
  });
});

test("literal quotes only non-identifier keys", () => {
  expect(literal({ a: 1, "b-c": [true, null], d: {} })).toBe('{\n  a: 1,\n  "b-c": [\n    true,\n    null,\n  ],\n  d: {},\n}');
  expect(slug("  Checkout: API v2 ")).toBe("checkout-api-v2");
  expect(slug("!!!")).toBe("service");
});

const parseArgs = (argv: string[]) => parseCommandLine(ADOPT, argv);

test("arguments", () => {
  expect(parseArgs(["--service", "P1", "--service=P2", "--name", "Checkout API", "--out", "x.ts"])).toEqual({
    ids: ["P1", "P2"],
    names: ["Checkout API"],
    out: "x.ts",
  });
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
  for (const flag of [
    "--service",
    "--name",
    "--out",
    "--account",
    "--stack",
    "--cwd",
    "pagerduty:accounts.NAME",
    "--help",
    "--version",
    "PAGERDUTY_TOKEN",
    "PAGERDUTY_CLIENT_SECRET",
  ])
    expect(help).toContain(flag);
});

test("arguments: --account, with --stack and --cwd for the stack whose config it reads", () => {
  expect(parseArgs(["--account", "eu", "-s", "prod", "--cwd=/x"])).toEqual({ ids: [], names: [], account: "eu", stack: "prod", cwd: "/x" });
  expect(parseArgs(["--account", "eu"])).toEqual({ ids: [], names: [], account: "eu" });
  expect(() => parseArgs(["--account", "1eu"])).toThrow(/--account: an account name must be a letter/);
  expect(() => parseArgs(["--account", "default"])).toThrow(
    /--account default: the default account is the top-level pagerduty:\* settings; leave --account out/,
  );
  expect(() => parseArgs(["--account="])).toThrow(/--account needs a value/);
  expect(parseArgs(["--stack", "prod"])).toEqual({ ids: [], names: [], stack: "prod" });
});

test("settings errors are said in environment-variable terms: the command reads no stack config", () => {
  expect(
    environmentTerms('no PagerDuty credentials: set "pagerduty:clientId" (env PAGERDUTY_CLIENT_ID) and "pagerduty:clientSecret" (env PAGERDUTY_CLIENT_SECRET)'),
  ).toBe("no PagerDuty credentials: set PAGERDUTY_CLIENT_ID and PAGERDUTY_CLIENT_SECRET");
});

describe("adopt --account", () => {
  afterEach(() => jest.restoreAllMocks());
  const mock = useMockAgent();
  const EU_API = "http://127.0.0.1:7202";
  const EU_TOKEN = "eu-token-5ecret";
  const envOnly = { PAGERDUTY_TOKEN: "env-token", PAGERDUTY_API_URL: "http://127.0.0.1:7201" };

  /** A pulumi CLI that can only print the stack config (as Pulumi 3.248 does: structured values as JSON text and parsed). */
  const configOnly = (accounts: Record<string, unknown> | undefined) => {
    const calls: string[][] = [];
    const run: Pulumi = (args) => {
      calls.push(args);
      if (args.join(" ") !== "config --json --show-secrets") throw new Error(`unexpected pulumi ${args.join(" ")}`);
      const config: Record<string, unknown> = { "pagerduty:token": { value: "top-level-token", secret: true } };
      if (accounts) config["pagerduty:accounts"] = { value: JSON.stringify(accounts), objectValue: accounts, secret: true };
      return JSON.stringify(config);
    };
    return { run, calls };
  };

  /** The eu account's API: one service without children, answered only with the eu account's token. */
  function serveEu(): void {
    const pool = mock().get(EU_API);
    const auth = { authorization: `Token token=${EU_TOKEN}` };
    pool
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET", headers: auth })
      .reply(200, { services: [{ id: "PEU1", name: "Billing", escalation_policy: { id: "PEP" }, integrations: [] }], more: false });
    pool.intercept({ path: (p) => p.startsWith("/services/PEU1/rules?"), method: "GET", headers: auth }).reply(200, { rules: [], more: false });
    pool
      .intercept({ path: "/services/PEU1/custom_fields/values", method: "GET", headers: auth })
      .reply(200, { custom_fields: [{ id: "F1", name: "tier", value: "gold" }] });
    pool.intercept({ path: "/services/PEU1/enablements", method: "GET", headers: auth }).reply(200, { enablements: [{ feature: "aiops", enabled: true }] });
  }

  test("takes the credentials from the account's settings in the stack config and declares every resource in it", async () => {
    serveEu();
    const pulumi = configOnly({ eu: { apiUrl: EU_API, token: EU_TOKEN }, ap: { token: "ap-token" } });
    const { program, services } = await adopt(
      { ids: [], names: [], account: "eu", stack: "prod", cwd: "/nowhere" },
      { pulumi: pulumi.run, env: envOnly, clients: { dispatcher: mock() } },
    );
    expect(services).toBe(1);
    expect(pulumi.calls).toEqual([["config", "--json", "--show-secrets"]]);
    const all = declarations(program);
    expect(all.map((d) => /new pagerduty\.(\w+)/.exec(d)![1])).toEqual(["Service", "ServiceCustomFieldValues", "ServiceEnablement"]);
    for (const d of all) expect(d).toContain('  account: "eu",\n});');
    expect(program).toContain(`from ${EU_API} (account "eu")`);
    expect(program).not.toContain(EU_TOKEN);
    expect(typeErrors(program)).toEqual([]);
  });

  test("an account the stack config does not declare is named, with the accounts it does", async () => {
    const declared = configOnly({ ap: { token: "ap-token" } });
    await expect(
      adopt({ ids: [], names: [], account: "eu", stack: "prod" }, { pulumi: declared.run, env: envOnly, clients: { dispatcher: mock() } }),
    ).rejects.toThrow(
      /^--account eu: the config of stack "prod" has no "pagerduty:accounts\.eu" \(declared: ap\); declare it with pulumi config set --path 'pagerduty:accounts\.eu\.token'/,
    );
    await expect(
      adopt({ ids: [], names: [], account: "eu" }, { pulumi: configOnly(undefined).run, env: envOnly, clients: { dispatcher: mock() } }),
    ).rejects.toThrow(/the config of the selected stack has no "pagerduty:accounts\.eu" \(declared: none\)/);
  });

  test("the account's own settings only: a missing credential is named there, never borrowed from the environment or the top level", async () => {
    const pulumi = configOnly({ eu: { apiUrl: EU_API, subdomain: "acme-eu" } });
    await expect(adopt({ ids: [], names: [], account: "eu" }, { pulumi: pulumi.run, env: envOnly, clients: { dispatcher: mock() } })).rejects.toThrow(
      /no PagerDuty credentials: set "pagerduty:accounts\.eu\.clientId" and "pagerduty:accounts\.eu\.clientSecret" .*"pagerduty:accounts\.eu\.token"/,
    );
  });

  test("a refused credential names the account's setting, not its value", async () => {
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } });
    const pulumi = configOnly({ eu: { apiUrl: EU_API, token: EU_TOKEN } });
    const failure = adopt({ ids: [], names: [], account: "eu" }, { pulumi: pulumi.run, env: envOnly, clients: { dispatcher: mock() } });
    await expect(failure).rejects.toThrow(/^PagerDuty refused the credentials of account "eu" in "pagerduty:accounts\.eu\.token": GET \/services failed: 401/);
    await expect(failure).rejects.not.toThrow(EU_TOKEN);
  });

  test("in a Pulumi project without --account, the stack's top-level settings are the credentials", async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-adopt-"));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    const calls: string[][] = [];
    const pulumi: Pulumi = (args) => {
      calls.push(args);
      return JSON.stringify({ "pagerduty:token": { value: "stack-token", secret: true }, "pagerduty:apiUrl": { value: envOnly.PAGERDUTY_API_URL } });
    };
    const pool = mock().get(envOnly.PAGERDUTY_API_URL);
    pool
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET", headers: { authorization: "Token token=stack-token" } })
      .reply(200, { services: [], more: false });
    try {
      await expect(
        adopt({ ids: [], names: [], cwd: project }, { pulumi, env: { PAGERDUTY_TOKEN: "env-token" }, clients: { dispatcher: mock() } }),
      ).rejects.toThrow("the account has no services to adopt");
      expect(calls).toEqual([["config", "--json", "--show-secrets"]]);
      // --stack or --cwd outside a project has no stack to read.
      await expect(adopt({ ids: [], names: [], cwd: os.tmpdir() }, { pulumi, env: envOnly })).rejects.toThrow(/holds no Pulumi project \(Pulumi\.yaml\)/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  test("outside a Pulumi project without --account the stack config is not read and the environment's credentials are used", async () => {
    // Restored after the test by the describe's afterEach.
    jest.spyOn(process, "cwd").mockReturnValue(os.tmpdir());
    const never: Pulumi = () => {
      throw new Error("pulumi must not run");
    };
    mock()
      .get(envOnly.PAGERDUTY_API_URL)
      .intercept({ path: "/services/PUS1", method: "GET", headers: { authorization: "Token token=env-token" } })
      .reply(200, { service: { id: "PUS1", name: "Checkout", escalation_policy: { id: "PEP" }, integrations: [] } });
    const pool = mock().get(envOnly.PAGERDUTY_API_URL);
    pool.intercept({ path: (p) => p.startsWith("/services/PUS1/rules?"), method: "GET" }).reply(200, { rules: [], more: false });
    pool.intercept({ path: "/services/PUS1/custom_fields/values", method: "GET" }).reply(200, { custom_fields: [] });
    pool.intercept({ path: "/services/PUS1/enablements", method: "GET" }).reply(200, { enablements: [] });
    const { program } = await adopt({ ids: ["PUS1"], names: [] }, { pulumi: never, env: envOnly, clients: { dispatcher: mock() } });
    expect(program).toContain('adoptId: "PUS1"');
    expect(program).not.toMatch(/account/);
  });
});

// pagerduty-recover's decisions on a stack's pending creates, and the state it writes back.
import * as fs from "node:fs";
import { orList, parseCommandLine } from "../../../../provider/cli/command-line";
import { apply, plan, recover, RECOVER, type Checkpoint, type Finder } from "../../../../provider/cli/recover";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import { configValues, providerSettings } from "../../../../provider/cli/stack-config";
import { creatingKinds } from "../../../../provider/registry";
import { accountNames, resolveSettings } from "../../../../provider/config";
import { useMockAgent } from "../../support/http-mock";

const T = {
  stack: "pulumi:pulumi:Stack",
  provider: "pulumi:providers:pulumi-nodejs",
  service: "pulumi-nodejs:dynamic/pagerduty:Service",
  integration: "pulumi-nodejs:dynamic/pagerduty:ServiceIntegration",
  rule: "pulumi-nodejs:dynamic/pagerduty:ServiceEventRule",
};
const urn = (type: string, name: string) => `urn:pulumi:dev::p::${type}::${name}`;
const STACK = urn(T.stack, "p-dev");
const PROVIDER = urn(T.provider, "default");

/** A custom resource of the checkpoint, as the engine records it. */
const res = (type: string, name: string, inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  urn: urn(type, name),
  type,
  custom: true,
  inputs: { __provider: "p", __origin: name, ...inputs },
  parent: STACK,
  provider: `${PROVIDER}::uuid`,
  ...extra,
});

function checkpoint(): Checkpoint {
  return {
    version: 3,
    deployment: {
      manifest: {},
      resources: [
        { urn: STACK, type: T.stack, custom: false },
        { urn: PROVIDER, type: T.provider, custom: true, id: "uuid" },
        { ...res(T.service, "kept", { name: "Kept" }), id: "PKEPT" },
      ],
      pending_operations: [
        {
          type: "creating",
          resource: res(T.integration, "int", { service: "PSVC", type: "events_api_v2_inbound_integration" }, { dependencies: [urn(T.service, "svc")] }),
        },
        { type: "creating", resource: res(T.service, "svc", { name: "Made" }) },
        { type: "creating", resource: res(T.service, "kept", { name: "Kept" }) },
        { type: "creating", resource: res(T.service, "never", { name: "Never" }) },
        { type: "creating", resource: res(T.rule, "rule", { service: "PSVC" }) },
        { type: "updating", resource: { ...res(T.service, "kept", { name: "Kept" }), id: "PKEPT" } },
      ],
    },
  };
}

/**
 * A pulumi CLI for recover: the state (`withSecrets`: as `stack export --show-secrets` prints it) and
 * config given, every import kept, nothing else allowed.
 */
function fakePulumi(checkpoint: Checkpoint, config: string, withSecrets?: Checkpoint) {
  const calls: string[][] = [];
  const imported: Checkpoint[] = [];
  const run: Pulumi = (args) => {
    calls.push(args);
    if (args.join(" ") === "stack export") return JSON.stringify(checkpoint);
    if (args.join(" ") === "stack export --show-secrets" && withSecrets) return JSON.stringify(withSecrets);
    if (args.join(" ") === "config --json --show-secrets") return config;
    if (args[0] === "stack" && args[1] === "import") {
      imported.push(JSON.parse(fs.readFileSync(args[3], "utf8")));
      return "";
    }
    if (args[0] === "refresh") return "";
    throw new Error(`unexpected pulumi ${args.join(" ")}`);
  };
  return { run, calls, imported };
}

const finder: Finder = async (kind, inputs) => {
  if (kind === "Service") return ({ Made: ["PSVC"], Kept: ["PKEPT"], Never: [] } as Record<string, string[]>)[String(inputs.name)];
  if (kind === "ServiceIntegration") return ["PINT"];
  return ["R1", "R2"];
};

test("each pending create is recorded, settled, dropped or reported ambiguous; ids in the state are never offered", async () => {
  const decisions = await plan(checkpoint(), finder);
  expect(decisions).toEqual([
    { urn: urn(T.service, "svc"), kind: "record", id: "PSVC", what: 'service "Made"' },
    { urn: urn(T.service, "kept"), kind: "settled" },
    { urn: urn(T.service, "never"), kind: "not-made", what: 'service "Never"' },
    { urn: urn(T.integration, "int"), kind: "record", id: "PINT", what: "integration of service PSVC" },
    { urn: urn(T.rule, "rule"), kind: "ambiguous", ids: ["R1", "R2"], what: "event rule of service PSVC" },
  ]);
});

test("a match already claimed by the state or by another pending create is not offered twice", async () => {
  const cp = checkpoint();
  cp.deployment.pending_operations = cp.deployment.pending_operations!.filter((o) => o.resource.urn !== urn(T.service, "kept"));
  const decisions = await plan(cp, async (kind) => (kind === "Service" ? ["PKEPT", "PSVC"] : []));
  // "svc" gets PSVC (PKEPT is in the state); "never" finds PSVC taken by "svc": nothing left.
  expect(decisions.filter((d) => d.urn.includes("Service::"))).toEqual([
    { urn: urn(T.service, "svc"), kind: "record", id: "PSVC", what: 'service "Made"' },
    { urn: urn(T.service, "never"), kind: "not-made", what: 'service "Never"' },
  ]);
});

test("the state written back: recorded objects after their dependencies, decided creates gone, the rest kept", async () => {
  const cp = checkpoint();
  const out = apply(cp, await plan(cp, finder));
  const resources = out.deployment.resources!;
  expect(resources.map((r) => r.urn)).toEqual([STACK, PROVIDER, urn(T.service, "kept"), urn(T.service, "svc"), urn(T.integration, "int")]);
  expect(resources.find((r) => r.urn === urn(T.integration, "int"))).toMatchObject({ id: "PINT", outputs: { service: "PSVC" } });
  expect(out.deployment.pending_operations!.map((o) => `${o.type} ${o.resource.urn}`)).toEqual([
    `creating ${urn(T.rule, "rule")}`,
    `updating ${urn(T.service, "kept")}`,
  ]);
  // The input is not changed.
  expect(cp.deployment.resources).toHaveLength(3);
});

test("--help names every kind that creates objects, read off the registry, in lines of at most 100 columns", () => {
  expect(RECOVER.help.replace(/\s+/g, " ")).toContain(`each pending create of a ${orList(creatingKinds())} is looked for`);
  for (const kind of creatingKinds()) expect(RECOVER.help).toContain(kind);
  expect(RECOVER.help.split("\n").filter((l) => l.length > 100)).toEqual([]);
});

test("arguments", () => {
  const parseArgs = (argv: string[]) => parseCommandLine(RECOVER, argv);
  expect(parseArgs(["--stack", "prod", "--dry-run", "--cwd=/x"])).toEqual({ stack: "prod", dryRun: true, cwd: "/x" });
  expect(() => parseArgs(["--stack"])).toThrow(/--stack <value>. argument missing/);
  expect(() => parseArgs(["--force"])).toThrow(/Unknown option .--force./);
});

// ---- accounts ----------------------------------------------------------------------------------

describe("named accounts", () => {
  const mock = useMockAgent();
  const DEFAULT_API = "http://127.0.0.1:7101";
  const EU_API = "http://127.0.0.1:7102";
  const EU_TOKEN = "eu-token-5ecret";

  /** Pending creates in the default account and in "eu"; the same service name in both. */
  function twoAccounts(lastWritten = "2026-01-01T00:00:00Z"): Checkpoint {
    return {
      version: 3,
      deployment: {
        // When the interrupted run last wrote the state: long ago, unless a test says otherwise.
        manifest: { time: lastWritten },
        resources: [
          { urn: STACK, type: T.stack, custom: false },
          { urn: PROVIDER, type: T.provider, custom: true, id: "uuid" },
          // Holds PSAME in the default account only: the eu object with that id is still free.
          { ...res(T.service, "held", { name: "Held" }), id: "PSAME" },
        ],
        pending_operations: [
          { type: "creating", resource: res(T.service, "us-svc", { name: "Checkout" }) },
          { type: "creating", resource: res(T.service, "eu-svc", { name: "Checkout", account: "eu" }) },
          { type: "creating", resource: res(T.rule, "eu-rule", { service: "PEUSVC", disabled: false, account: "eu" }) },
        ],
      },
    };
  }

  /** `pulumi config --json --show-secrets` as Pulumi 3.248 prints it: a structured value as JSON text and parsed. */
  function configJson(eu: Record<string, unknown>): string {
    return JSON.stringify({
      "pagerduty:apiUrl": { value: DEFAULT_API, secret: false },
      "pagerduty:accounts": { value: JSON.stringify({ eu }), objectValue: { eu }, secret: true },
      "aws:region": { value: "eu-west-1", secret: false },
    });
  }

  const services = (items: Array<{ id: string; name: string }>) => ({ services: items, limit: 100, offset: 0, more: false });
  const env = { PAGERDUTY_TOKEN: "default-token" };

  async function run(checkpoint: Checkpoint, config: string, dryRun = false) {
    const pulumi = fakePulumi(checkpoint, config);
    const lines: string[] = [];
    const code = await recover({ cwd: "/nowhere", dryRun }, (l) => void lines.push(l), { pulumi: pulumi.run, env, clients: { dispatcher: mock() } });
    return { code, out: lines.join("\n"), ...pulumi };
  }

  test("the finder is asked in each create's own account, without the account among the inputs; ids are taken per account", async () => {
    const asked: Array<[string, string, Record<string, unknown>]> = [];
    const decisions = await plan(twoAccounts(), async (kind, inputs, account) => {
      asked.push([account, kind, inputs]);
      return kind === "Service" ? ["PSAME"] : ["R1"];
    });
    expect(asked).toEqual([
      ["default", "Service", { name: "Checkout" }],
      ["eu", "Service", { name: "Checkout" }],
      ["eu", "ServiceEventRule", { service: "PEUSVC", disabled: false }],
    ]);
    expect(decisions).toEqual([
      { urn: urn(T.service, "us-svc"), kind: "not-made", what: 'service "Checkout"' },
      { urn: urn(T.service, "eu-svc"), kind: "record", id: "PSAME", what: 'service "Checkout"', account: "eu" },
      { urn: urn(T.rule, "eu-rule"), kind: "record", id: "R1", what: "event rule of service PEUSVC", account: "eu" },
    ]);
  });

  test("pending creates in two accounts are each found through their own account's API and credentials", async () => {
    mock()
      .get(DEFAULT_API)
      .intercept({
        path: (p) => p.startsWith("/services?") && p.includes("query=Checkout"),
        method: "GET",
        headers: { authorization: "Token token=default-token" },
      })
      .reply(200, services([{ id: "PUS", name: "Checkout" }]));
    mock()
      .get(EU_API)
      .intercept({
        path: (p) => p.startsWith("/services?") && p.includes("query=Checkout"),
        method: "GET",
        headers: { authorization: `Token token=${EU_TOKEN}` },
      })
      .reply(
        200,
        services([
          { id: "PEUSVC", name: "Checkout" },
          { id: "POTHER", name: "Checkout 2" },
        ]),
      );
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services/PEUSVC/rules?"), method: "GET", headers: { authorization: `Token token=${EU_TOKEN}` } })
      .reply(200, { rules: [{ id: "RULE1", position: 0, disabled: false, conditions: { operator: "and", subconditions: [] }, actions: {} }], more: false });

    const r = await run(twoAccounts(), configJson({ apiUrl: EU_API, token: EU_TOKEN }));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`  record    ${urn(T.service, "us-svc")} -> PUS (service "Checkout")\n`);
    expect(r.out).toContain(`  record    ${urn(T.service, "eu-svc")} -> PEUSVC (service "Checkout", account "eu")`);
    expect(r.out).toContain(`  record    ${urn(T.rule, "eu-rule")} -> RULE1 (event rule of service PEUSVC, account "eu")`);
    expect(r.out).not.toContain(EU_TOKEN);
    const [state] = r.imported;
    expect(state.deployment.pending_operations).toEqual([]);
    expect(state.deployment.resources!.filter((x) => x.type !== T.stack && x.type !== T.provider).map((x) => [x.urn, x.id, x.outputs?.account])).toEqual([
      [urn(T.service, "held"), "PSAME", undefined],
      [urn(T.service, "us-svc"), "PUS", undefined],
      [urn(T.service, "eu-svc"), "PEUSVC", "eu"],
      [urn(T.rule, "eu-rule"), "RULE1", "eu"],
    ]);
    expect(r.calls.find((c) => c[0] === "refresh")).toEqual([
      "refresh",
      "--yes",
      "--skip-preview",
      ...[urn(T.service, "us-svc"), urn(T.service, "eu-svc"), urn(T.rule, "eu-rule")].flatMap((u) => ["--target", u]),
    ]);
  });

  test("right after an interruption, a create that finds nothing is looked for again until the window has passed: an object the listing shows late is recorded", async () => {
    const listing = (p: string) => p.startsWith("/services?") && p.includes("query=Checkout");
    mock().get(DEFAULT_API).intercept({ path: listing, method: "GET" }).reply(200, services([]));
    mock()
      .get(DEFAULT_API)
      .intercept({ path: listing, method: "GET" })
      .reply(200, services([{ id: "PLATE", name: "Checkout" }]));
    mock()
      .get(EU_API)
      .intercept({ path: listing, method: "GET" })
      .reply(200, services([{ id: "PEUSVC", name: "Checkout" }]));
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services/PEUSVC/rules?"), method: "GET" })
      .reply(200, { rules: [{ id: "RULE1", position: 0, disabled: false, conditions: { operator: "and", subconditions: [] }, actions: {} }], more: false });
    const pulumi = fakePulumi(twoAccounts(new Date().toISOString()), configJson({ apiUrl: EU_API, token: EU_TOKEN }));
    const lines: string[] = [];
    const code = await recover({ cwd: "/nowhere", dryRun: false }, (l) => void lines.push(l), {
      pulumi: pulumi.run,
      env: { ...env, PAGERDUTY_CONSISTENCY_WINDOW: "5" },
      clients: { dispatcher: mock() },
    });
    expect(code).toBe(0);
    expect(lines.join("\n")).toContain(`  record    ${urn(T.service, "us-svc")} -> PLATE (service "Checkout")`);
  });

  test("a never-deployed stack (deployment: null, as a restored .bak of a new stack holds) has nothing to recover", async () => {
    const r = await run({ version: 3, deployment: null } as unknown as Checkpoint, configJson({ apiUrl: EU_API, token: EU_TOKEN }));
    expect(r.code).toBe(0);
    expect(r.out).toBe("pagerduty-recover: no interrupted creates in the stack's state; nothing to do");
  });

  test("an account without credentials is named with its settings, the other account is still searched, and nothing is written", async () => {
    mock()
      .get(DEFAULT_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(200, services([{ id: "PUS", name: "Checkout" }]));
    // The eu entry has no credential; the environment's default token must not be borrowed for it.
    const r = await run(twoAccounts(), configJson({ apiUrl: EU_API, subdomain: "acme-eu" }));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`  record    ${urn(T.service, "us-svc")} -> PUS (service "Checkout")`);
    expect(r.out).toContain(`  FAILED    ${urn(T.service, "eu-svc")} (service "Checkout", account "eu"): left pending, account "eu" could not be searched`);
    expect(r.out).toContain(
      `  FAILED    ${urn(T.rule, "eu-rule")} (event rule of service PEUSVC, account "eu"): left pending, account "eu" could not be searched`,
    );
    expect(r.out).toMatch(
      /^account "eu": no PagerDuty credentials: set "pagerduty:accounts\.eu\.clientId" and "pagerduty:accounts\.eu\.clientSecret" .*"pagerduty:accounts\.eu\.token"/m,
    );
    // `pulumi stack import` would drop eu's pending creates, which its next `up` needs: no import.
    expect(r.out).toMatch(
      /^Nothing was changed: account "eu" could not be searched: fix the settings named above\. Then run `npx --no-install pagerduty-recover` again \(writing the state back would drop/m,
    );
    expect(r.imported).toEqual([]);
    expect(r.calls.map((c) => c[0])).toEqual(["stack", "config"]);
  });

  test("refused credentials name the account's setting and never the credential", async () => {
    mock()
      .get(DEFAULT_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(200, services([]));
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } });
    const r = await run(twoAccounts(), configJson({ apiUrl: EU_API, token: EU_TOKEN }), true);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`  not made  ${urn(T.service, "us-svc")} (no service "Checkout" matches; \`pulumi up\` creates it)`);
    expect(r.out).toMatch(/^account "eu": PagerDuty refused the credentials of account "eu" in "pagerduty:accounts\.eu\.token": GET \/services failed: 401/m);
    expect(r.out).not.toContain(EU_TOKEN);
    expect(r.imported).toEqual([]);
  });

  test("a refused default account is named by its top-level setting and environment variable", async () => {
    mock()
      .get(DEFAULT_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } });
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services?"), method: "GET" })
      .reply(200, services([{ id: "PEUSVC", name: "Checkout" }]));
    mock()
      .get(EU_API)
      .intercept({ path: (p) => p.startsWith("/services/PEUSVC/rules?"), method: "GET" })
      .reply(200, { rules: [], more: false });
    const r = await run(twoAccounts(), configJson({ apiUrl: EU_API, token: EU_TOKEN }));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`  FAILED    ${urn(T.service, "us-svc")} (service "Checkout"): left pending, the default account could not be searched`);
    expect(r.out).toContain(`  record    ${urn(T.service, "eu-svc")} -> PEUSVC (service "Checkout", account "eu")`);
    expect(r.out).toMatch(/^the default account: PagerDuty refused the credentials in "pagerduty:token" \(env PAGERDUTY_TOKEN\)/m);
    expect(r.imported).toEqual([]);
  });

  test("an unusable account URL: nothing is imported", async () => {
    const cp = twoAccounts();
    cp.deployment.pending_operations = cp.deployment.pending_operations!.filter((o) => o.resource.inputs?.account === "eu");
    const r = await run(cp, configJson({ apiUrl: "http://example.com", token: EU_TOKEN }));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^account "eu": "pagerduty:accounts\.eu\.apiUrl" must use https/m);
    expect(r.imported).toEqual([]);
  });

  test("an account recorded as a secret is never searched in the default account", async () => {
    const cp = twoAccounts();
    cp.deployment.pending_operations = [
      {
        type: "creating",
        resource: {
          ...cp.deployment.pending_operations![1].resource,
          inputs: { name: "Checkout", account: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" } },
        },
      },
    ];
    const decisions = await plan(cp, async () => {
      throw new Error("must not search");
    });
    expect(decisions).toEqual([expect.objectContaining({ kind: "failed", reason: expect.stringMatching(/not a plain account name/) })]);
  });
});

describe("a package stack (the plugin's types, pagerduty-dynamic:index:<Kind>)", () => {
  const mock = useMockAgent();
  const PKG_API = "http://127.0.0.1:7201";
  const EXPLICIT_API = "http://127.0.0.1:7202";
  const P = {
    service: "pagerduty-dynamic:index:Service",
    integration: "pagerduty-dynamic:index:ServiceIntegration",
    provider: "pulumi:providers:pagerduty-dynamic",
  };
  const DEFAULT_PROVIDER = urn(P.provider, "default_0_1_0");
  const EU_PROVIDER = urn(P.provider, "eu");
  const SECRET = (plaintext: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(plaintext) });
  const ENCRYPTED = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "AAAA" };

  /** A resource of the package as the engine records it: no `__provider`, its provider resource referenced. */
  const pkg = (type: string, name: string, inputs: Record<string, unknown>, provider = DEFAULT_PROVIDER) => ({
    urn: urn(type, name),
    type,
    custom: true,
    inputs: { __origin: name, ...inputs },
    parent: STACK,
    provider: `${provider}::uuid-${name}`,
  });

  /** Services through the default provider and the explicit "eu" one; an integration imported under its service holds PINT1. */
  function packageStack(token: unknown): Checkpoint {
    return {
      version: 3,
      deployment: {
        manifest: { time: "2026-01-01T00:00:00Z" },
        resources: [
          { urn: STACK, type: T.stack, custom: false },
          { urn: DEFAULT_PROVIDER, type: P.provider, custom: true, id: "uuid-d" },
          { urn: EU_PROVIDER, type: P.provider, custom: true, id: "uuid-eu", inputs: { apiUrl: EXPLICIT_API, token, version: "0.1.0" } },
          { ...pkg(P.integration, "imported", { service: "PSVC", name: "events" }), id: "PSVC/PINT1" },
        ],
        pending_operations: [
          { type: "creating", resource: pkg(P.service, "svc", { name: "Checkout" }) },
          { type: "creating", resource: pkg(P.integration, "int", { service: "PSVC", name: "events", type: "events_api_v2_inbound_integration" }) },
          { type: "creating", resource: pkg(P.service, "eu-svc", { name: "Checkout EU" }, EU_PROVIDER) },
        ],
      },
    };
  }

  test("each create is searched with its provider's settings: the package's stack config, or the explicit provider's; imported ids are held", async () => {
    const asked: Array<[string, string, string]> = [];
    const decisions = await plan(packageStack(ENCRYPTED), async (kind, _inputs, account, source) => {
      asked.push([source, account, kind]);
      return kind === "ServiceIntegration" ? ["PINT1", "PINT2"] : ["PS1"];
    });
    expect(asked).toEqual([
      ["package", "default", "Service"],
      ["package", "default", "ServiceIntegration"],
      [EU_PROVIDER, "default", "Service"],
    ]);
    expect(decisions).toEqual([
      { urn: urn(P.service, "svc"), kind: "record", id: "PS1", what: 'service "Checkout"' },
      // PINT1 is the imported resource's (recorded as PSVC/PINT1): only PINT2 is free.
      { urn: urn(P.integration, "int"), kind: "record", id: "PINT2", what: "integration of service PSVC" },
      { urn: urn(P.service, "eu-svc"), kind: "record", id: "PS1", what: 'service "Checkout EU"', provider: EU_PROVIDER },
    ]);
  });

  const services = (items: Array<{ id: string; name: string }>) => ({ services: items, limit: 100, offset: 0, more: false });

  async function run(config: Record<string, unknown>) {
    const pulumi = fakePulumi(packageStack(ENCRYPTED), JSON.stringify(config), packageStack(SECRET("eu-t0ken")));
    const lines: string[] = [];
    const code = await recover({ cwd: "/nowhere", dryRun: false }, (l) => void lines.push(l), { pulumi: pulumi.run, env: {}, clients: { dispatcher: mock() } });
    return { code, out: lines.join("\n"), ...pulumi };
  }

  test("found through the package's own settings and the explicit provider's, recorded, and read with refresh; no secret printed or written", async () => {
    const listing = (name: string) => (p: string) => p.startsWith("/services?") && p.includes(`query=${encodeURIComponent(name).replace(/%20/g, "+")}`);
    mock()
      .get(PKG_API)
      .intercept({ path: listing("Checkout"), method: "GET", headers: { authorization: "Token token=pkg-t0ken" } })
      .reply(200, services([{ id: "PNEW", name: "Checkout" }]));
    mock()
      .get(PKG_API)
      .intercept({ path: (p) => p === "/services/PSVC" || p.startsWith("/services/PSVC?"), method: "GET", headers: { authorization: "Token token=pkg-t0ken" } })
      .reply(200, { service: { id: "PSVC", integrations: [{ id: "PINT1" }, { id: "PINT2" }] } });
    for (const id of ["PINT1", "PINT2"])
      mock()
        .get(PKG_API)
        .intercept({ path: (p) => p.startsWith(`/services/PSVC/integrations/${id}`), method: "GET" })
        .reply(200, { integration: { id, type: "events_api_v2_inbound_integration", name: "events", service: { id: "PSVC" } } });
    mock()
      .get(EXPLICIT_API)
      .intercept({ path: listing("Checkout EU"), method: "GET", headers: { authorization: "Token token=eu-t0ken" } })
      .reply(200, services([{ id: "PEU", name: "Checkout EU" }]));
    // `pagerduty:*` is @pulumi/pagerduty's namespace in a package stack: never read for the package's creates.
    const r = await run({
      "pagerduty:apiUrl": { value: "http://127.0.0.1:9", secret: false },
      "pagerduty:token": { value: "bridged-t0ken", secret: true },
      "pagerduty-dynamic:apiUrl": { value: PKG_API, secret: false },
      "pagerduty-dynamic:token": { value: "pkg-t0ken", secret: true },
    });
    if (r.code !== 0) throw new Error(r.out);
    expect(r.out).toContain(`  record    ${urn(P.service, "svc")} -> PNEW (service "Checkout")`);
    expect(r.out).toContain(`  record    ${urn(P.integration, "int")} -> PINT2 (integration of service PSVC)`);
    expect(r.out).toContain(`  record    ${urn(P.service, "eu-svc")} -> PEU (service "Checkout EU", provider "eu")`);
    const [state] = r.imported;
    expect(state.deployment.pending_operations).toEqual([]);
    expect(state.deployment.resources!.filter((x) => x.type !== T.stack && x.type !== P.provider).map((x) => [x.urn, x.id])).toEqual([
      [urn(P.integration, "imported"), "PSVC/PINT1"],
      [urn(P.service, "svc"), "PNEW"],
      [urn(P.integration, "int"), "PINT2"],
      [urn(P.service, "eu-svc"), "PEU"],
    ]);
    // The state written back is the plain export's: the explicit provider's secret stays encrypted.
    expect(state.deployment.resources!.find((x) => x.urn === EU_PROVIDER)!.inputs!.token).toEqual(ENCRYPTED);
    expect(JSON.stringify(state) + r.out).not.toMatch(/t0ken/);
    expect(r.calls).toContainEqual(["stack", "export", "--show-secrets"]);
  });

  test("a package account without settings is named by the package's keys; nothing is written", async () => {
    const r = await run({ "pagerduty:token": { value: "bridged-t0ken", secret: true } });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`  FAILED    ${urn(P.service, "svc")} (service "Checkout"): left pending, the default account could not be searched`);
    expect(r.out).toMatch(/^the default account: no PagerDuty credentials: set "pagerduty-dynamic:clientId"/m);
    expect(r.out).not.toMatch(/"pagerduty:(clientId|token)"/);
    expect(r.imported).toEqual([]);
  });
});

describe("the stack config as `pulumi config --json --show-secrets` prints it", () => {
  // Printed by Pulumi v3.248.0 for: config set --path 'pagerduty:accounts.eu.clientId' cid-eu;
  // --secret --path '...eu.clientSecret'; --path '...eu.maxConcurrency' 4; --path '...eu.scopes[0]';
  // --secret --path '...ap.token'; --secret pagerduty:token; pagerduty:apiUrl.
  const printed = `{
  "pagerduty:accounts": {
    "value": "{\\"ap\\":{\\"token\\":\\"tok-ap\\"},\\"eu\\":{\\"clientId\\":\\"cid-eu\\",\\"clientSecret\\":\\"s3cret-eu\\",\\"maxConcurrency\\":4,\\"scopes\\":[\\"services.read\\"],\\"subdomain\\":\\"acme-eu\\"}}",
    "objectValue": {
      "ap": { "token": "tok-ap" },
      "eu": { "clientId": "cid-eu", "clientSecret": "s3cret-eu", "maxConcurrency": 4, "scopes": ["services.read"], "subdomain": "acme-eu" }
    },
    "secret": true
  },
  "pagerduty:apiUrl": { "value": "http://127.0.0.1:9", "secret": false },
  "pagerduty:token": { "value": "toptok", "secret": true },
  "other:key": { "value": "x", "secret": false }
}`;

  test("structured pagerduty:accounts arrives as the JSON text the provider parses; other namespaces are dropped", () => {
    const config = configValues(printed);
    expect([...config.keys()].sort()).toEqual(["pagerduty:accounts", "pagerduty:apiUrl", "pagerduty:token"]);
    const get = (k: string) => config.get(k);
    expect(accountNames(get)).toEqual(["ap", "eu"]);
    const eu = resolveSettings(get, {}, "eu");
    expect(eu).toMatchObject({
      account: "eu",
      subdomain: "acme-eu",
      maxConcurrency: 4,
      scopes: ["services.read"],
      credentials: { kind: "client_credentials", clientId: "cid-eu", clientSecret: "s3cret-eu" },
    });
    expect(resolveSettings(get, {}, "ap").credentials).toEqual({ kind: "api_key", token: "tok-ap" });
    expect(resolveSettings(get, {}).credentials).toEqual({ kind: "api_key", token: "toptok" });
  });

  test("the package's namespace is read under its own keys, which the settings resolution reads in that namespace; the dynamic providers' is not", () => {
    const json = JSON.stringify({
      "pagerduty:token": { value: "bridged", secret: true },
      "pagerduty-dynamic:token": { value: "pkg", secret: true },
      "pagerduty-dynamic:accounts": { objectValue: { eu: { token: "t-eu" } }, secret: true },
    });
    const config = configValues(json, "package");
    expect([...config.keys()].sort()).toEqual(["pagerduty-dynamic:accounts", "pagerduty-dynamic:token"]);
    expect(resolveSettings((k) => config.get(k), {}, "default", "pagerduty-dynamic").credentials).toEqual({ kind: "api_key", token: "pkg" });
    expect(resolveSettings((k) => config.get(k), {}, "eu", "pagerduty-dynamic").credentials).toEqual({ kind: "api_key", token: "t-eu" });
    // Messages name the package's keys.
    expect(() => resolveSettings((k) => config.get(k), {}, "apac", "pagerduty-dynamic")).toThrow(/declare it in "pagerduty-dynamic:accounts"/);
  });

  test("an explicit provider's inputs, exported with their secrets, become its settings; an encrypted one is refused without quoting it", () => {
    const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify("s3cret") };
    const settings = providerSettings({ apiUrl: "https://api.example", clientSecret: secret, maxConcurrency: 4, accounts: { eu: { token: "t" } }, __x: 1 });
    expect(Object.fromEntries(settings)).toEqual({
      "pagerduty-dynamic:apiUrl": "https://api.example",
      "pagerduty-dynamic:clientSecret": "s3cret",
      "pagerduty-dynamic:maxConcurrency": "4",
      "pagerduty-dynamic:accounts": JSON.stringify({ eu: { token: "t" } }),
    });
    const encrypted = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "s3cretcipher" };
    expect(() => providerSettings({ clientSecret: encrypted })).toThrow(/still encrypted/);
    expect(() => providerSettings({ clientSecret: { ...secret, plaintext: "s3cret" } })).toThrow(/not the JSON/);
    expect(() => providerSettings({ clientSecret: { ...secret, plaintext: "s3cret" } })).not.toThrow(/s3cret/);
  });

  test("only objectValue (no text) is read the same; text that is not JSON is refused without quoting it", () => {
    const config = configValues(JSON.stringify({ "pagerduty:accounts": { objectValue: { eu: { token: "t" } }, secret: true } }));
    expect(resolveSettings((k) => config.get(k), {}, "eu").credentials).toEqual({ kind: "api_key", token: "t" });
    expect(() => configValues("token=s3cret")).toThrow(/not JSON$/);
    expect(() => configValues("token=s3cret")).not.toThrow(/s3cret/);
  });
});

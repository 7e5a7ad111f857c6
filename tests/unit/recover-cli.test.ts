// pagerduty-recover's decisions on a stack's pending creates, and the state it writes back.
import { apply, parseArgs, plan, type Checkpoint, type Finder } from "../../provider/cli/recover";

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

function checkpoint(): Checkpoint {
  const res = (type: string, name: string, inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    urn: urn(type, name), type, custom: true, inputs: { __provider: "p", __origin: name, ...inputs }, parent: STACK, provider: `${PROVIDER}::uuid`, ...extra,
  });
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
        { type: "creating", resource: res(T.integration, "int", { service: "PSVC", type: "events_api_v2_inbound_integration" }, { dependencies: [urn(T.service, "svc")] }) },
        { type: "creating", resource: res(T.service, "svc", { name: "Made" }) },
        { type: "creating", resource: res(T.service, "kept", { name: "Kept" }) },
        { type: "creating", resource: res(T.service, "never", { name: "Never" }) },
        { type: "creating", resource: res(T.rule, "rule", { service: "PSVC" }) },
        { type: "updating", resource: { ...res(T.service, "kept", { name: "Kept" }), id: "PKEPT" } },
      ],
    },
  };
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
  expect(out.deployment.pending_operations!.map((o) => `${o.type} ${o.resource.urn}`)).toEqual([`creating ${urn(T.rule, "rule")}`, `updating ${urn(T.service, "kept")}`]);
  // The input is not changed.
  expect(cp.deployment.resources).toHaveLength(3);
});

test("arguments", () => {
  expect(parseArgs(["--stack", "prod", "--dry-run", "--cwd=/x"])).toEqual({ stack: "prod", dryRun: true, cwd: "/x" });
  expect(() => parseArgs(["--stack"])).toThrow(/--stack <value>. argument missing/);
  expect(() => parseArgs(["--force"])).toThrow(/Unknown option .--force./);
});

// pagerduty-move's plan for a stack of the dynamic providers, and the pulumi commands it runs, in order.
import * as fs from "node:fs";
import { parseCommandLine } from "../../../../provider/cli/command-line";
import { MOVE, move, planMove } from "../../../../provider/cli/move";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import type { Checkpoint } from "../../../../provider/account/stack-state";

const D = "pulumi-nodejs:dynamic/pagerduty:";
const P = "pagerduty-dynamic:index:";
const urn = (type: string, name: string, parents = "") => `urn:pulumi:dev::p::${parents}${type}::${name}`;
const STACK = urn("pulumi:pulumi:Stack", "p-dev");
const PROVIDER = urn("pulumi:providers:pulumi-nodejs", "default");
const COMPONENT = urn("acme:index:Team", "payments");

const res = (kind: string, name: string, id: string, inputs: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  urn: urn(`${D}${kind}`, name),
  type: `${D}${kind}`,
  id,
  custom: true,
  inputs: { __provider: "serialized", ...inputs },
  parent: STACK,
  provider: `${PROVIDER}::uuid`,
  ...extra,
});

function checkpoint(extra: Array<Record<string, unknown>> = []): Checkpoint {
  return {
    version: 3,
    deployment: {
      resources: [
        { urn: STACK, type: "pulumi:pulumi:Stack", custom: false },
        { urn: PROVIDER, type: "pulumi:providers:pulumi-nodejs", custom: true, id: "uuid" },
        res("Service", "checkout", "PSVC", { name: "Checkout" }),
        res("ServiceIntegration", "events", "PINT", { service: "PSVC" }),
        res("ServiceEnablement", "aiops", "PSVC/aiops", { service: "PSVC", feature: "aiops" }),
        res("ServiceDependency", "needs", "D1", { dependentService: "PSVC" }),
        res("Lookup", "found", "service:abc", { query: "service" }),
        // Under a component: its parent goes into the import file's name table.
        { ...res("ServiceEventRule", "disk", "R1", { service: "PSVC" }), urn: urn(`${D}ServiceEventRule`, "disk", "acme:index:Team$"), parent: COMPONENT },
        ...extra,
      ],
    },
  } as Checkpoint;
}

const CONFIG = JSON.stringify({
  "pagerduty:clientId": { value: "cid", secret: false },
  "pagerduty:clientSecret": { value: "s3cret", secret: true },
  "pagerduty:subdomain": { value: "acme", secret: false },
  "pagerduty:accounts": { value: "{}", objectValue: {}, secret: false },
  "pagerduty-dynamic:subdomain": { value: "acme", secret: false },
  "aws:region": { value: "eu-west-1", secret: false },
});

test("each object is imported by its kind's import id under its name and parent; lookups, a dependency and the provider are forgotten", () => {
  const plan = planMove(checkpoint(), CONFIG);
  expect(plan.imports).toEqual({
    resources: [
      { type: `${P}Service`, name: "checkout", id: "PSVC" },
      { type: `${P}ServiceIntegration`, name: "events", id: "PSVC/PINT" },
      { type: `${P}ServiceEnablement`, name: "aiops", id: "PSVC/aiops" },
      { type: `${P}ServiceEventRule`, name: "disk", id: "PSVC/R1", parent: "parent1" },
    ],
    nameTable: { parent1: COMPONENT },
  });
  // Last first (the state lists dependents after what they depend on), then the provider nothing else uses.
  expect(plan.forget).toEqual([
    urn(`${D}ServiceEventRule`, "disk", "acme:index:Team$"),
    urn(`${D}Lookup`, "found"),
    urn(`${D}ServiceDependency`, "needs"),
    urn(`${D}ServiceEnablement`, "aiops"),
    urn(`${D}ServiceIntegration`, "events"),
    urn(`${D}Service`, "checkout"),
    PROVIDER,
  ]);
  expect(plan.recordedByUp).toEqual([urn(`${D}ServiceDependency`, "needs")]);
});

test("the plain settings are copied under the package's namespace, secrets as secrets; a key already set and `accounts` are not", () => {
  expect(planMove(checkpoint(), CONFIG).settings).toEqual([
    { from: "pagerduty:clientId", to: "pagerduty-dynamic:clientId", secret: false },
    { from: "pagerduty:clientSecret", to: "pagerduty-dynamic:clientSecret", secret: true },
  ]);
});

test("a credential stored in plain text is copied as a secret, on stdin", () => {
  const config = JSON.stringify({ "pagerduty:clientSecret": { value: "pl4in", secret: false } });
  expect(planMove(checkpoint(), config).settings).toEqual([{ from: "pagerduty:clientSecret", to: "pagerduty-dynamic:clientSecret", secret: true }]);
  const calls: Array<{ args: string[]; input?: string }> = [];
  const run: Pulumi = (args, input) => {
    if (args.join(" ") === "stack export") return JSON.stringify(checkpoint());
    if (args.join(" ") === "config --json --show-secrets") return config;
    calls.push({ args, input });
    return "";
  };
  expect(move({ cwd: ".", dryRun: false }, () => {}, run)).toBe(0);
  expect(calls[0]).toEqual({ args: ["config", "set", "--secret", "--", "pagerduty-dynamic:clientSecret"], input: "pl4in" });
  expect(calls.flatMap((c) => c.args)).not.toContain("pl4in");
});

test("a config reply that is not JSON is refused without quoting it", () => {
  const run: Pulumi = (args) => (args[0] === "stack" ? JSON.stringify(checkpoint()) : '{"pagerduty:clientSecret": s3cret-value');
  expect(() => move({ cwd: ".", dryRun: true }, () => {}, run)).toThrow(/`pulumi config --json --show-secrets` printed something that is not JSON$/);
  expect(() => move({ cwd: ".", dryRun: true }, () => {}, run)).not.toThrow(/s3cret-value/);
});

test("a run cut short is taken up again: what was imported already is not imported twice, the rest is", () => {
  const imported = { urn: urn(`${P}Service`, "checkout"), type: `${P}Service`, id: "PSVC", custom: true, parent: STACK };
  expect(planMove(checkpoint([imported]), CONFIG).imports.resources.map((r) => r.name)).toEqual(["events", "aiops", "disk"]);
});

test("the dynamic provider stays while another resource still uses it (another package's dynamic resource)", () => {
  const other = { urn: urn("pulumi-nodejs:dynamic:Resource", "mine"), type: "pulumi-nodejs:dynamic:Resource", id: "x", provider: `${PROVIDER}::uuid` };
  expect(planMove(checkpoint([other]), CONFIG).forget).not.toContain(PROVIDER);
});

test("protected resources and resources of a named account are refused, each named, before anything is done", () => {
  const cp = checkpoint([res("Service", "locked", "PL", {}, { protect: true }), res("Service", "eu", "PEU", { account: "eu" })]);
  expect(() => planMove(cp, CONFIG)).toThrow(/nothing was changed; cannot move:\n.*Service::locked is protected[\s\S]*Service::eu is in account "eu"/);
});

/** A pulumi CLI for move: the state and config given; every other call recorded with its stdin. */
function fakePulumi(cp: Checkpoint) {
  const calls: Array<{ args: string[]; input?: string; file?: unknown }> = [];
  const run: Pulumi = (args, input) => {
    if (args.join(" ") === "stack export") return JSON.stringify(cp);
    if (args.join(" ") === "config --json --show-secrets") return CONFIG;
    calls.push({ args, input, ...(args[0] === "import" ? { file: JSON.parse(fs.readFileSync(args[2], "utf8")) } : {}) });
    return "";
  };
  return { run, calls };
}

test("the settings are set first (a secret on stdin), then one import, then one state delete; a dry run changes nothing", () => {
  const lines: string[] = [];
  const pulumi = fakePulumi(checkpoint());
  expect(move({ cwd: ".", dryRun: false }, (l) => lines.push(l), pulumi.run)).toBe(0);
  expect(pulumi.calls.map((c) => c.args.slice(0, 2).join(" "))).toEqual(["config set", "config set", "import --file", "state delete"]);
  expect(pulumi.calls[0]).toEqual({ args: ["config", "set", "--", "pagerduty-dynamic:clientId"], input: "cid" });
  expect(pulumi.calls[1]).toEqual({ args: ["config", "set", "--secret", "--", "pagerduty-dynamic:clientSecret"], input: "s3cret" });
  expect(pulumi.calls[2].args).toEqual(expect.arrayContaining(["--protect=false", "--generate-code=false", "--yes"]));
  expect(pulumi.calls[2].file).toEqual(planMove(checkpoint(), CONFIG).imports);
  expect(pulumi.calls[3].args).toEqual(["state", "delete", "--yes", ...planMove(checkpoint(), CONFIG).forget]);
  expect(lines.join("\n")).not.toContain("s3cret");
  expect(lines.at(-1)).toMatch(/but for needs, which the next `pulumi up` records again/);

  const dry = fakePulumi(checkpoint());
  expect(move({ cwd: ".", dryRun: true }, () => {}, dry.run)).toBe(0);
  expect(dry.calls).toEqual([]);
});

test("a stack with nothing of the dynamic providers has nothing to move", () => {
  const empty = fakePulumi({ version: 3, deployment: { resources: [{ urn: STACK, type: "pulumi:pulumi:Stack" }] } });
  const lines: string[] = [];
  expect(move({ cwd: ".", dryRun: false }, (l) => lines.push(l), empty.run)).toBe(0);
  expect(empty.calls).toEqual([]);
  expect(lines[0]).toMatch(/nothing to move/);
});

test("arguments and help", () => {
  expect(parseCommandLine(MOVE, ["-s", "prod", "--dry-run", "-C", "/x"])).toEqual({ stack: "prod", dryRun: true, cwd: "/x" });
  expect(() => parseCommandLine(MOVE, ["--force"])).toThrow(/Unknown option .--force./);
  expect(MOVE.help.split("\n").filter((l) => l.length > 100)).toEqual([]);
});

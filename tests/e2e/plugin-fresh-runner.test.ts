// Interrupted deployments of a package stack (a YAML program through the plugin) repaired on a fresh
// runner, with the stack's state in a local file backend and in object storage (S3: moto on
// loopback, s3-backend.ts). The cut-off `up` runs as a CI job does (its own session); the next run
// has an empty PULUMI_HOME and cache (no journal) and takes only the shipped workflow's steps:
// examples/gitops/up.sh of the installed package (`pulumi cancel` of the stale lock,
// `pagerduty-recover --stack`, `pulumi up`), or a plain `pulumi cancel` and `pulumi up`, where the
// plugin itself finds the interrupted creates in the stack's state. Afterwards the emulator holds
// every declared object exactly once, no orphan, and the preview is clean.
// e2e: runs apart (it kills whole sessions at moments timed against requests)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ADOPTED_PENDING, clearFaults, type Counts, expectConverged, freshRunnerEnv, interruptedUp, runWith, typesOf } from "./crash-support";
import { type EmulatorProcess, startEmulatorProcess } from "./harness";
import { euProviderYaml, installPlugin, PackageProject } from "./plugin-support";
import { type S3Backend, startS3Backend } from "./s3-backend";

jest.setTimeout(10 * 60_000);

const N = 3;
const TYPES = typesOf("package");
let emu: EmulatorProcess;
let s3: S3Backend;
let pluginBin: string;
const projects: PackageProject[] = [];

/**
 * N services named after the stack, each with an integration and an event rule; and one more in a
 * second account through an explicit provider resource, whose settings pagerduty-recover reads from
 * the state (its client secret a secret there).
 */
const program = (e: EmulatorProcess) =>
  `name: plugin-fresh
runtime: yaml
${euProviderYaml(e).config}resources:
${euProviderYaml(e).resource}  euSvc:
    type: pagerduty-dynamic:index:Service
    properties:
      name: \${pulumi.stack} eu
      escalationPolicy: ${e.eu!.escalationPolicyId}
    options:
      provider: \${eu}
${Array.from(
  { length: N },
  (_, i) => `  svc${i}:
    type: pagerduty-dynamic:index:Service
    properties:
      name: \${pulumi.stack} svc ${i}
      escalationPolicy: ${e.escalationPolicyId}
  int${i}:
    type: pagerduty-dynamic:index:ServiceIntegration
    properties:
      service: \${svc${i}.id}
      type: events_api_v2_inbound_integration
      name: events ${i}
  rule${i}:
    type: pagerduty-dynamic:index:ServiceEventRule
    properties:
      service: \${svc${i}.id}
      conditions:
        operator: and
        subconditions:
          - operator: contains
            parameters: { path: payload.summary, value: svc${i} }
      actions:
        annotate: { value: rule ${i} }
`,
).join("")}`;

beforeAll(async () => {
  [emu, s3] = await Promise.all([startEmulatorProcess(), startS3Backend()]);
  pluginBin = installPlugin(path.join(PackageProject.make("plugin-fresh-install"), ".plugin"));
});

afterAll(async () => {
  for (const p of projects) p.remove();
  await Promise.all([emu?.stop(), s3?.stop()]);
});

afterEach(async () => {
  await clearFaults(emu);
});

/** A YAML project whose stack "dev" holds the settings the others copy, its state in `backend`'s store. */
function projectOn(backend: "file" | "s3"): PackageProject {
  const dir = PackageProject.make(`plugin-fresh-${backend}`);
  const env = backend === "s3" ? { PULUMI_BACKEND_URL: s3.url, ...s3.env } : {};
  const project = new PackageProject(dir, pluginBin, env);
  projects.push(project);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(emu));
  project.initStack(emu, {}, { euClientSecret: emu.eu!.oauth.clientSecret });
  return project;
}

const BACKENDS = ["file", "s3"] as const;
const made = new Map<(typeof BACKENDS)[number], PackageProject>();
const projectFor = (backend: (typeof BACKENDS)[number]) => made.get(backend) ?? made.set(backend, projectOn(backend)).get(backend)!;

/**
 * The shipped pulumi-up workflow's deploy step on a fresh runner: the installed package's up.sh, with
 * the workflow's environment (PULUMI_STACK, the backend, the passphrase); the settings are the stack's.
 */
function upWorkflow(project: PackageProject, stack: string): { code: number; out: string; summary: string } {
  const summary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ppd-plugin-summary-")), "summary.md");
  const gitops = path.join(pluginBin, "..", "pulumi-pagerduty-dynamic", "examples", "gitops");
  const r = runWith(project, freshRunnerEnv(project, { PULUMI_STACK: stack, GITHUB_STEP_SUMMARY: summary }), "bash", [path.join(gitops, "up.sh")]);
  return { ...r, summary: fs.existsSync(summary) ? fs.readFileSync(summary, "utf8") : "" };
}

/**
 * Every declared object exactly once, no orphan, a clean preview (crash-support.ts); the second
 * account's service too, and no client secret in plaintext in the state or the output.
 */
async function expectAllOnce(project: PackageProject, stack: string, opts: { stalePending?: boolean } = {}): Promise<void> {
  // The default account's objects; the second account's service is checked below.
  await expectConverged(project, emu, stack, N, { stack, types: TYPES, ignore: /::euSvc$/, ...opts });
  const inEu = await euServices(stack);
  const recorded = project.resources(stack).filter((r) => r.type === TYPES.service && r.urn.endsWith("::euSvc"));
  expect(inEu).toEqual(recorded.map((r) => r.id));
  expect(inEu).toHaveLength(1);
  const text = project.must(["stack", "export", "--stack", stack]).stdout + project.log;
  for (const secret of [emu.oauth.clientSecret, emu.eu!.oauth.clientSecret]) expect(text).not.toContain(secret);
}

/** Ids of the second account's services of the stack. */
const euServices = async (stack: string) =>
  (await emu.euApi<{ services: Array<{ id: string; name: string }> }>("GET", `/services?query=${encodeURIComponent(stack)}&limit=100`)).body.services
    .filter((x) => x.name === `${stack} eu`)
    .map((x) => x.id);

/** A new stack with dev's settings, its `up` cut off once `when` holds (and, with `euMade`, the second account's service is made). */
const cutOff = (project: PackageProject, stack: string, when: (c: Counts) => boolean, how: "cli" | "runner", euMade = false) =>
  interruptedUp(project, emu, stack, when, how, {
    ...(euMade ? { ready: async (name: string) => (await euServices(name)).length > 0 } : {}),
    makeStack: (name) => {
      project.must(["stack", "init", name]);
      project.must(["config", "cp", "--stack", "dev", "--dest", name]);
    },
    types: TYPES,
    label: "plugin fresh-runner e2e",
  });

describe.each(BACKENDS)("a package stack with its state in %s storage", (backend) => {
  test.each([
    ["the whole runner is lost while services are made (the second account's too)", "svc", (c: Counts) => c.services >= 1, "runner", true],
    ["only the CLI is killed while children are made", "kid", (c: Counts) => c.children >= 2, "cli", false],
  ] as const)("%s: the next run of the shipped workflow converges by itself", async (_title, name, when, how, euMade) => {
    const project = projectFor(backend);
    const stack = await cutOff(project, `${backend}-${name}`, when, how, euMade);
    const r = upWorkflow(project, stack);
    if (r.code !== 0) throw new Error(`the workflow failed (${r.code}):\n${r.out}`);
    expect(r.out).toMatch(/::warning title=Stale stack lock::/);
    // pagerduty-recover knew the package's types: what the cut-off run made is recorded before `up`.
    expect(r.summary).toMatch(/An interrupted earlier run was repaired first \(pagerduty-recover\):[\s\S]*record +urn:pulumi:[^ ]+pagerduty-dynamic:index:/);
    // The second account's service was found with the explicit provider's settings, read from the state.
    if (euMade) expect(r.summary).toMatch(/record +urn:pulumi:[^ ]+::euSvc -> P[A-Z0-9]+ \(service "[^"]+ eu", provider "eu"\)/);
    await expectAllOnce(project, stack);
  });

  test("a plain `pulumi up` on a fresh runner (after `pulumi cancel`) adopts what the cut-off run made from the stack's state, saying so", async () => {
    const project = projectFor(backend);
    const stack = await cutOff(project, `${backend}-plain`, (c) => c.services >= 2 && c.children >= 1, "runner");
    const env = freshRunnerEnv(project);
    expect(runWith(project, env, "pulumi", ["--non-interactive", "cancel", "--yes", "--stack", stack]).code).toBe(0);
    const up = runWith(project, env, "pulumi", ["--non-interactive", "up", "--yes", "--skip-preview", "--stack", stack]);
    if (up.code !== 0) throw new Error(up.out);
    const text = up.out.replace(/\s+/g, " ");
    expect(text).toMatch(ADOPTED_PENDING);
    expect(text).not.toMatch(/without checking the stack's state/);
    await expectAllOnce(project, stack, { stalePending: true });
  });
});

// Interrupted deployments where GitOps deployments run: the job is cut off (only the CLI killed, as a
// cancelled job; or every process, as a lost runner) and the next run happens on a fresh runner: no
// journal, no PULUMI_HOME, nobody runs `pulumi cancel`. The project is at the repository's root and
// the package is installed as from the registry. The emulator carries out each request at once and
// delays its reply (`after` faults), as the real service does whatever happens to its client. After
// the recovery the emulator must hold every declared object exactly once and the preview is clean.
// e2e: runs apart (it kills whole sessions at moments timed against requests)
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ADOPTED_PENDING,
  clearFaults,
  type Counts,
  countObjects,
  expectConverged,
  freshRunnerEnv,
  interruptedUp as crashUp,
  inventory,
  killSession,
  newStack,
  recover,
  runWith,
  PROGRAM,
  slowRoutes,
  startDetached,
  stateOf,
  waitFor,
} from "./crash-support";
import { startEmulatorProcess, type EmulatorProcess } from "./harness";
import { UserRepo } from "./user-repo";

jest.setTimeout(10 * 60_000);

const N = 4;
let emu: EmulatorProcess;
let repo: UserRepo;
const project = () => repo.project;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  repo = new UserRepo("fresh", ".", PROGRAM, emu, { services: String(N) });
});

afterAll(async () => {
  repo?.remove();
  await emu?.stop();
});

afterEach(async () => {
  await clearFaults(emu);
});

const secrets = () => ({ PAGERDUTY_CLIENT_ID: emu.oauth.clientId, PAGERDUTY_CLIENT_SECRET: emu.oauth.clientSecret });

/** The next push: the shipped pulumi-up workflow on a fresh runner. */
const upWorkflow = (stack: string) => repo.runWorkflow("pulumi-up.yml", { stack, secrets: secrets() });

/** `pulumi <args>` in the project with `env` (a fresh runner's). */
const plain = (env: NodeJS.ProcessEnv, args: string[]) => runWith(project(), env, "pulumi", ["--non-interactive", ...args]);

/** A new stack of N services, its `up` cut off once `when` holds (crash-support.ts). */
const interruptedUp = (stack: string, when: (c: Counts) => boolean, how: "cli" | "runner") =>
  crashUp(project(), emu, stack, when, how, { makeStack: (name) => newStack(project(), name, N), label: "fresh-runner e2e" });

describe("the next run of the shipped pulumi-up workflow on a fresh runner converges by itself", () => {
  test.each([
    ["only the CLI is killed while services are made", "svc-cli", (c: Counts) => c.services >= 1, "cli"],
    ["only the CLI is killed while children are made", "kid-cli", (c: Counts) => c.children >= 2, "cli"],
    ["the whole runner is lost while children are made", "kid-all", (c: Counts) => c.children >= 2, "runner"],
  ] as const)("%s", async (_title, name, when, how) => {
    const stack = await interruptedUp(name, when, how);
    const r = upWorkflow(stack);
    if (r.code !== 0) throw new Error(`the workflow failed (${r.code}):\n${r.stdout}`);
    // The lock the cut-off run left is removed, and what it made is recorded before `up`.
    expect(r.stdout).toMatch(/::warning title=Stale stack lock::/);
    expect(r.summary).toMatch(/### Pulumi up of `[a-z0-9-]+`: succeeded/);
    expect(r.summary).toMatch(/An interrupted earlier run was repaired first \(pagerduty-recover\):[\s\S]*record +urn:pulumi:/);
    await expectConverged(project(), emu, stack, N, { stack });
  });
});

test("a plain `pulumi up` on a fresh runner (after `pulumi cancel`) adopts what the cut-off run made, saying so, and makes nothing twice", async () => {
  const stack = await interruptedUp("plain", (c) => c.services >= 2 && c.children >= 1, "runner");
  const env = freshRunnerEnv(project());
  expect(plain(env, ["cancel", "--yes", "--stack", stack]).code).toBe(0);
  const up = plain(env, ["up", "--yes", "--skip-preview", "--stack", stack]);
  if (up.code !== 0) throw new Error(up.out);
  const text = up.out.replace(/\s+/g, " ");
  expect(text).toMatch(ADOPTED_PENDING);
  expect(text).not.toMatch(/answered/);
  // The engine keeps the cut-off run's pending creates: a dry run says what it would drop, then the recovery drops them.
  const dry = recover(project(), ["--dry-run", "--stack", stack]);
  expect(dry.code).toBe(0);
  expect(dry.out).toMatch(/Dry run: nothing was changed/);
  expect(recover(project(), ["--stack", stack]).code).toBe(0);
  await expectConverged(project(), emu, stack, N, { stack });
});

test("an interrupted destroy is finished on a fresh runner: every object gone, the state empty", async () => {
  const stack = "destroy";
  newStack(project(), stack, N);
  project().must(["up", "--yes", "--skip-preview", "--stack", stack]);
  await slowRoutes(emu, ["DELETE /services/:id", "DELETE /services/:id/integrations/:integration_id", "DELETE /services/:id/rules/:rule_id"], 1500);
  const before = await countObjects(emu, stack);
  const run = startDetached(project(), ["destroy", "--yes", "--skip-preview", "--stack", stack]);
  await waitFor(async () => {
    const c = await countObjects(emu, stack);
    return c.children <= before.children - 2;
  });
  await killSession(run);
  await clearFaults(emu);
  const env = freshRunnerEnv(project());
  expect(plain(env, ["cancel", "--yes", "--stack", stack]).code).toBe(0);
  const destroy = plain(env, ["destroy", "--yes", "--skip-preview", "--stack", stack]);
  if (destroy.code !== 0) throw new Error(destroy.out);
  expect(await inventory(emu, stack)).toEqual({ services: [], integrations: [], rules: [] });
  expect(stateOf(project(), stack).ids).toEqual({ service: [], integration: [], rule: [] });
});

test("an update cut off on one runner is finished by the workflow on another: every object has the new value, the preview is clean", async () => {
  const stack = "update";
  newStack(project(), stack, N);
  project().must(["up", "--yes", "--skip-preview", "--stack", stack]);
  project().must(["config", "set", "--stack", stack, "description", "second version"]);
  await slowRoutes(emu, ["PUT /services/:id"], 1500);
  const run = startDetached(project(), ["up", "--yes", "--skip-preview", "--stack", stack]);
  const described = async () =>
    (await emu.api<{ services: Array<{ name: string; description: string | null }> }>("GET", `/services?query=${stack}&limit=100`)).body.services.filter(
      (s) => s.description === "second version",
    ).length;
  await waitFor(async () => (await described()) >= 1);
  await killSession(run);
  await clearFaults(emu);
  // PagerDuty carried the updates out; the state never recorded them.
  expect(stateOf(project(), stack).pending.map((p) => p.type)).toContain("updating");
  const r = upWorkflow(stack);
  if (r.code !== 0) throw new Error(r.stdout);
  expect(await described()).toBe(N);
  await expectConverged(project(), emu, stack, N, { stack });
});

test("two services of one program with one name fail at preview, naming both; nothing is created", async () => {
  const stack = "dupname";
  newStack(project(), stack, 1);
  const program = fs.readFileSync(path.join(project().dir, "index.ts"), "utf8");
  project().setProgram(
    `${program}\nnew pd.Service("dup-a", { name: "Dup Two", escalationPolicy: cfg.require("escalationPolicyId") });\n` +
      `new pd.Service("dup-b", { name: "Dup Two", escalationPolicy: cfg.require("escalationPolicyId") });\n`,
  );
  try {
    const preview = project().run(["preview", "--stack", stack]);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/Service "dup-b" and Service "dup-a" both set name "Dup Two"/);
    const up = project().run(["up", "--yes", "--stack", stack]);
    expect(up.code).not.toBe(0);
    expect(await inventory(emu, "Dup")).toEqual({ services: [], integrations: [], rules: [] });
    expect(await countObjects(emu, stack)).toEqual({ services: 0, children: 0 });
  } finally {
    project().setProgram(program);
  }
});

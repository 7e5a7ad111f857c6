// Interrupted `pulumi up` with the real CLI and the emulator, on the machine that ran it (its journal
// kept): kill -9 early (the CLI's process group) and late (the whole session), one SIGINT. A lost
// machine whose next run is on a fresh runner is tests/e2e/fresh-runner.test.ts (the TypeScript door)
// and plugin-fresh-runner.test.ts (the package door). The emulator makes the
// objects at once and delays the replies (`after` faults), as the real service carries out a
// request whatever happens to its client. After the documented recovery, the emulator must hold
// exactly the objects the state records and a preview must be clean.
// e2e: runs apart (it kills `pulumi up` at moments timed against requests; a busy machine moves them)
import * as fs from "node:fs";
import * as path from "node:path";
import {
  clearFaults,
  countObjects,
  expectConverged,
  inventory,
  killGroup,
  killSession,
  newStack,
  PROGRAM,
  recover,
  slowCreates,
  startDetached,
  stateOf,
  waitFor,
} from "./crash-support";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const N = 4;
let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("crash", PROGRAM, emu, { services: String(N) });
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

afterEach(async () => {
  await clearFaults(emu);
});

const journalDir = () => path.join(project.dir, ".cache", "pulumi-pagerduty-dynamic", "journal");

/** Starts `up` with slow replies and interrupts it once `when` holds for the emulator's objects. */
async function interruptedUp(stack: string, when: (c: { services: number; children: number }) => boolean, how: "group" | "session"): Promise<void> {
  await slowCreates(emu, 1500);
  const run = startDetached(project, ["up", "--yes", "--skip-preview"]);
  await waitFor(async () => when(await countObjects(emu, stack)));
  await (how === "group" ? killGroup(run) : killSession(run));
  await clearFaults(emu);
  expect(stateOf(project).pending.length).toBeGreaterThan(0);
}

test("early: the CLI's process group is killed after the first service is made; `pulumi up` alone adopts what it made", async () => {
  newStack(project, "early", N);
  await interruptedUp("early", (c) => c.services >= 1, "group");
  // The language host and provider ran on after the CLI died: their creates landed too.
  project.must(["cancel", "--yes"]);
  const up = project.must(["up", "--yes", "--skip-preview"]);
  expect(up.stdout.replace(/\s+/g, " ")).toMatch(/service "early svc \d": adopted P[A-Z0-9]+ instead of creating a second one/);
  expect(up.stdout).not.toMatch(/already been taken/);
  // The engine keeps pending creates until they are cleared; recovery drops the stale ones.
  const r = recover(project);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/settled/);
  await expectConverged(project, emu, "early", N);
});

test("late: the whole session is killed after every child was made, before any reply was recorded", async () => {
  newStack(project, "late", N);
  await interruptedUp("late", (c) => c.children >= 2 * N, "session");
  project.must(["cancel", "--yes"]);
  expect(recover(project).code).toBe(0);
  const up = project.must(["up", "--yes", "--skip-preview"]);
  expect(up.stdout).not.toMatch(/\+ +\d+ created/);
  await expectConverged(project, emu, "late", N);
});

test("SIGINT once: the CLI finishes what is in flight and stops; the next up completes", async () => {
  newStack(project, "sigint", N);
  await slowCreates(emu, 1500);
  const run = startDetached(project, ["up", "--yes", "--skip-preview"]);
  await waitFor(async () => (await countObjects(emu, "sigint")).services >= 1);
  process.kill(run.proc.pid!, "SIGINT");
  expect(await run.exited).not.toBe(0);
  await clearFaults(emu);
  project.must(["up", "--yes", "--skip-preview"]);
  const r = recover(project);
  expect(r.code).toBe(0);
  await expectConverged(project, emu, "sigint", N);
});

test("nothing the recovery wrote or printed holds a secret", async () => {
  const journal = fs
    .readdirSync(journalDir(), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"))
    .join("\n");
  expect(fs.statSync(journalDir()).mode & 0o777).toBe(0o700);
  const keys: string[] = [];
  for (const prefix of ["early", "late", "sigint"]) {
    for (const i of (await inventory(emu, prefix)).integrations) {
      const r = await emu.api<{ integration: { integration_key?: string } }>("GET", `/services/${i.service}/integrations/${i.id}`);
      if (r.body.integration.integration_key) keys.push(r.body.integration.integration_key);
    }
  }
  expect(keys.length).toBeGreaterThan(0);
  for (const secret of [emu.oauth.clientSecret, emu.apiKey, ...keys]) {
    expect(project.log).not.toContain(secret);
    expect(journal).not.toContain(secret);
    expect(project.stateText()).not.toContain(secret);
  }
});

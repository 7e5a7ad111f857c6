// Creates whose reply is lost after the service made the object (a 5xx, a dropped connection), and
// an interrupted update and destroy, with the real CLI and the emulator (`after` faults).
// e2e: runs apart (it times lost replies against requests; a busy machine moves them)
import * as fs from "node:fs";
import * as path from "node:path";
import {
  clearFaults,
  countObjects,
  expectConverged,
  inventory,
  killSession,
  newStack,
  PROGRAM,
  recover,
  startDetached,
  stateOf,
  TYPES,
  waitFor,
} from "./crash-support";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const N = 3;
let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("reply", PROGRAM, emu, { services: String(N) });
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

afterEach(async () => {
  await clearFaults(emu);
});

async function fault(spec: Record<string, unknown>): Promise<void> {
  const r = await emu.admin("POST", "/_emulator/faults", spec);
  if (r.status !== 201) throw new Error(`adding a fault: ${r.status} ${JSON.stringify(r.body)}`);
}

test("lost replies: the object made is adopted, one not made is created; one `up`, nothing twice", async () => {
  newStack(project, "lost", N);
  await fault({ route: "POST /services", status: 502, after: true, count: 1 });
  await fault({ route: "POST /services/:id/integrations", drop: true, after: true, count: 1 });
  // Dropped before it was handled: nothing was made, so the provider creates it.
  await fault({ route: "POST /services/:id/rules", drop: true, count: 1 });
  const up = project.must(["up", "--yes", "--skip-preview"]);
  const text = up.stdout.replace(/\s+/g, " ");
  expect(text).toMatch(/service "lost svc \d": adopted P[A-Z0-9]+ instead of creating a second one: the reply to its create was lost: PagerDuty answered 502/);
  expect(text).toMatch(
    /integration "events \d" of service P[A-Z0-9]+: adopted P[A-Z0-9]+ instead of creating a second one: the reply to its create was lost: the connection was closed before the reply arrived/,
  );
  expect(text).not.toMatch(/event rule of service P[A-Z0-9]+: adopted/);
  expect(text).not.toMatch(/UND_ERR/);
  await expectConverged(project, emu, "lost", N);
});

test("a create that stays unanswered fails with what happened in words; the next up finishes without a duplicate", async () => {
  // One service, so the two faults meet one rule's create and its retry: the first request is
  // dropped before it is handled (not made), the retry after it is handled (made, reply lost).
  newStack(project, "twice", 1);
  await fault({ route: "POST /services/:id/rules", drop: true, count: 1 });
  await fault({ route: "POST /services/:id/rules", drop: true, after: true, count: 1 });
  const up = project.run(["up", "--yes", "--skip-preview"]);
  expect(up.code).not.toBe(0);
  const text = (up.stdout + up.stderr).replace(/\s+/g, " ");
  expect(text).toMatch(
    /creating event rule of service P[A-Z0-9]+ failed: the connection was closed before the reply arrived; it was not made \(no matching object exists\), so the create was sent once more and that failed too: the connection was closed before the reply arrived\. That second create may have been carried out; `pulumi up` looks for it before creating again\./,
  );
  expect(text).not.toMatch(/UND_ERR/);
  const again = project.must(["up", "--yes", "--skip-preview"]);
  expect(again.stdout.replace(/\s+/g, " ")).toMatch(/event rule of service P[A-Z0-9]+: adopted [\w-]+ instead of creating a second one/);
  await expectConverged(project, emu, "twice", 1);
});

test("an interrupted update is finished by the next up", async () => {
  newStack(project, "update", N);
  project.must(["up", "--yes", "--skip-preview"]);
  project.must(["config", "set", "description", "second version"]);
  await fault({ route: "PUT /services/:id", latencyMs: 1500, after: true });
  const run = startDetached(project, ["up", "--yes", "--skip-preview"]);
  const described = async () => {
    const r = await emu.api<{ services: Array<{ name: string; description: string | null }> }>("GET", "/services?query=update&limit=100");
    return r.body.services.filter((s) => s.name.startsWith("update ") && s.description === "second version").length;
  };
  await waitFor(async () => (await described()) >= 1);
  await killSession(run);
  await clearFaults(emu);
  expect(stateOf(project).pending.some((p) => p.type === "updating")).toBe(true);
  project.must(["cancel", "--yes"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(await described()).toBe(N);
  await expectConverged(project, emu, "update", N);

  // A stack deployed before the provenance input existed: upgrading shows no change.
  const exported = JSON.parse(project.must(["stack", "export"]).stdout);
  for (const r of exported.deployment.resources) {
    delete r.inputs?.__origin;
    delete r.propertyDependencies?.__origin;
  }
  const file = path.join(project.dir, "old-state.json");
  fs.writeFileSync(file, JSON.stringify(exported));
  project.must(["stack", "import", "--file", file]);
  expect(JSON.parse(project.must(["stack", "export"]).stdout).deployment.resources.filter((r: any) => r.inputs?.__origin)).toEqual([]);
  project.must(["preview", "--expect-no-changes"]);
});

test("an interrupted destroy: what was deleted stays gone, the next destroy deletes the rest", async () => {
  newStack(project, "gone", N);
  project.must(["up", "--yes", "--skip-preview"]);
  for (const route of ["DELETE /services/:id", "DELETE /services/:id/integrations/:integration_id", "DELETE /services/:id/rules/:rule_id"]) {
    await fault({ route, latencyMs: 1500, after: true });
  }
  const run = startDetached(project, ["destroy", "--yes", "--skip-preview"]);
  await waitFor(async () => {
    const c = await countObjects(emu, "gone");
    return c.children < 2 * N || c.services < N;
  });
  await killSession(run);
  await clearFaults(emu);
  expect(stateOf(project).ids.service.length + stateOf(project).ids.integration.length + stateOf(project).ids.rule.length).toBeGreaterThan(0);
  project.must(["cancel", "--yes"]);
  project.must(["destroy", "--yes", "--skip-preview"]);
  const inv = await inventory(emu, "gone");
  expect(inv).toEqual({ services: [], integrations: [], rules: [] });
  const state = stateOf(project);
  expect(state.ids).toEqual({ service: [], integration: [], rule: [] });
  expect(state.pending.filter((p) => Object.values(TYPES).some((t) => p.urn.includes(t)))).toEqual([]);
  expect(recover(project).code).toBe(0);
});

// Outages with the real CLI and the emulator: the token endpoint failing once (502, 503, a dropped
// connection), the whole service restarting in the middle of an `up` (connections refused for
// seconds; creates in flight lose their replies), and a local file backend's checkpoint left cut
// short by a lost machine. Each time the deployment completes with exactly the declared objects.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { clearFaults, countObjects, expectConverged, newStack, PROGRAM, recover, slowCreates, startDetached, stateOf, waitFor } from "./crash-support";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(6 * 60_000);

const PROJECT = "outages";
let emu: EmulatorProcess;
let project: PulumiProject;
let dataFile: string;

beforeAll(async () => {
  dataFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ppd-outage-emu-")), "state.json");
  emu = await startEmulatorProcess(["--data", dataFile]);
  project = PulumiProject.create(PROJECT, PROGRAM, emu, { services: "1" });
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
  if (dataFile) fs.rmSync(path.dirname(dataFile), { recursive: true, force: true });
});

afterEach(async () => {
  await clearFaults(emu);
});

const fault = async (spec: Record<string, unknown>) => {
  const r = await emu.admin("POST", "/_emulator/faults", spec);
  if (r.status !== 201) throw new Error(`adding a fault: ${r.status} ${JSON.stringify(r.body)}`);
};
const faultsLeft = async () => (await emu.admin<{ faults: unknown[] }>("GET", "/_emulator/faults")).body.faults.length;

test("the token endpoint answers 502, drops the connection, answers 503: `pulumi up` asks again and succeeds", async () => {
  newStack(project, "token", 1);
  for (const spec of [{ status: 502 }, { drop: true }, { status: 503 }]) await fault({ route: "POST /oauth/token", count: 1, ...spec });
  const up = project.run(["up", "--yes", "--skip-preview"]);
  expect({ code: up.code, out: up.code ? up.stdout + up.stderr : "" }).toEqual({ code: 0, out: "" });
  // All three were met (the faults are gone): each failed token request was asked again.
  expect(await faultsLeft()).toBe(0);
  await expectConverged(project, emu, "token", 1);
});

test("the service restarts (down 4 s) in the middle of an `up`: refused connections are waited out, lost replies settled, nothing made twice", async () => {
  const N = 4;
  newStack(project, "restart", N);
  // Replies leave 1 s after each object is made, so the restart cuts creates in flight.
  await slowCreates(emu, 1000);
  const run = startDetached(project, ["up", "--yes", "--skip-preview"]);
  await waitFor(async () => (await countObjects(emu, "restart")).services >= 1);
  const port = new URL(emu.url).port;
  await emu.stop();
  const downAt = Date.now();
  await new Promise((r) => setTimeout(r, 4000));
  emu = await startEmulatorProcess(["--port", port, "--data", dataFile]);
  const downMs = Date.now() - downAt;
  const code = await run.exited;
  expect({ code, out: code ? run.output() : "" }).toEqual({ code: 0, out: "" });
  process.stdout.write(`outages e2e: the emulator was down ${(downMs / 1000).toFixed(1)} s during the up\n`);
  await expectConverged(project, emu, "restart", N);
});

describe("a local file backend's checkpoint cut short by a lost machine", () => {
  const stackFile = () => path.join(project.dir, ".pulumi-state", ".pulumi", "stacks", PROJECT, "restart.json");
  const cutShort = (f: string) => fs.writeFileSync(f, fs.readFileSync(f).subarray(0, Math.floor(fs.statSync(f).size / 2)));
  const corruptCopies = () => fs.readdirSync(path.dirname(stackFile())).filter((n) => n.startsWith("restart.json.corrupt-"));

  beforeAll(() => project.must(["stack", "select", "restart"]));

  test("its .bak unreadable too: pagerduty-recover changes nothing and names the newest history checkpoint", () => {
    const file = stackFile();
    const saved = { file: fs.readFileSync(file), bak: fs.readFileSync(`${file}.bak`) };
    cutShort(file);
    cutShort(`${file}.bak`);
    try {
      expect(project.run(["stack", "export"]).stderr).toMatch(/failed to load checkpoint/);
      const r = recover(project);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(
        /the checkpoint .*restart\.json is cut short \(not whole JSON\), and its backup .*restart\.json\.bak is unreadable too; nothing was changed/,
      );
      expect(r.out).toMatch(new RegExp(`The newest checkpoint of a completed update is .*/history/${PROJECT}/restart/restart-\\d+\\.checkpoint\\.json`));
      expect(corruptCopies()).toEqual([]);
    } finally {
      fs.writeFileSync(file, saved.file);
      fs.writeFileSync(`${file}.bak`, saved.bak);
    }
  });

  test("the shipped up.sh restores the .bak through pagerduty-recover, says so, and the `up` converges", async () => {
    const file = stackFile();
    cutShort(file);
    expect(project.run(["stack", "export"]).stderr).toMatch(/failed to load checkpoint/);
    const summary = path.join(project.dir, "summary.md");
    const upSh = path.join(project.dir, "node_modules", "pulumi-pagerduty-dynamic", "examples", "gitops", "up.sh");
    const r = spawnSync("bash", [upSh], { cwd: project.dir, env: { ...project.env, PULUMI_STACK: "restart", GITHUB_STEP_SUMMARY: summary }, encoding: "utf8" });
    project.log += r.stdout + r.stderr;
    expect({ code: r.status, out: r.status ? r.stdout + r.stderr : "" }).toEqual({ code: 0, out: "" });
    expect(r.stdout).toMatch(/^::warning title=Checkpoint restored::restored the stack's checkpoint from its backup: .*restart\.json did not parse/m);
    expect(fs.readFileSync(summary, "utf8")).toMatch(/The stack's checkpoint was cut short by an interrupted run and restored from its backup first/);
    // The broken file is kept beside the restored one; the .bak is what the stack holds now.
    expect(corruptCopies()).toHaveLength(1);
    expect(fs.statSync(path.join(path.dirname(file), corruptCopies()[0])).size).toBeLessThan(fs.statSync(file).size);
    expect(stateOf(project).pending).toEqual([]);
    await expectConverged(project, emu, "restart", 4);
  });
});

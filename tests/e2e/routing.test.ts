// examples/routing as a user runs it: the program deployed with the real Pulumi CLI to the emulator,
// then the installed package's pagerduty-routing-test on the example's cases: all ten pass (exit 0,
// JUnit written). One rule of the program changed and deployed, the same cases fail (exit 1) with a
// trace naming the rule and the expression that no longer matches. Then the GitOps workflow's script
// (examples/gitops/routing-test.sh) does the same on a throwaway emulator and stack of its own, twice
// on one project, leaving its files and selected stack as they were, and says "not run" (exit 3, a
// JUnit report) when the program cannot deploy. Last, docs/testing-routing.md's blocks as written,
// from a new directory: the setup once, the run twice.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { docBlock, userShellEnv } from "./doc-blocks";
import { PulumiProject, ROOT, sdkVersion, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const EXAMPLE = path.join(ROOT, "examples/routing");
const program = fs.readFileSync(path.join(EXAMPLE, "index.ts"), "utf8");

const SCOPES = "services.read services.write custom_fields.read audit_records.read escalation_policies.read priorities.read";

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // The database team's escalation policy, which the program finds by name.
  expect((await emu.admin("POST", "/_emulator/escalation-policies", { account: emu.account.subdomain, name: "Database team" })).status).toBe(201);
  // The priority lookup needs priorities.read besides the default scopes, as docs/testing-routing.md says.
  project = PulumiProject.create("routing", program, emu, { "pagerduty:scopes": SCOPES }, { typecheck: true });
  fs.copyFileSync(path.join(EXAMPLE, "cases.yaml"), path.join(project.dir, "cases.yaml"));
  // The emulator's ready line, as `pagerduty-emulator > emulator.json` saves it.
  const { proc: _proc, api: _api, euApi: _euApi, admin: _admin, stop: _stop, ...readyLine } = emu;
  fs.writeFileSync(path.join(project.dir, "emulator.json"), `${JSON.stringify(readyLine)}\n`);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

/** The installed package's bin in the project, as `npx --no-install pagerduty-routing-test ...` runs it. */
function routingTest(junit: string) {
  const bin = path.join(project.dir, "node_modules/.bin/pagerduty-routing-test");
  const r = spawnSync(bin, ["--cases", "cases.yaml", "--emulator", "emulator.json", "--junit", junit], {
    cwd: project.dir,
    env: project.env,
    encoding: "utf8",
  });
  project.log += r.stdout + r.stderr;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, junit: fs.readFileSync(path.join(project.dir, junit), "utf8") };
}

test("deployed, the example's ten cases pass; one rule changed and deployed, the cases fail with the trace that says why", () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const key = JSON.parse(project.must(["stack", "output", "--json", "--show-secrets"]).stdout).monitoringKey;
  expect(key).toMatch(/^[0-9a-z]{32}$/i);

  const pass = routingTest("pass.xml");
  expect(pass.stderr).toMatch(/^pagerduty-routing-test: 10 cases against http:\/\/127\.0\.0\.1:\d+; events of 1 service reset$/m);
  expect(pass.stdout).toMatch(/^10 of 10 cases passed$/m);
  expect(pass.code).toBe(0);
  expect(pass.stdout).toMatch(/^1 +a critical database alert pages the DB team at high urgency +outcome=incident +incident_opened +pass$/m);
  expect(pass.junit).toMatch(/<testsuite name="cases\.yaml" tests="10" failures="0"/);

  // The health-check rule now looks for a word the summaries do not have.
  project.setProgram(program.replace("event.summary matches part 'health check'", "event.summary matches part 'healthcheck'"));
  project.must(["up", "--yes", "--skip-preview"]);
  const fail = routingTest("fail.xml");
  expect(fail.code).toBe(1);
  expect(fail.stdout).toMatch(/^3 +a failing health check is suppressed +outcome=suppressed +! incident_opened +FAIL$/m);
  expect(fail.stdout).toMatch(/^9 of 10 cases passed$/m);
  const trace = fail.stdout.slice(fail.stdout.indexOf("FAIL 3."));
  expect(trace).toMatch(/^FAIL 3\. a failing health check is suppressed\n {2}outcome: expected suppressed, got incident_opened\n/);
  expect(trace).toContain(
    '      rule 1 "Noisy health checks": not matched\n' +
      "        condition 1: false  event.summary matches part 'healthcheck'  (event.summary = \"Health check failed: GET /healthz on web-3\")\n" +
      "        condition 2: false  event.custom_details.check matches 'healthz'  (event.custom_details.check does not exist (nil))",
  );
  expect(trace).toContain('      rule 4 "Everything else": matched');
  expect(fail.junit).toMatch(/tests="10" failures="1"/);
  expect(fail.junit).toContain('<failure message="outcome: expected suppressed, got incident_opened" type="mismatch">');

  // The routing key is a secret: in no output of the command (nor in plaintext in the state: the harness's secret scan).
  expect(pass.stdout + pass.stderr + fail.stdout + fail.stderr + pass.junit + fail.junit).not.toContain(key);
});

/** Every file of `dir` but what tools keep there (installed packages, Pulumi's home and state, caches) and `except`, with a hash of its bytes. */
function filesOf(dir: string, except: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const skip = new Set(["node_modules", ".pulumi-home", ".pulumi-state", ".cache", ...except]);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (skip.has(path.relative(dir, p))) continue;
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** The GitOps script of the installed package, run in the project as the workflow runs it. */
function gitopsScript(env: NodeJS.ProcessEnv) {
  const { PULUMI_BACKEND_URL: _backend, PULUMI_CONFIG_PASSPHRASE: _passphrase, ...rest } = project.env;
  const r = spawnSync("bash", [path.join(project.dir, "node_modules/pulumi-pagerduty-dynamic/examples/gitops/routing-test.sh")], {
    cwd: project.dir,
    env: { ...rest, ...env },
    encoding: "utf8",
  });
  project.log += r.stdout + r.stderr;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("the pull-request workflow's script, twice on one project: its own emulator and throwaway stack, the job summary, an annotation per failing case; the project's files and selected stack as they were", () => {
  // What the repository commits beside the program: the test stack's settings and the seed of the objects the program looks up.
  const settings = `config:\n  pagerduty:scopes: ${SCOPES}\n`;
  fs.writeFileSync(path.join(project.dir, "Pulumi.routing-test.yaml"), settings);
  const seed = JSON.stringify({ escalationPolicies: [{ account: "acme", name: "Database team" }] });
  fs.writeFileSync(path.join(project.dir, "routing-seed.json"), seed);
  // pagerduty-emulator as the project's dev dependency (its bin), here the repository's build.
  fs.symlinkSync(path.join(ROOT, "emulator/dist/cli.js"), path.join(project.dir, "node_modules/.bin/pagerduty-emulator"));
  const summary = path.join(project.dir, "summary.md");
  const outputs = ["summary.md", "routing-test.xml"];
  const before = filesOf(project.dir, outputs);
  const selected = project.must(["stack", "--show-name"]).stdout.trim();
  expect(selected).toBe("dev");

  // The seed as a file's path, then as the JSON itself.
  for (const ROUTING_SEED of ["routing-seed.json", ` ${seed}`]) {
    fs.rmSync(summary, { force: true });
    const r = gitopsScript({ ROUTING_SEED, GITHUB_STEP_SUMMARY: summary });
    // The program still has the changed health-check rule: that case fails, the nine others pass.
    expect(r.stdout).toMatch(/^9 of 10 cases passed$/m);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error title=Routing case failed::3\. a failing health check is suppressed$/m);
    const text = fs.readFileSync(summary, "utf8");
    expect(text).toMatch(/^### Routing test of `cases\.yaml`: 1 case\(s\) failed$/m);
    expect(text).toContain("<summary>routing test</summary>");
    expect(text).toContain('      rule 1 "Noisy health checks": not matched');
    expect(fs.readFileSync(path.join(project.dir, "routing-test.xml"), "utf8")).toMatch(/tests="10" failures="1"/);
    // The project as it was: no file changed or added (Pulumi.routing-test.yaml holds no salt, URL or
    // secret of the throwaway stack), the same stack selected, and no stack made in its backend.
    expect(fs.readFileSync(path.join(project.dir, "Pulumi.routing-test.yaml"), "utf8")).toBe(settings);
    expect(filesOf(project.dir, outputs)).toEqual(before);
    expect(project.must(["stack", "--show-name"]).stdout.trim()).toBe(selected);
    expect(JSON.parse(project.must(["stack", "ls", "--json"]).stdout).map((st: { name: string }) => st.name)).toEqual(["dev"]);
  }
  // The throwaway emulators stopped with the script (each runs under npx, as the emulator's child).
  const emulators = () =>
    spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((l) => l.includes(path.join(project.dir, "node_modules/.bin/pagerduty-emulator")));
  // It may take a moment to shut down after its signal.
  for (let i = 0; i < 50 && emulators().length; i++) spawnSync("sleep", ["0.1"]);
  expect(emulators()).toEqual([]);
});

test("the script when the cases cannot run: a program that does not deploy, a seed that names no file: exit 3, the step in the summary, a JUnit report saying what could not run", () => {
  const summary = path.join(project.dir, "summary.md");
  const junit = () => fs.readFileSync(path.join(project.dir, "routing-test.xml"), "utf8");

  fs.rmSync(summary, { force: true });
  const noSeed = gitopsScript({ ROUTING_SEED: "seeds/missing.json", GITHUB_STEP_SUMMARY: summary });
  expect(noSeed.code).toBe(3);
  expect(noSeed.stdout).toMatch(/^::error title=Routing test not run::ROUTING_SEED names no file; see the job summary$/m);
  expect(fs.readFileSync(summary, "utf8")).toContain(
    `ROUTING_SEED is neither a seed document's path in the project nor JSON (a document starts with {): no file ${project.dir}/seeds/missing.json`,
  );
  expect(junit()).toMatch(/tests="1" failures="1"/);

  project.setProgram(`${program}\nthrow new Error("this program cannot be deployed");\n`);
  fs.rmSync(summary, { force: true });
  const r = gitopsScript({ ROUTING_SEED: "routing-seed.json", GITHUB_STEP_SUMMARY: summary });
  expect(r.code).toBe(3);
  expect(r.stdout).toMatch(/^::error title=Routing test not run::the program could not be deployed to the emulator; see the job summary$/m);
  const text = fs.readFileSync(summary, "utf8");
  expect(text).toMatch(/^### Routing test of `cases\.yaml`: not run, the program could not be deployed to the emulator$/m);
  expect(text).toContain("this program cannot be deployed");
  // One failing test case: CI shows a report that says what could not run, not an empty one.
  expect(junit()).toMatch(/<testsuite name="cases\.yaml" tests="1" failures="1"/);
  expect(junit()).toContain('<testcase name="the routing test could not run" classname="cases.yaml">');
  expect(junit()).toContain('<failure message="the program could not be deployed to the emulator" type="mismatch">');
  expect(junit()).toContain("this program cannot be deployed");
  project.setProgram(program);
});

describe("docs/testing-routing.md as written, from a new directory", () => {
  const INSTALL = "npm install $packages @pulumi/pulumi";
  let work: string;
  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("the setup block once, then the run block twice: every case passes both times; the project's files and selected stack as they were", () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-routing-docs-"));
    const setup = docBlock("docs/testing-routing.md", "routing-setup").split("\n");
    // The one change, in the support matrix's runs only: `@pulumi/pulumi` pinned to the run's SDK.
    expect(setup.filter((l) => l === INSTALL)).toHaveLength(1);
    const setupScript = setup.map((l) => (l === INSTALL ? `npm install $packages @pulumi/pulumi@${sdkVersion()}` : l)).join("\n");
    const run = docBlock("docs/testing-routing.md", "routing-run");
    // A user's shell: a home of its own, the shared npm cache (doc-blocks.ts).
    const env = userShellEnv(path.join(work, "home"));
    const bash = (script: string, cwd: string, extra: NodeJS.ProcessEnv = {}) => {
      const r = spawnSync("bash", ["-euo", "pipefail", "-c", script], { cwd, env: { ...env, ...extra }, encoding: "utf8", maxBuffer: 64 << 20 });
      project.log += r.stdout + r.stderr;
      return { code: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
    };
    // From the clone's root, as the page says; the project's directory is in the shell's home.
    const made = bash(setupScript, ROOT);
    if (made.code !== 0) throw new Error(`the setup block failed (exit ${made.code}):\n${made.out}`);
    const dir = path.join(env.HOME!, "pagerduty-routing");
    const own = { PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`, PULUMI_CONFIG_PASSPHRASE: "the user's own" };
    fs.mkdirSync(path.join(work, "state"));
    expect(bash("pulumi stack init --non-interactive dev", dir, own).code).toBe(0);
    const selected = () => bash("pulumi stack --show-name --non-interactive", dir, own).stdout.trim();
    expect(selected()).toBe("dev");
    const before = filesOf(dir, ["routing-test.xml"]);

    for (const round of [1, 2]) {
      const r = bash(run, dir);
      if (r.code !== 0) throw new Error(`the run block failed on run ${round} (exit ${r.code}):\n${r.out}`);
      expect(r.stdout).toMatch(/^10 of 10 cases passed$/m);
      expect(r.stdout).toMatch(/^1 +a critical database alert pages the DB team at high urgency +outcome=incident +incident_opened +pass$/m);
      expect(fs.readFileSync(path.join(dir, "routing-test.xml"), "utf8")).toMatch(/<testsuite name="cases\.yaml" tests="10" failures="0"/);
      expect(filesOf(dir, ["routing-test.xml"])).toEqual(before);
      expect(selected()).toBe("dev");
    }
  });
});

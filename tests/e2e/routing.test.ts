// examples/routing as a user runs it: the program deployed with the real Pulumi CLI to the emulator,
// then the installed package's pagerduty-routing-test on the example's cases: all ten pass (exit 0,
// JUnit written). One rule of the program changed and deployed, the same cases fail (exit 1) with a
// trace naming the rule and the expression that no longer matches. Then the GitOps workflow's script
// (examples/gitops/routing-test.sh) does the same on a throwaway emulator and stack of its own.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiProject, ROOT, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(10 * 60_000);

const EXAMPLE = path.join(ROOT, "examples/routing");
const program = fs.readFileSync(path.join(EXAMPLE, "index.ts"), "utf8");

const SCOPES = "services.read services.write custom_fields.read audit_records.read escalation_policies.read priorities.read";

let emu: RunningEmulator;
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
      "        false  event.summary matches part 'healthcheck'\n" +
      "        false  event.custom_details.check matches 'healthz'",
  );
  expect(trace).toContain('      rule 4 "Everything else": matched');
  expect(fail.junit).toMatch(/tests="10" failures="1"/);
  expect(fail.junit).toContain('<failure message="outcome: expected suppressed, got incident_opened" type="mismatch">');

  // The routing key is a secret: in no output of the command (nor in plaintext in the state: the harness's secret scan).
  expect(pass.stdout + pass.stderr + fail.stdout + fail.stderr + pass.junit + fail.junit).not.toContain(key);
});

test("the pull-request workflow's script: its own emulator and throwaway stack, the cases, the job summary and an annotation per failing case", () => {
  // What the repository commits beside the program: the test stack's settings and the seed of the objects the program looks up.
  fs.writeFileSync(path.join(project.dir, "Pulumi.routing-test.yaml"), `config:\n  pagerduty:scopes: ${SCOPES}\n`);
  fs.writeFileSync(path.join(project.dir, "routing-seed.json"), JSON.stringify({ escalationPolicies: [{ account: "acme", name: "Database team" }] }));
  // pagerduty-emulator as the project's dev dependency (its bin), here the repository's build.
  fs.symlinkSync(path.join(ROOT, "emulator/dist/cli.js"), path.join(project.dir, "node_modules/.bin/pagerduty-emulator"));
  const summary = path.join(project.dir, "summary.md");
  const { PULUMI_BACKEND_URL: _backend, PULUMI_CONFIG_PASSPHRASE: _passphrase, ...env } = project.env;
  const r = spawnSync("bash", [path.join(project.dir, "node_modules/pulumi-pagerduty-dynamic/examples/gitops/routing-test.sh")], {
    cwd: project.dir,
    env: { ...env, ROUTING_SEED: "routing-seed.json", GITHUB_STEP_SUMMARY: summary },
    encoding: "utf8",
  });
  project.log += r.stdout + r.stderr;
  // The program still has the changed health-check rule: that case fails, the nine others pass.
  expect(r.stdout).toMatch(/^9 of 10 cases passed$/m);
  expect(r.status).toBe(1);
  expect(r.stdout).toMatch(/^::error title=Routing case failed::3\. a failing health check is suppressed$/m);
  const text = fs.readFileSync(summary, "utf8");
  expect(text).toMatch(/^### Routing test of `cases\.yaml`: 1 case\(s\) failed$/m);
  expect(text).toContain('      rule 1 "Noisy health checks": not matched');
  expect(fs.readFileSync(path.join(project.dir, "routing-test.xml"), "utf8")).toMatch(/tests="10" failures="1"/);
  // The throwaway emulator stopped with the script (it runs under npx, as the emulator's child).
  const emulators = () =>
    spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((l) => l.includes(path.join(project.dir, "node_modules/.bin/pagerduty-emulator")));
  // It may take a moment to shut down after its signal.
  for (let i = 0; i < 50 && emulators().length; i++) spawnSync("sleep", ["0.1"]);
  expect(emulators()).toEqual([]);
  // The throwaway emulator's client secret went into the stack config as a secret, through stdin.
  expect(fs.readFileSync(path.join(project.dir, "Pulumi.routing-test.yaml"), "utf8")).toMatch(/pagerduty:clientSecret:\n\s+secure: /);
});

// examples/routing as a user runs it: the program deployed with the real Pulumi CLI to the emulator,
// then the installed package's pagerduty-routing-test on the example's cases: all ten pass (exit 0,
// JUnit written). One rule of the program changed and deployed, the same cases fail (exit 1) with a
// trace naming the rule and the expression that no longer matches.
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

/** The installed package's bin in the project, as `npx pagerduty-routing-test ...` runs it. */
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

  // The routing key is a secret: in no output of the command, never in plaintext in the state.
  expect(pass.stdout + pass.stderr + fail.stdout + fail.stderr + pass.junit + fail.junit).not.toContain(key);
  expect(project.stateText()).not.toContain(key);
});

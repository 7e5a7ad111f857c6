// Drift checks that use the current credentials and fail loudly when they are wrong, the opt-in
// report of unmanaged fields, and what of the configuration reaches state. Real CLI, emulator process.
import { DRIFT } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { expectOnceWithoutTrace, serviceIdOf } from "./stack";

jest.setTimeout(15 * 60_000);

// The rule leaves `disabled` unset: not managed.
const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const svc = new pagerduty.Service("svc", { name: "Drift", escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
new pagerduty.ServiceEventRule("rule", { service: svc.id, actions: { severity: { value: "warning" } } });
`;

let emu: EmulatorProcess;
let project: PulumiProject;
const others: PulumiProject[] = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("drift", program, emu);
  project.must(["up", "--yes", "--skip-preview"]);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
  for (const p of others) p.remove();
});

const out = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
const setSecret = (p: PulumiProject, key: string, value: string) => p.must(["config", "set", "--secret", key], 0, value);

test("the drift check is clean right after up", () => {
  expect(project.run(DRIFT).code).toBe(0);
});

test("a wrong client secret fails the drift check, a preview and an up, naming pagerduty:clientSecret once, without a stack trace", () => {
  const wrong = "wrong-secret-0123456789";
  setSecret(project, "pagerduty:clientSecret", wrong);
  try {
    const [preview, up] = [["preview"], ["up", "--yes", "--skip-preview"]];
    for (const args of [DRIFT, preview, ["preview", "--refresh", "--run-program", "--expect-no-changes"], up]) {
      const r = project.run(args);
      expect(r.code).not.toBe(0);
      expect(out(r)).toMatch(/PagerDuty refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);
      expect(out(r)).toMatch(/401 invalid_client/);
      expect(out(r)).toMatch(/error: /);
      // What a user meets first: the message once, without the provider's stack trace.
      if (args === preview || args === up) expectOnceWithoutTrace(r, '"pagerduty:clientSecret"', "client_secret is wrong");
    }
  } finally {
    setSecret(project, "pagerduty:clientSecret", emu.oauth.clientSecret);
  }
  expect(project.run(DRIFT).code).toBe(0);
});

test("after the app's credentials are rotated, the drift check passes with the new config", async () => {
  // The Scoped app loses its OAuth client and gets a new id and secret: the old ones stop working.
  expect((await emu.admin("DELETE", `/_emulator/apps/${emu.oauth.clientId}/oauth`)).status).toBe(204);
  const creds = (await emu.admin<{ clientId: string; clientSecret: string }>("POST", `/_emulator/apps/${emu.oauth.clientId}/oauth`)).body;
  expect(creds.clientId).toBeTruthy();
  expect(creds.clientId).not.toBe(emu.oauth.clientId);

  // Without --run-program the engine replays the settings of the last `up`: a clear error naming the fix.
  const stale = project.run(["refresh", "--preview-only", "--expect-no-changes"]);
  expect(stale.code).not.toBe(0);
  expect(out(stale)).toMatch(/refused the credentials in "pagerduty:clientId".*run refresh and destroy with --run-program/s);

  project.must(["config", "set", "--", "pagerduty:clientId", creds.clientId]);
  setSecret(project, "pagerduty:clientSecret", creds.clientSecret);
  project.must(DRIFT);
  project.must(["preview", "--refresh", "--run-program", "--expect-no-changes"]);
  // `up` stores the new settings; from then on plain refresh uses them too.
  project.must(["up", "--yes", "--skip-preview"]);
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
});

test("a preview with no credentials at all fails with a clear message instead of passing", () => {
  const bare = PulumiProject.create("nocreds", program, emu, {}, { auth: "none" });
  others.push(bare);
  const r = bare.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(out(r)).toMatch(/no PagerDuty credentials: set "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);
});

test("a rule disabled by hand: clean by default (not managed), drift naming the field with pagerduty:driftAllFields", async () => {
  const service = serviceIdOf(project, "svc");
  const rules = (await emu.api<{ rules: any[] }>("GET", `/services/${service}/rules`)).body.rules;
  expect(rules).toHaveLength(1);
  expect((await emu.api("PUT", `/services/${service}/rules/${rules[0].id}`, { rule_id: rules[0].id, rule: { disabled: true } })).status).toBe(200);

  expect(project.run(DRIFT).code).toBe(0);

  project.must(["config", "set", "pagerduty:driftAllFields", "true"]);
  try {
    const r = project.run([...DRIFT, "--diff"]);
    expect(r.code).toBe(7);
    expect(out(r)).toMatch(/disabled\s*:\s*false\s*=>\s*true/);
    project.must(["config", "rm", "pagerduty:driftAllFields"]);
    expect(project.run(DRIFT).code).toBe(0);
    // The same opt-in through the environment (e.g. only in the nightly job): a preview accepted nothing.
    project.env.PAGERDUTY_DRIFT_ALL_FIELDS = "true";
    expect(project.run(DRIFT).code).toBe(7);
  } finally {
    delete project.env.PAGERDUTY_DRIFT_ALL_FIELDS;
    project.run(["config", "rm", "pagerduty:driftAllFields"]);
  }
  // A real refresh accepts the live value into state; the check is clean again, opt-in or not.
  project.must(["refresh", "--yes", "--skip-preview", "--run-program"]);
  project.env.PAGERDUTY_DRIFT_ALL_FIELDS = "true";
  try {
    expect(project.run(DRIFT).code).toBe(0);
  } finally {
    delete project.env.PAGERDUTY_DRIFT_ALL_FIELDS;
  }
});

test("state holds the stack config with secrets encrypted, never a plaintext secret or token", () => {
  const resources = project.resources();
  const provider = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
  // What the engine stores: the stack config as the default provider's inputs, the secret as ciphertext.
  expect(provider?.inputs?.["pagerduty:subdomain"]).toBe(emu.account.subdomain);
  expect(provider?.inputs?.["pagerduty:clientId"]).toBeTruthy();
  expect(provider?.inputs?.["pagerduty:clientSecret"]).toMatchObject({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: expect.any(String),
  });
  // Plaintext secrets and tokens in the state or the output: the harness's secret scan.
});

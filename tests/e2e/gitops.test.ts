// examples/gitops: the workflows pass actionlint, and their shell steps (the scripts they call, with
// the environment they give them) run against the emulator in a clone of the repository, the
// project the workflows deploy. Setup steps (`npm install`, `npm run build`) are the clone's.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT, startEmulatorProcess, type RunningEmulator } from "./harness";
import { RootClone } from "./root-clone";

jest.setTimeout(15 * 60_000);

const WORKFLOWS = path.join(ROOT, "examples/gitops/workflows");
/** Where scripts/test.sh installs it (the cache of scripts/setup-pulumi.sh). */
const CACHE = process.env.PULUMI_PAGERDUTY_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-pagerduty-dynamic");
const ACTIONLINT = path.join(CACHE, "tools/actionlint");
const SETUP = ["npm install --no-audit --no-fund --no-save", "npm run build"];

interface Step {
  run: string;
  env: Record<string, string>;
}

/** The `run` steps of a workflow with their step-level `env` keys (each `run` is one line, by design). */
function runSteps(file: string): { env: string[]; steps: Step[] } {
  const lines = fs.readFileSync(path.join(WORKFLOWS, file), "utf8").split("\n");
  const steps: Step[] = [];
  const env: string[] = [];
  let scope: "workflow" | "step" | undefined;
  for (const line of lines) {
    if (/^env:\s*$/.test(line)) scope = "workflow";
    else if (/^ {8}env:\s*$/.test(line)) scope = "step";
    else if (/^\S/.test(line) || /^ {6}- /.test(line) || /^ {8}run:/.test(line)) scope = undefined;
    const run = /^ {6}- run: (.+)$|^ {8}run: (.+)$/.exec(line);
    if (run) steps.push({ run: (run[1] ?? run[2])!, env: {} });
    const kv = /^\s+([A-Z][A-Z0-9_]+):/.exec(line);
    if (kv && scope === "workflow") env.push(kv[1]!);
    if (kv && scope === "step") steps[steps.length - 1]!.env[kv[1]!] = line.trim();
  }
  return { env, steps };
}

let emu: RunningEmulator;
let clone: RootClone;
let summaryFile: string;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  clone = new RootClone("gitops");
  summaryFile = path.join(clone.home, "step-summary.md");
  // What the repository commits: the stack and its non-secret settings (Pulumi.dev.yaml).
  clone.must(["stack", "init", "dev"]);
  const { "pagerduty:clientId": _id, ...committed } = clone.configFor(emu);
  for (const [k, v] of Object.entries(committed)) clone.must(["config", "set", "--", k, v]);
});

afterAll(async () => {
  await emu?.stop();
  clone?.remove();
});

/** Runs the workflow's steps after setup in the clone, as the runner would; stops at the first failure. */
function runWorkflow(file: string, secrets: { clientId?: string; clientSecret?: string }, vars: Record<string, string> = {}) {
  const { env: declared, steps } = runSteps(file);
  fs.writeFileSync(summaryFile, "");
  // The values the repository's variables and secrets give the workflow's `env`.
  const values: Record<string, string> = {
    PULUMI_STACK: "dev",
    PULUMI_BACKEND_URL: clone.env.PULUMI_BACKEND_URL!,
    PULUMI_CONFIG_PASSPHRASE: clone.env.PULUMI_CONFIG_PASSPHRASE!,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PAGERDUTY_DRIFT_ALL_FIELDS: vars.PAGERDUTY_DRIFT_ALL_FIELDS ?? "false",
  };
  const workflowEnv = { ...Object.fromEntries(declared.map((k) => [k, values[k] ?? ""])), GITHUB_STEP_SUMMARY: summaryFile };
  const stepEnv = { PAGERDUTY_CLIENT_ID: secrets.clientId ?? "", PAGERDUTY_CLIENT_SECRET: secrets.clientSecret ?? "" };
  let stdout = "";
  let code = 0;
  for (const step of steps.filter((s) => !SETUP.includes(s.run))) {
    const env = { ...clone.env, ...workflowEnv, ...Object.fromEntries(Object.keys(step.env).map((k) => [k, stepEnv[k as keyof typeof stepEnv] ?? ""])) };
    const r = spawnSync("bash", ["-c", step.run], { cwd: clone.dir, env, encoding: "utf8", maxBuffer: 64 << 20 });
    stdout += r.stdout + r.stderr;
    code = r.status ?? -1;
    if (code !== 0) break;
  }
  clone.log += stdout;
  return { code, stdout, summary: fs.readFileSync(summaryFile, "utf8") };
}

const creds = () => ({ clientId: emu.oauth.clientId, clientSecret: emu.oauth.clientSecret });
const serviceByName = async (name: string) =>
  (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services.find((s) => s.name === name);

test("actionlint accepts the workflows", () => {
  if (!fs.existsSync(ACTIONLINT)) throw new Error(`${ACTIONLINT} is missing: scripts/test.sh installs it (go install github.com/rhysd/actionlint/cmd/actionlint)`);
  const files = fs.readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));
  expect(files.sort()).toEqual(["pulumi-drift.yml", "pulumi-preview.yml", "pulumi-up.yml"]);
  const r = spawnSync(ACTIONLINT, ["-no-color", ...files.map((f) => path.join(WORKFLOWS, f))], { encoding: "utf8" });
  expect(r.stdout + r.stderr).toBe("");
  expect(r.status).toBe(0);
  // A broken workflow is caught (the check is real).
  const broken = path.join(os.tmpdir(), `ppd-actionlint-${process.pid}.yml`);
  fs.writeFileSync(broken, fs.readFileSync(path.join(WORKFLOWS, files[0]!), "utf8").replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: soon"));
  try {
    expect(spawnSync(ACTIONLINT, ["-no-color", broken]).status).not.toBe(0);
  } finally {
    fs.rmSync(broken);
  }
});

test("each workflow: setup, then the credentials from secrets, then its one command; secrets only where needed", () => {
  for (const [file, command] of [["pulumi-preview.yml", "preview"], ["pulumi-up.yml", "up"], ["pulumi-drift.yml", "drift"]] as const) {
    const { env, steps } = runSteps(file);
    expect(steps.map((s) => s.run)).toEqual([...SETUP, "bash examples/gitops/configure-stack.sh", `bash examples/gitops/${command}.sh`]);
    expect(Object.keys(steps[2]!.env)).toEqual(["PAGERDUTY_CLIENT_ID", "PAGERDUTY_CLIENT_SECRET"]);
    expect(steps[2]!.env.PAGERDUTY_CLIENT_SECRET).toBe("PAGERDUTY_CLIENT_SECRET: ${{ secrets.PAGERDUTY_CLIENT_SECRET }}");
    expect(Object.keys(steps[3]!.env)).toEqual([]);
    expect(env).toEqual(expect.arrayContaining(["PULUMI_STACK", "PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE"]));
  }
});

test("pull request without secrets (a fork): the preview workflow fails, saying why", () => {
  const r = runWorkflow("pulumi-preview.yml", {});
  expect(r.code).not.toBe(0);
  expect(r.stdout).toMatch(/::error title=No PagerDuty credentials::PAGERDUTY_CLIENT_SECRET \(or PAGERDUTY_TOKEN\) is empty/);
});

test("pull request: the preview workflow shows the planned changes in the job summary", () => {
  const r = runWorkflow("pulumi-preview.yml", creds());
  expect(r.code).toBe(0);
  expect(r.summary).toMatch(/### Pulumi preview of `dev`: succeeded/);
  expect(r.summary).toMatch(/\+ pulumi-nodejs:dynamic\/pagerduty:Service: \(create\)/);
  expect(r.summary).toMatch(/name\s*: "Checkout API"/);
});

test("pull request with a wrong secret: the preview workflow fails, naming pagerduty:clientSecret", () => {
  const r = runWorkflow("pulumi-preview.yml", { ...creds(), clientSecret: "wrong-secret-for-gitops" });
  expect(r.code).not.toBe(0);
  expect(r.summary).toMatch(/### Pulumi preview of `dev`: failed \(exit \d+\)/);
  expect(r.summary).toMatch(/refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);
  expect(r.stdout + r.summary).not.toContain("wrong-secret-for-gitops");
});

test("main: the up workflow deploys; the drift workflow is clean, then reports drift naming the fields, then an error", async () => {
  const up = runWorkflow("pulumi-up.yml", creds());
  expect(up.code).toBe(0);
  expect(up.summary).toMatch(/### Pulumi up of `dev`: succeeded/);
  expect(await serviceByName("Checkout API")).toBeTruthy();

  const clean = runWorkflow("pulumi-drift.yml", creds());
  expect(clean.code).toBe(0);
  expect(clean.stdout).toMatch(/^no drift$/m);
  expect(clean.summary).toMatch(/### Drift check of `dev`: no drift/);

  // Out of band: a managed field of one service, a field the program leaves unset on the other.
  const checkout = await serviceByName("Checkout API");
  const search = await serviceByName("Search");
  expect((await emu.api("PUT", `/services/${checkout.id}`, { service: { description: "edited by hand" } })).status).toBe(200);
  expect((await emu.api("PUT", `/services/${search.id}`, { service: { acknowledgement_timeout: 900 } })).status).toBe(200);

  const drift = runWorkflow("pulumi-drift.yml", creds());
  expect(drift.code).toBe(7);
  expect(drift.stdout).toMatch(/^drift: checkout \(pagerduty:Service\): description$/m);
  expect(drift.stdout).not.toMatch(/drift: search/);
  expect(drift.stdout).toMatch(/::error title=Drift::checkout \(pagerduty:Service\): description/);
  expect(drift.summary).toMatch(/### Drift check of `dev`: drift/);
  expect(drift.summary).toMatch(/^- checkout \(pagerduty:Service\): description$/m);

  // The repository variable PAGERDUTY_DRIFT_ALL_FIELDS=true also reports fields the program leaves unset.
  const all = runWorkflow("pulumi-drift.yml", creds(), { PAGERDUTY_DRIFT_ALL_FIELDS: "true" });
  expect(all.code).toBe(7);
  expect(all.stdout).toMatch(/^drift: search \(pagerduty:Service\): acknowledgementTimeout$/m);

  const wrong = runWorkflow("pulumi-drift.yml", { ...creds(), clientSecret: "wrong-secret-for-gitops" });
  expect(wrong.code).not.toBe(0);
  expect(wrong.code).not.toBe(7);
  expect(wrong.stdout).toMatch(/error: the drift check failed \(exit \d+\), nothing was compared/);
  expect(wrong.summary).toMatch(/### Drift check of `dev`: error \(exit \d+\)/);
  expect(wrong.summary).toMatch(/refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);

  for (const secret of [emu.oauth.clientSecret, "wrong-secret-for-gitops"]) expect(clone.log + clone.stateText()).not.toContain(secret);
  expect(fs.readFileSync(path.join(clone.dir, "Pulumi.dev.yaml"), "utf8")).not.toContain(emu.oauth.clientSecret);
});

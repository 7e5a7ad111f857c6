// examples/gitops: the workflows pass actionlint, and their steps (the scripts of the installed
// package they call, with the environment they give them) run against the emulator as a fresh
// runner would, in a user's infrastructure repository: the Pulumi project in a folder named by the
// repository variable PULUMI_PROJECT_DIR, the package installed as from the registry.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot } from "../../provider/fs/durable-file";
import { ROOT, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { knowSecret } from "./secret-scan";
import { INSTALL, runSteps, UserRepo, WORKFLOWS } from "./user-repo";

jest.setTimeout(15 * 60_000);

/** Where scripts/test.sh installs it (the cache of scripts/setup-pulumi.sh). */
const CACHE = cacheRoot();
const ACTIONLINT = path.join(CACHE, "tools/actionlint");
const LOCATE = `echo "PAGERDUTY_GITOPS=$(node -p 'require("path").dirname(require.resolve("pulumi-pagerduty-dynamic/package.json"))')/examples/gitops" >> "$GITHUB_ENV"`;

let emu: EmulatorProcess;
let repo: UserRepo;
/** Given to the workflows as a repository secret (not through `pulumi config`): the harness scans for it too. */
const WRONG_SECRET = "wrong-secret-for-gitops";
knowSecret(WRONG_SECRET, "the wrong client secret given to the workflows");

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // What the repository commits: the program and the stack's non-secret settings (Pulumi.dev.yaml).
  repo = new UserRepo("gitops", "infra", fs.readFileSync(path.join(ROOT, "examples/quickstart/index.ts"), "utf8"), emu);
  repo.project.must(["config", "rm", "pagerduty:clientSecret"]);
});

afterAll(async () => {
  await emu?.stop();
  repo?.remove();
});

/** Runs a workflow in the repository with the project in `infra/` (the repository variable says so). */
function runWorkflow(file: string, secrets: { clientId?: string; clientSecret?: string }, vars: Record<string, string> = {}) {
  return repo.runWorkflow(file, {
    secrets: { PAGERDUTY_CLIENT_ID: secrets.clientId ?? "", PAGERDUTY_CLIENT_SECRET: secrets.clientSecret ?? "" },
    vars: { PULUMI_PROJECT_DIR: "infra", ...vars },
  });
}

const creds = () => ({ clientId: emu.oauth.clientId, clientSecret: emu.oauth.clientSecret });
const serviceByName = async (name: string) => (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services.find((s) => s.name === name);

test("actionlint accepts the workflows", () => {
  if (!fs.existsSync(ACTIONLINT))
    throw new Error(`${ACTIONLINT} is missing: scripts/test.sh installs it (go install github.com/rhysd/actionlint/cmd/actionlint)`);
  const files = fs.readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));
  expect(files.sort()).toEqual(["pulumi-drift.yml", "pulumi-preview.yml", "pulumi-routing-replay.yml", "pulumi-routing-test.yml", "pulumi-up.yml"]);
  const r = spawnSync(ACTIONLINT, ["-no-color", ...files.map((f) => path.join(WORKFLOWS, f))], { encoding: "utf8" });
  expect(r.stdout + r.stderr).toBe("");
  expect(r.status).toBe(0);
  // A broken workflow is caught (the check is real).
  const broken = path.join(os.tmpdir(), `ppd-actionlint-${process.pid}.yml`);
  fs.writeFileSync(
    broken,
    fs.readFileSync(path.join(WORKFLOWS, files[0]!), "utf8").replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: soon"),
  );
  try {
    expect(spawnSync(ACTIONLINT, ["-no-color", broken]).status).not.toBe(0);
  } finally {
    fs.rmSync(broken);
  }
});

test("each workflow: install, then the credentials from secrets, then its one command of the installed package; secrets only where needed", () => {
  for (const [file, command] of [
    ["pulumi-preview.yml", "preview"],
    ["pulumi-up.yml", "up"],
    ["pulumi-drift.yml", "drift"],
  ] as const) {
    const { env, steps, workingDirectory } = runSteps(file);
    expect(workingDirectory).toBe("${{ vars.PULUMI_PROJECT_DIR || '.' }}");
    expect(steps.map((s) => s.run)).toEqual([INSTALL, LOCATE, 'bash "$PAGERDUTY_GITOPS/configure-stack.sh"', `bash "$PAGERDUTY_GITOPS/${command}.sh"`]);
    expect(Object.keys(steps[2]!.env)).toEqual(["PAGERDUTY_CLIENT_ID", "PAGERDUTY_CLIENT_SECRET"]);
    expect(steps[2]!.env.PAGERDUTY_CLIENT_SECRET).toBe("PAGERDUTY_CLIENT_SECRET: ${{ secrets.PAGERDUTY_CLIENT_SECRET }}");
    expect(Object.keys(steps[3]!.env)).toEqual([]);
    // The scripts come from the installed package: nothing of this repository is needed.
    expect(steps.some((s) => /npm run build|examples\/gitops/.test(s.run) && !s.run.includes("PAGERDUTY_GITOPS"))).toBe(false);
    expect(env).toEqual(expect.arrayContaining(["PULUMI_STACK", "PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE"]));
  }
});

test("the routing test workflow: install, then the installed package's routing-test.sh; no secret anywhere, its JUnit kept as an artifact", () => {
  // Its steps run in tests/e2e/routing.test.ts (the script against the routing example).
  const { env, steps, workingDirectory } = runSteps("pulumi-routing-test.yml");
  expect(workingDirectory).toBe("${{ vars.PULUMI_PROJECT_DIR || '.' }}");
  expect(steps.map((s) => s.run)).toEqual([INSTALL, LOCATE, 'bash "$PAGERDUTY_GITOPS/routing-test.sh"']);
  expect(steps.map((s) => Object.keys(s.env))).toEqual([[], [], []]);
  expect(env).toEqual(["ROUTING_CASES", "ROUTING_SEED", "ROUTING_JUNIT", "PULUMI_SKIP_UPDATE_CHECK"]);
  const text = fs.readFileSync(path.join(WORKFLOWS, "pulumi-routing-test.yml"), "utf8");
  expect(text).not.toContain("secrets.");
  expect(text).toMatch(
    /uses: actions\/upload-artifact@v\d+\n\s+with:\n\s+name: routing-test-results\n\s+path: \$\{\{ vars\.PULUMI_PROJECT_DIR \|\| '\.' \}\}\/routing-test\.xml/,
  );
});

test("the routing replay workflow: both checkouts installed, then the installed package's routing-replay.sh; no secret anywhere, its JUnit kept", () => {
  // Its script runs in tests/e2e/routing-replay.test.ts (the routing example as base, a changed rule as head).
  const { env, steps, workingDirectory } = runSteps("pulumi-routing-replay.yml");
  expect(workingDirectory).toBe("head/${{ vars.PULUMI_PROJECT_DIR || '.' }}");
  expect(steps.map((s) => s.run)).toEqual([INSTALL, `${INSTALL} --prefix "$ROUTING_BASE_DIR"`, LOCATE, 'bash "$PAGERDUTY_GITOPS/routing-replay.sh"']);
  expect(env).toEqual(["ROUTING_CASES", "ROUTING_SEED", "ROUTING_REPLAY_CONFIG", "ROUTING_REPLAY_JUNIT", "ROUTING_BASE_DIR", "PULUMI_SKIP_UPDATE_CHECK"]);
  const text = fs.readFileSync(path.join(WORKFLOWS, "pulumi-routing-replay.yml"), "utf8");
  expect(text).not.toContain("secrets.");
  // The base is the pull request's base commit, checked out beside the head.
  expect(text).toMatch(/ref: \$\{\{ github\.event\.pull_request\.base\.sha \}\}\n\s+path: base\n/);
  expect(text).toMatch(/name: routing-replay-results\n\s+path: head\/\$\{\{ vars\.PULUMI_PROJECT_DIR \|\| '\.' \}\}\/routing-replay\.xml/);
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
  const r = runWorkflow("pulumi-preview.yml", { ...creds(), clientSecret: WRONG_SECRET });
  expect(r.code).not.toBe(0);
  expect(r.summary).toMatch(/### Pulumi preview of `dev`: failed \(exit \d+\)/);
  expect(r.summary).toMatch(/refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);
  expect(r.stdout + r.summary).not.toContain(WRONG_SECRET);
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

  // Putting the drift back, as the summary says: `pulumi up --refresh --run-program`; the check is clean again.
  expect(drift.summary).toMatch(/To put the declared values back: `pulumi up --refresh --run-program`/);
  repo.project.must(["up", "--yes", "--refresh", "--run-program", "--stack", "dev"]);
  expect((await serviceByName("Checkout API")).description).toBe("Takes orders and payments");
  expect(runWorkflow("pulumi-drift.yml", creds()).code).toBe(0);

  const wrong = runWorkflow("pulumi-drift.yml", { ...creds(), clientSecret: WRONG_SECRET });
  expect(wrong.code).not.toBe(0);
  expect(wrong.code).not.toBe(7);
  expect(wrong.stdout).toMatch(/error: the drift check failed \(exit \d+\), nothing was compared/);
  expect(wrong.summary).toMatch(/### Drift check of `dev`: error \(exit \d+\)/);
  expect(wrong.summary).toMatch(/refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/);

  // The state and pulumi's output: the harness's secret scan.
  expect(fs.readFileSync(path.join(repo.project.dir, "Pulumi.dev.yaml"), "utf8")).not.toContain(emu.oauth.clientSecret);
});

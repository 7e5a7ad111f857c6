// pagerduty-routing-test replay as a pull request's pipeline runs it: examples/routing as the base
// branch's program and the same program with the health-check rule changed as the head's, each a
// project of its own, the packed package's bin, the real Pulumi CLI and one emulator. The diff names
// the one case whose outcome changed (exit 1) with both traces; with the case file edited to expect
// the new outcome, exit 0. JUnit and the job summary are written, and neither project gains a file
// or changes its selected stack (the throwaway stacks live in temporary directories of their own).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PulumiProject, ROOT, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const EXAMPLE = path.join(ROOT, "examples/routing");
const program = fs.readFileSync(path.join(EXAMPLE, "index.ts"), "utf8");
const HEALTH = "event.summary matches part 'health check'";
const SCOPES = "services.read services.write custom_fields.read audit_records.read escalation_policies.read priorities.read";

let emu: EmulatorProcess;
let base: PulumiProject;
let head: PulumiProject;
let work: string;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  expect((await emu.admin("POST", "/_emulator/escalation-policies", { account: emu.account.subdomain, name: "Database team" })).status).toBe(201);
  expect(program).toContain(HEALTH);
  base = PulumiProject.create("routing", program, emu, { "pagerduty:scopes": SCOPES }, { typecheck: true });
  head = PulumiProject.create(
    "routing",
    program.replace(HEALTH, "event.summary matches part 'healthcheck'"),
    emu,
    { "pagerduty:scopes": SCOPES },
    { typecheck: true },
  );
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-replay-"));
  fs.copyFileSync(path.join(EXAMPLE, "cases.yaml"), path.join(work, "cases.yaml"));
  const { proc: _proc, api: _api, euApi: _euApi, admin: _admin, stop: _stop, ...readyLine } = emu;
  fs.writeFileSync(path.join(work, "emulator.json"), `${JSON.stringify(readyLine)}\n`);
});

afterAll(async () => {
  await emu?.stop();
  base?.remove();
  head?.remove();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Every file of a project and its content's hash, its dependencies and the provider's code cache aside. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      // Pulumi 3.276 writes a log of every command it runs into PULUMI_HOME/logs: its own, not the project's.
      if (rel === "node_modules" || rel === ".cache" || rel === path.join(".pulumi-home", "logs")) continue;
      if (e.isDirectory()) walk(p);
      else files[rel] = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return files;
}

const selected = (p: PulumiProject) => p.must(["stack", "--show-name"]).stdout.trim();

/** The installed package's bin in the head's project, as `npx --no-install pagerduty-routing-test replay ...` runs it. */
function replay(junit: string, summary: string) {
  const bin = path.join(head.dir, "node_modules/.bin/pagerduty-routing-test");
  const args = ["replay", "--cases", "cases.yaml", "--base", base.dir, "--head", head.dir, "--emulator", "emulator.json"];
  const r = spawnSync(bin, [...args, "--config", `pagerduty:scopes=${SCOPES}`, "--junit", junit, "--summary", summary], {
    cwd: work,
    env: head.env,
    encoding: "utf8",
  });
  head.log += r.stdout + r.stderr;
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    junit: fs.readFileSync(path.join(work, junit), "utf8"),
    summary: fs.readFileSync(path.join(work, summary), "utf8"),
  };
}

const throwawayDirs = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("pagerduty-replay-"));

test("the changed rule's event is named with both traces (exit 1); expected in the case file, exit 0; the projects as they were", async () => {
  const before = { base: snapshot(base.dir), head: snapshot(head.dir), tmp: throwawayDirs() };
  expect(selected(base)).toBe("dev");
  expect(selected(head)).toBe("dev");

  const changed = replay("changed.xml", "changed.md");
  expect(changed.stderr).toMatch(/^pagerduty-routing-test replay: deploying the base's program \(.+\) to a throwaway stack$/m);
  expect(changed.stderr).toMatch(/^pagerduty-routing-test replay: head \(.+\): 10 events in \d+\.\d s$/m);
  expect(changed.code).toBe(1);
  const out = changed.stdout;
  expect([...out.matchAll(/^CHANGED.*$/gm)].map((m) => m[0])).toEqual(["CHANGED 3. a failing health check is suppressed"]);
  const change = out.slice(out.indexOf("CHANGED 3."));
  expect(change).toMatch(/^CHANGED 3\. a failing health check is suppressed\n {2}outcome: suppressed → incident\n/);
  expect(change).toMatch(
    / {2}base:\n {4}trace \w+: service "Platform"[\s\S]*rule 1 "Noisy health checks": matched\n {10}condition 1: true +event\.summary matches part 'health check' +\(event\.summary = "Health check failed/,
  );
  expect(change).toMatch(
    / {2}head:\n {4}trace \w+: service "Platform"[\s\S]*rule 1 "Noisy health checks": not matched\n {10}condition 1: false +event\.summary matches part 'healthcheck' +\(event\.summary = "Health check failed/,
  );
  expect(out).toMatch(/\nchanges:\n {2}suppressed → incident: 1\n1 of 10 events changed \(0 expected by the case file, 1 not\)\n$/);
  expect(changed.junit).toMatch(/<testsuite name="cases\.yaml" tests="10" failures="1"/);
  expect(changed.junit).toContain('<failure message="unexpected change: outcome suppressed → incident');
  expect(changed.summary).toMatch(/^### Routing replay of cases\.yaml: 1 of 10 events changed \(0 expected by the case file, 1 not\)\n/);
  expect(changed.summary).toContain("| suppressed → incident | 1 |");
  process.stdout.write(`replay's report:\n${out}`);

  // The pull request edits the case to the new outcome: the change is expected.
  const cases = fs.readFileSync(path.join(work, "cases.yaml"), "utf8");
  const edited = cases.replace(/(- name: a failing health check is suppressed\n.*\n {4}expect: )\{ outcome: suppressed \}/, "$1{ outcome: incident }");
  expect(edited).not.toBe(cases);
  fs.writeFileSync(path.join(work, "cases.yaml"), edited);
  const accepted = replay("accepted.xml", "accepted.md");
  expect(accepted.stdout).toMatch(/^CHANGED \(expected\) 3\. a failing health check is suppressed$/m);
  expect(accepted.stdout).toMatch(/^1 of 10 events changed \(1 expected by the case file, 0 not\)$/m);
  expect(accepted.code).toBe(0);
  expect(accepted.junit).toMatch(/tests="10" failures="0"/);

  // Neither project gained or changed a file, nor its selected stack; the throwaway stacks and their directories are gone.
  expect(snapshot(base.dir)).toEqual(before.base);
  expect(snapshot(head.dir)).toEqual(before.head);
  expect(selected(base)).toBe("dev");
  expect(selected(head)).toBe("dev");
  expect(throwawayDirs()).toEqual(before.tmp);
  // What the programs made on the emulator went with their stacks.
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
  for (const text of [changed.stdout, changed.stderr, accepted.stdout, accepted.stderr]) expect(text).not.toContain(emu.oauth.clientSecret);
});

test("the GitOps step (examples/gitops/routing-replay.sh) from the head's project: its own emulator, the seed, the same diff; JUnit and summary", () => {
  // The installed package's script, as the workflow runs it: the head's folder, the base's beside it.
  const script = path.join(head.dir, "node_modules/pulumi-pagerduty-dynamic/examples/gitops/routing-replay.sh");
  fs.copyFileSync(path.join(EXAMPLE, "cases.yaml"), path.join(head.dir, "replay-cases.yaml"));
  const before = { base: snapshot(base.dir), tmp: throwawayDirs() };
  const summary = path.join(work, "step-summary.md");
  // pagerduty-emulator as the project's dev dependency (its bin), here the repository's build.
  fs.symlinkSync(path.join(ROOT, "emulator/dist/cli.js"), path.join(head.dir, "node_modules/.bin/pagerduty-emulator"));
  const { PULUMI_BACKEND_URL: _backend, PULUMI_CONFIG_PASSPHRASE: _passphrase, ...env } = head.env;
  const r = spawnSync("bash", [script], {
    cwd: head.dir,
    env: {
      ...env,
      ROUTING_BASE_DIR: base.dir,
      ROUTING_CASES: "replay-cases.yaml",
      ROUTING_SEED: JSON.stringify({ escalationPolicies: [{ account: "acme", name: "Database team" }] }),
      ROUTING_REPLAY_CONFIG: `pagerduty:scopes=${SCOPES}`,
      GITHUB_STEP_SUMMARY: summary,
    },
    encoding: "utf8",
  });
  head.log += r.stdout + r.stderr;
  expect(r.stdout).toMatch(/^CHANGED 3\. a failing health check is suppressed$/m);
  expect(r.stdout).toContain("::error title=Routing change not expected::3. a failing health check is suppressed");
  expect(r.status).toBe(1);
  expect(fs.readFileSync(path.join(head.dir, "routing-replay.xml"), "utf8")).toMatch(/tests="10" failures="1"/);
  expect(fs.readFileSync(summary, "utf8")).toMatch(/^### Routing replay of replay-cases\.yaml: 1 of 10 events changed/);
  fs.rmSync(path.join(head.dir, "routing-replay.xml"));
  fs.rmSync(path.join(head.dir, "replay-cases.yaml"));
  expect(snapshot(base.dir)).toEqual(before.base);
  expect(throwawayDirs()).toEqual(before.tmp);
});

test("a head that cannot deploy: exit 3, the reason in JUnit and the summary; the base's stack destroyed, nothing left behind", async () => {
  head.setProgram(`throw new Error("the head's program is broken");\n`);
  const before = { head: snapshot(head.dir), tmp: throwawayDirs() };
  const r = replay("broken.xml", "broken.md");
  expect(r.code).toBe(3);
  expect(r.stderr).toMatch(/^pagerduty-routing-test replay: base \(.+\): 10 events in \d+\.\d s$/m);
  expect(r.stderr).toMatch(/^pagerduty-routing-test replay: pulumi up failed \(exit \d+\):/m);
  expect(r.stdout).toBe("");
  expect(r.junit).toMatch(/tests="1" failures="1"[\s\S]*<testcase name="replay" classname="cases\.yaml">\s*<failure message="not run: pulumi up failed/);
  expect(r.summary).toMatch(/^### Routing replay of cases\.yaml: not run\n\n```text\npulumi up failed/);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
  expect(throwawayDirs()).toEqual(before.tmp);
  expect(snapshot(head.dir)).toEqual(before.head);
  expect(selected(head)).toBe("dev");
});

// A user's infrastructure repository with the shipped GitHub workflows: the Pulumi project in a
// folder of the repository (or at its root), the package installed from a tarball as from the
// registry, and each workflow run on a fresh runner (empty PULUMI_HOME and cache, nothing left by an
// earlier run but the stack's backend). The workflows' `run` steps are read from their YAML and run
// as GitHub Actions would: in the job's working directory, with the workflow's and the step's env,
// and `$GITHUB_ENV` carried from step to step.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PulumiProject, ROOT, type EmulatorInfo } from "./harness";

export const WORKFLOWS = path.join(ROOT, "examples/gitops/workflows");
/** The install step: run on the first workflow run of a repository, then its node_modules are reused. */
export const INSTALL = "npm ci --no-audit --no-fund";

export interface Step {
  run: string;
  /** Step-level env: key -> the YAML line. */
  env: Record<string, string>;
}

/** The `run` steps of a workflow with their step-level `env` keys (each `run` is one line, by design). */
export function runSteps(file: string): { env: string[]; workingDirectory?: string; steps: Step[] } {
  const lines = fs.readFileSync(path.join(WORKFLOWS, file), "utf8").split("\n");
  const steps: Step[] = [];
  const env: string[] = [];
  let workingDirectory: string | undefined;
  let scope: "workflow" | "step" | undefined;
  for (const line of lines) {
    if (/^env:\s*$/.test(line)) scope = "workflow";
    else if (/^ {8}env:\s*$/.test(line)) scope = "step";
    else if (/^\S/.test(line) || /^ {6}- /.test(line) || /^ {8}run:/.test(line)) scope = undefined;
    const wd = /^ {8}working-directory: (.+)$/.exec(line);
    if (wd) workingDirectory = wd[1]!.trim();
    const run = /^ {6}- run: (.+)$|^ {8}run: (.+)$/.exec(line);
    if (run) steps.push({ run: (run[1] ?? run[2])!, env: {} });
    const kv = /^\s+([A-Z][A-Z0-9_]+):/.exec(line);
    if (kv && scope === "workflow") env.push(kv[1]!);
    if (kv && scope === "step") steps[steps.length - 1]!.env[kv[1]!] = line.trim();
  }
  return { env, workingDirectory, steps };
}

export interface WorkflowRun {
  code: number;
  stdout: string;
  summary: string;
}

export class UserRepo {
  readonly root: string;
  readonly project: PulumiProject;
  private installed = false;

  /** A repository whose Pulumi project is `folder` ("." for the root) with `program`. */
  constructor(
    name: string,
    readonly folder: string,
    program: string,
    emu: EmulatorInfo,
    config: Record<string, string> = {},
  ) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `ppd-${name}-repo-`));
    this.project = PulumiProject.create(name, program, emu, config, { dir: path.join(this.root, folder) });
  }

  /**
   * Runs the workflow's steps as a fresh runner would; stops at the first failure. `vars` and
   * `secrets` are the repository's; PULUMI_PROJECT_DIR is set from the repository's layout.
   */
  runWorkflow(file: string, opts: { stack?: string; secrets?: Record<string, string>; vars?: Record<string, string> } = {}): WorkflowRun {
    const { env: declared, workingDirectory, steps } = runSteps(file);
    const runner = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-runner-"));
    const summaryFile = path.join(runner, "step-summary.md");
    const githubEnv = path.join(runner, "github-env");
    fs.writeFileSync(summaryFile, "");
    fs.writeFileSync(githubEnv, "");
    const vars: Record<string, string> = { PULUMI_STACK: opts.stack ?? "dev", PAGERDUTY_DRIFT_ALL_FIELDS: "false", ...opts.vars };
    const values: Record<string, string> = {
      ...vars,
      PULUMI_BACKEND_URL: this.project.env.PULUMI_BACKEND_URL!,
      PULUMI_CONFIG_PASSPHRASE: this.project.env.PULUMI_CONFIG_PASSPHRASE!,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    const base: NodeJS.ProcessEnv = {
      ...this.project.env,
      // A fresh runner: no PULUMI_HOME (stack selection, plugins) and no cache (journal, tokens) of an earlier run.
      PULUMI_HOME: path.join(runner, "pulumi-home"),
      XDG_CACHE_HOME: path.join(runner, "cache"),
      ...Object.fromEntries(declared.map((k) => [k, values[k] ?? ""])),
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: githubEnv,
    };
    // `${{ vars.PULUMI_PROJECT_DIR || '.' }}` with the repository variable set to the project's folder.
    expect(workingDirectory).toBe("${{ vars.PULUMI_PROJECT_DIR || '.' }}");
    const cwd = path.join(this.root, this.folder);
    let stdout = "";
    let code = 0;
    for (const step of steps) {
      if (step.run === INSTALL && this.installed) continue;
      const carried = Object.fromEntries(
        fs
          .readFileSync(githubEnv, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      const stepEnv = Object.fromEntries(Object.keys(step.env).map((k) => [k, opts.secrets?.[k] ?? ""]));
      const r = spawnSync("bash", ["-c", step.run], { cwd, env: { ...base, ...carried, ...stepEnv }, encoding: "utf8", maxBuffer: 64 << 20 });
      stdout += r.stdout + r.stderr;
      code = r.status ?? -1;
      if (code !== 0) break;
      if (step.run === INSTALL) this.installed = true;
    }
    this.project.log += stdout;
    const summary = fs.readFileSync(summaryFile, "utf8");
    fs.rmSync(runner, { recursive: true, force: true });
    return { code, stdout, summary };
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

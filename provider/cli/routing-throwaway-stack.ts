// A program deployed to a throwaway stack that leaves its project as it found it: the stack lives
// in a temporary directory outside the project (a local file backend, a passphrase made for it, a
// copy of the project's files with its node_modules linked), so no Pulumi.<stack>.yaml, no salt and
// no selected stack ever lands in the project. Its settings come from the emulator's ready line as
// docs/testing-routing.md sets them; the client secret is handed to `pulumi config set --secret` on
// stdin. Removing it destroys its resources and deletes the directory, state and all.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { messageOf, PagerDutyError } from "../errors";
import { type Pulumi, pulumiRunner } from "./pulumi-runner";

/** One stack setting: its key, value and whether it is a secret (then never on a command line). */
export interface StackSetting {
  key: string;
  value: string;
  secret?: boolean;
}

/** The settings of a stack on the emulator whose ready line is in `file` (its URLs, account, credentials). */
export function emulatorSettings(file: string): StackSetting[] {
  let line: { url?: unknown; escalationPolicyId?: unknown; account?: Record<string, unknown>; oauth?: Record<string, unknown> };
  try {
    line = JSON.parse(fs.readFileSync(file, "utf8").trim().split("\n")[0] ?? "");
  } catch {
    throw new PagerDutyError("ERR_EMULATOR", `--emulator ${file}: no ready line of the emulator to configure a stack from`);
  }
  const wanted: [string, unknown, boolean?][] = [
    ["pagerduty:apiUrl", line.url],
    ["pagerduty:authUrl", line.url],
    ["pagerduty:subdomain", line.account?.subdomain],
    ["pagerduty:serviceRegion", line.account?.region],
    ["pagerduty:clientId", line.oauth?.clientId],
    ["pagerduty:clientSecret", line.oauth?.clientSecret, true],
    ["escalationPolicyId", line.escalationPolicyId],
  ];
  const missing = wanted.filter(([, v]) => typeof v !== "string" || !v).map(([k]) => k);
  if (missing.length)
    throw new PagerDutyError(
      "ERR_EMULATOR",
      `--emulator ${file}: the ready line lacks what a stack needs for ${missing.join(", ")} (is it pagerduty-emulator's?)`,
    );
  return wanted.map(([key, value, secret]) => ({ key, value: value as string, ...(secret ? { secret } : {}) }));
}

/** A stack deployed for one run. */
export interface ThrowawayStack {
  /** `pulumi` on the stack (its backend, passphrase and copy of the project). */
  pulumi: Pulumi;
  /** Destroys its resources and deletes its directory; resolves to why destroy failed, if it did (the directory goes anyway). */
  remove(): string | undefined;
}

/** What of a project is not copied: its dependencies (linked instead) and its dot-directories (.git, local state, caches). */
const leftOut = (name: string, dir: boolean) => name === "node_modules" || (dir && name.startsWith("."));

function copyProject(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (leftOut(e.name, e.isDirectory())) continue;
    fs.cpSync(path.join(from, e.name), path.join(to, e.name), { recursive: true, verbatimSymlinks: false, dereference: false });
  }
  const modules = path.join(from, "node_modules");
  if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(to, "node_modules"), "dir");
}

/**
 * Deploys the program of the Pulumi project `project` to a new stack named `name` with `settings`;
 * a failure removes what was made and throws.
 */
export function deployThrowaway(project: string, name: string, settings: readonly StackSetting[]): ThrowawayStack {
  const dir = path.resolve(project);
  if (!["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(dir, f))))
    throw new PagerDutyError("ERR_PULUMI", `${project} is not a Pulumi project (no Pulumi.yaml)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pagerduty-replay-"));
  const copy = path.join(tmp, "project");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(24).toString("hex"),
  };
  delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
  const pulumi = pulumiRunner({ cwd: copy, stack: name, env });
  let deployed = false;
  const remove = (): string | undefined => {
    let failure: string | undefined;
    try {
      if (deployed) pulumi(["destroy", "--yes", "--skip-preview", "--suppress-progress", "--color", "never"]);
    } catch (e) {
      failure = messageOf(e);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return failure;
  };
  try {
    fs.mkdirSync(path.join(tmp, "state"));
    copyProject(dir, copy);
    pulumi(["stack", "init", "--no-select"]);
    // The plain settings in one command (each costs a CLI start); each secret on stdin, never in argv.
    const plain = settings.filter((s) => !s.secret).flatMap((s) => ["--plaintext", `${s.key}=${s.value}`]);
    if (plain.length) pulumi(["config", "set-all", ...plain]);
    for (const s of settings.filter((s) => s.secret)) pulumi(["config", "set", "--secret", "--", s.key], s.value);
    deployed = true;
    pulumi(["up", "--yes", "--skip-preview", "--suppress-progress", "--color", "never"]);
  } catch (e) {
    const left = remove();
    // What a failed up made stays on the emulator when destroy fails too: say so beside the failure.
    if (left) throw new PagerDutyError("ERR_PULUMI", `${messageOf(e)}; destroying what it made failed too: ${left}`, { cause: e });
    throw e;
  }
  return { pulumi, remove };
}

// The `pulumi` CLI as every bin runs it: in the project directory, on the chosen stack, never
// prompting (--non-interactive), a secret handed on stdin (never on argv, which other users can
// read). A failure is a PulumiError naming the command and quoting pulumi's stderr, never its
// stdout (`config --show-secrets` prints decrypted secrets there).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PagerDutyError, scrub } from "../errors";

/** Where `pulumi` runs: `cwd` (unset: this process's), on `stack` (unset: the project's selected one). */
export interface PulumiTarget {
  cwd?: string;
  stack?: string;
  /** Its environment (PULUMI_*, PATH); unset: this process's. */
  env?: NodeJS.ProcessEnv;
}

/** Runs `pulumi <args>` with `input` on stdin and returns its stdout; a failure throws a PulumiError. */
export type Pulumi = (args: string[], input?: string) => string;

/** A state export of a big stack is large; the default 1 MiB would cut it. */
const MAX_OUTPUT = 256 << 20;

/** How many of stderr's last lines a message quotes: the error, not the progress before it. */
const QUOTED_LINES = 6;

export class PulumiError extends PagerDutyError {
  constructor(
    /** e.g. "stack export", "config set". */
    readonly command: string,
    /** What went wrong: stderr's last lines, or why pulumi could not be started. */
    readonly detail: string,
    /** Its exit status, or the signal that ended it; undefined when it could not be started. */
    readonly status?: number | NodeJS.Signals,
  ) {
    super(
      "ERR_PULUMI",
      status === undefined
        ? `cannot run pulumi ${command}: ${detail}`
        : `pulumi ${command} failed (${typeof status === "number" ? `exit ${status}` : `killed by ${status}`}):\n${detail}${lockedHint(detail)}`,
    );
    this.name = "PulumiError";
  }
}

/** Another `pulumi` holds the stack, or an interrupted one left its lock behind. */
function lockedHint(detail: string): string {
  return /currently locked/.test(detail)
    ? "\nThe stack is locked by an update: when no `pulumi` runs for it any more (an interrupted one leaves its lock behind), run `pulumi cancel --yes`, " +
        "then this command again."
    : "";
}

/** The command's words before its first flag, e.g. "config set" of `-Q config set --path -- k v`. */
export function commandOf(args: readonly string[]): string {
  const start = args.findIndex((a) => !a.startsWith("-"));
  if (start < 0) return "";
  const end = args.findIndex((a, i) => i > start && a.startsWith("-"));
  return args.slice(start, end < 0 ? undefined : end).join(" ");
}

/** `--stack` goes before a `--`, after which every word is a value. */
function onStack(args: readonly string[], stack: string | undefined): string[] {
  if (!stack) return [...args];
  const at = args.indexOf("--");
  return at < 0 ? [...args, "--stack", stack] : [...args.slice(0, at), "--stack", stack, ...args.slice(at)];
}

/** `pulumi` on `target`. Commands that take no --stack (`whoami`) want a target without one. */
export function pulumiRunner(target: PulumiTarget = {}): Pulumi {
  return (args, input) => {
    const r = spawnSync("pulumi", ["--non-interactive", ...onStack(args, target.stack)], {
      cwd: target.cwd,
      env: target.env ?? process.env,
      encoding: "utf8",
      maxBuffer: MAX_OUTPUT,
      input,
    });
    const command = commandOf(args);
    if (r.error) {
      const missing = (r.error as NodeJS.ErrnoException).code === "ENOENT";
      throw new PulumiError(command, missing ? "the Pulumi CLI is not on PATH (https://www.pulumi.com/docs/install/)" : r.error.message);
    }
    if (r.status !== 0) {
      // A secret on stdin should never come back, but if pulumi quotes it, it is not repeated here.
      const detail = scrub(r.stderr.trim().split("\n").slice(-QUOTED_LINES).join("\n"), [input]);
      throw new PulumiError(command, detail, r.status ?? r.signal ?? undefined);
    }
    return r.stdout;
  };
}

/**
 * `use`'s result with `value` as JSON in a file only this user can read (a state, an import list:
 * what `pulumi ... --file` takes), in a temporary directory named from `prefix`, removed afterwards.
 */
export function withJsonFile<T>(prefix: string, value: unknown, use: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const file = path.join(dir, "file.json");
    fs.writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
    return use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The stack a CLI works on, through the `pulumi` CLI in the project directory: its state and its
// `pagerduty:*` config (secrets decrypted in memory only, never printed). Shared by
// pagerduty-recover and pagerduty-adopt --account.
import { spawnSync } from "node:child_process";
import { PagerDutyError } from "../errors";

/** Which stack: `--stack` (unset: the project's selected stack) in `--cwd`. */
export interface StackTarget {
  stack?: string;
  cwd: string;
}

/** Runs `pulumi <args>` on the stack and returns its stdout; a failure throws with stderr only. */
export type Pulumi = (args: string[], input?: string) => string;

export function pulumiCli(target: StackTarget): Pulumi {
  return (args, input) => {
    const full = ["--non-interactive", ...args, ...(target.stack ? ["--stack", target.stack] : [])];
    const r = spawnSync("pulumi", full, { cwd: target.cwd, encoding: "utf8", maxBuffer: 256 << 20, input });
    if (r.error) throw new PagerDutyError("ERR_CONFIG", `cannot run pulumi: ${r.error.message}`);
    if (r.status !== 0) {
      // stderr only: the stdout of `config --show-secrets` must never be printed.
      const detail = r.stderr.trim().split("\n").slice(-6).join("\n");
      const locked = /currently locked/.test(detail) ? "\nThe stack is still locked by the interrupted update: when no `pulumi` runs for it any more, run `pulumi cancel --yes`, then this command again." : "";
      throw new PagerDutyError("ERR_CONFIG", `pulumi ${args[0]} ${args[1] ?? ""} failed (exit ${r.status}):\n${detail}${locked}`);
    }
    return r.stdout;
  };
}

interface ConfigEntry {
  value?: unknown;
  objectValue?: unknown;
}

/**
 * The `pagerduty:*` keys of `pulumi config --json --show-secrets` output, as the provider receives
 * them: strings, a structured value (`pagerduty:accounts`) as JSON text. Pulumi 3.248 prints a
 * structured value both as JSON text in `value` and parsed in `objectValue`; either one is enough.
 */
export function configValues(json: string): Map<string, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(json || "{}");
  } catch {
    // Never quote the text: it holds decrypted secrets.
    throw new PagerDutyError("ERR_CONFIG", "`pulumi config --json --show-secrets` printed something that is not JSON");
  }
  const out = new Map<string, string>();
  for (const [key, v] of Object.entries((raw ?? {}) as Record<string, ConfigEntry | undefined>)) {
    if (!key.startsWith("pagerduty:") || !v) continue;
    if (typeof v.value === "string") out.set(key, v.value);
    else if (v.objectValue !== undefined) out.set(key, JSON.stringify(v.objectValue));
    else if (v.value !== undefined && v.value !== null) out.set(key, typeof v.value === "object" ? JSON.stringify(v.value) : String(v.value));
  }
  return out;
}

/** The stack's `pagerduty:*` config. */
export function stackConfig(pulumi: Pulumi): Map<string, string> {
  return configValues(pulumi(["config", "--json", "--show-secrets"]));
}

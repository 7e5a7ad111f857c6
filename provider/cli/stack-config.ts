// The `pagerduty:*` config of the stack a CLI works on, as `pulumi config` prints it (secrets
// decrypted in memory only, never printed). Read by pagerduty-recover, pagerduty-adopt --account
// and pagerduty-login.
import { PagerDutyError } from "../errors";
import type { Pulumi } from "./pulumi-runner";

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

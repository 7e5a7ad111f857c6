// The `pagerduty:*` config of the stack a CLI works on, as `pulumi config` prints it (secrets
// decrypted in memory only, never printed). Read by pagerduty-recover, pagerduty-adopt --account
// and pagerduty-login; pagerduty-recover also reads the package's `pagerduty-dynamic:*` config and
// an explicit provider resource's inputs, each under the package's keys, which the settings
// resolution reads in that namespace (so its messages name them as the package's users set them).
import { PagerDutyError } from "../errors";
import { SIG_KEY } from "../kernel/secret-signature";
import { type Door, NAMESPACES } from "../settings";
import type { Pulumi } from "./pulumi-runner";

interface ConfigEntry {
  value?: unknown;
  objectValue?: unknown;
}

/**
 * The JSON `pulumi <command>` printed with --show-secrets (`config --json`, `stack export`, `stack
 * output --json`). What is not JSON is refused without quoting it (JSON.parse's message would): the
 * text holds decrypted secrets.
 */
export function parseShown(text: string, command: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new PagerDutyError(command.startsWith("config") ? "ERR_CONFIG" : "ERR_STATE", `\`pulumi ${command}\` printed something that is not JSON`);
  }
}

/**
 * The keys of `door`'s namespace (`pagerduty:*`, or the package's `pagerduty-dynamic:*`) of `pulumi
 * config --json --show-secrets` output, as the provider receives them: strings, a structured value
 * (`accounts`) as JSON text. Pulumi 3.248 prints a structured value both as JSON text in `value` and
 * parsed in `objectValue`; either one is enough.
 */
export function configValues(json: string, door: Door = "dynamic"): Map<string, string> {
  const prefix = `${NAMESPACES[door]}:`;
  const raw = parseShown(json || "{}", "config --json --show-secrets");
  const out = new Map<string, string>();
  for (const [key, v] of Object.entries((raw ?? {}) as Record<string, ConfigEntry | undefined>)) {
    if (!key.startsWith(prefix) || !v) continue;
    if (typeof v.value === "string") out.set(key, v.value);
    else if (v.objectValue !== undefined) out.set(key, JSON.stringify(v.objectValue));
    else if (v.value !== undefined && v.value !== null) out.set(key, typeof v.value === "object" ? JSON.stringify(v.value) : String(v.value));
  }
  return out;
}

/**
 * An explicit provider resource's settings from its inputs in the state, exported with its secrets
 * shown, as the engine hands them to the plugin's Configure: strings, other values as JSON text,
 * named as the package names them, `pagerduty-dynamic:<name>`.
 */
export function providerSettings(inputs: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, raw] of Object.entries(inputs)) {
    const value = revealed(raw);
    if (name.startsWith("__") || value === undefined || value === null) continue;
    out.set(`${NAMESPACES.package}:${name}`, typeof value === "string" ? value : JSON.stringify(value));
  }
  return out;
}

/**
 * A value of a state exported with --show-secrets: plain, or a secret (the engine's signature) by its
 * JSON `plaintext`. `what` names it in errors, which never quote the value.
 */
export function revealed(v: unknown, what = "a provider's secret setting"): unknown {
  if (typeof v !== "object" || v === null || !(SIG_KEY in v)) return v;
  const plaintext = (v as { plaintext?: unknown }).plaintext;
  if (typeof plaintext !== "string")
    throw new PagerDutyError("ERR_STATE", `${what} in the state is still encrypted: the state was not exported with --show-secrets`);
  try {
    return JSON.parse(plaintext);
  } catch {
    // JSON.parse's message quotes the text.
    throw new PagerDutyError("ERR_STATE", `${what} in the state is not the JSON the engine writes`);
  }
}

/** The stack's `pagerduty:*` config. */
export function stackConfig(pulumi: Pulumi): Map<string, string> {
  return configValues(pulumi(["config", "--json", "--show-secrets"]));
}

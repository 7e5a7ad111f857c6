// The routing keys a routing test sends to, read from the stack the program was deployed to: a
// stack output (the key itself, e.g. `export const events = integration.integrationKey`, or a whole
// ServiceIntegration), else a ServiceIntegration by its resource name in the state. Keys are
// secrets: read with --show-secrets into memory, never printed; errors name outputs and resources.
import { PagerDutyError } from "../errors";
import { recordedType } from "../kernel/recorded-type";
import type { Pulumi } from "./pulumi-runner";

/** ServiceIntegration as the state records it: from the TypeScript SDK, or through the Pulumi package. */
const INTEGRATION_TYPES = [recordedType("ServiceIntegration"), "pagerduty-dynamic:index:ServiceIntegration"];

interface StateResource {
  urn: string;
  type: string;
  outputs?: Record<string, unknown>;
}

/** A value as `--show-secrets` prints it: plain, or a secret's envelope with its JSON `plaintext`. */
function revealed(v: unknown): unknown {
  if (v !== null && typeof v === "object" && typeof (v as { plaintext?: unknown }).plaintext === "string") {
    try {
      return JSON.parse((v as { plaintext: string }).plaintext);
    } catch {
      return undefined;
    }
  }
  return v;
}

const keyIn = (v: unknown): string | undefined => {
  const x = revealed(v);
  if (typeof x === "string" && x) return x;
  if (x !== null && typeof x === "object") {
    const k = revealed((x as Record<string, unknown>).integrationKey);
    return typeof k === "string" && k ? k : undefined;
  }
  return undefined;
};

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** Finds the routing key of each name: a stack output first, then a ServiceIntegration of that resource name. */
export function integrationKeys(pulumi: Pulumi, names: readonly string[]): Map<string, string> {
  const outputs = JSON.parse(pulumi(["stack", "output", "--json", "--show-secrets"]) || "{}") as Record<string, unknown>;
  let integrations: StateResource[] | undefined;
  const found = new Map<string, string>();
  for (const name of new Set(names)) {
    if (Object.hasOwn(outputs, name)) {
      const key = keyIn(outputs[name]);
      if (!key)
        throw new PagerDutyError("ERR_STATE", `stack output "${name}" holds no routing key (give it an integration's integrationKey, or the integration)`);
      found.set(name, key);
      continue;
    }
    integrations ??= (
      (JSON.parse(pulumi(["stack", "export", "--show-secrets"])) as { deployment?: { resources?: StateResource[] } }).deployment?.resources ?? []
    ).filter((r) => INTEGRATION_TYPES.includes(r.type));
    const matches = integrations.filter((r) => nameOf(r.urn) === name);
    if (matches.length > 1) throw new PagerDutyError("ERR_STATE", `${matches.length} ServiceIntegrations are named "${name}": name a stack output instead`);
    if (!matches.length) {
      const known = [...Object.keys(outputs).map((o) => `output ${o}`), ...integrations.map((r) => `integration ${nameOf(r.urn)}`)];
      throw new PagerDutyError(
        "ERR_STATE",
        `the stack has no output and no ServiceIntegration named "${name}" (it has: ${known.length ? known.join(", ") : "nothing"})`,
      );
    }
    const key = keyIn(matches[0].outputs?.integrationKey);
    if (!key) throw new PagerDutyError("ERR_STATE", `ServiceIntegration "${name}" has no routing key (only Events API integrations have one)`);
    found.set(name, key);
  }
  return found;
}

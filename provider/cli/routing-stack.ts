// The routing keys a routing test sends to, read from the stack the program was deployed to: a
// stack output (the key itself, e.g. `export const events = integration.integrationKey`, or a whole
// ServiceIntegration), else a ServiceIntegration by its resource name in the state. Keys are
// secrets: read with --show-secrets into memory, never printed; errors name outputs and resources.
import { type Checkpoint, type StateResource, urnName } from "../account/stack-state";
import { PagerDutyError } from "../errors";
import { recordedKind } from "../kernel/recorded-type";
import type { Pulumi } from "./pulumi-runner";
import { parseShown, revealed } from "./stack-config";

/** A ServiceIntegration as the state records it: from the TypeScript SDK, or through the Pulumi package. */
const isIntegration = (r: StateResource) => recordedKind(r.type) === "ServiceIntegration";

/** The routing key in a value as `--show-secrets` prints it: the key, or an integration holding it. */
const keyIn = (v: unknown): string | undefined => {
  const x = revealed(v, "a routing key");
  if (typeof x === "string" && x) return x;
  if (x !== null && typeof x === "object") {
    const k = revealed((x as Record<string, unknown>).integrationKey, "a routing key");
    return typeof k === "string" && k ? k : undefined;
  }
  return undefined;
};

/** Finds the routing key of each name: a stack output first, then a ServiceIntegration of that resource name. */
export function integrationKeys(pulumi: Pulumi, names: readonly string[]): Map<string, string> {
  const outputs = parseShown(pulumi(["stack", "output", "--json", "--show-secrets"]) || "{}", "stack output --json --show-secrets") as Record<string, unknown>;
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
      (parseShown(pulumi(["stack", "export", "--show-secrets"]), "stack export --show-secrets") as Partial<Checkpoint>).deployment?.resources ?? []
    ).filter(isIntegration);
    const matches = integrations.filter((r) => urnName(r.urn) === name);
    if (matches.length > 1) throw new PagerDutyError("ERR_STATE", `${matches.length} ServiceIntegrations are named "${name}": name a stack output instead`);
    if (!matches.length) {
      const known = [...Object.keys(outputs).map((o) => `output ${o}`), ...integrations.map((r) => `integration ${urnName(r.urn)}`)];
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

// What the stack's state weighs: the checkpoint file, and each dynamic resource's entry in it.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiProject } from "../../tests/e2e/harness";

/** What a resource of one type weighs in the checkpoint (averages over the type's resources). */
export interface TypeBytes {
  /** The whole entry as the file backend's checkpoint stores it (compact JSON). */
  entry: number;
  /** The serialized provider, `__provider`, as a JSON string (it is stored twice: inputs and outputs). */
  provider: number;
  resources: number;
}
/** By recorded type without its `pulumi-nodejs:dynamic/` prefix, e.g. `pagerduty:Service`, `floor:Service`. */
export type StateBytes = Record<string, TypeBytes>;

/** The dynamic resources of the project's state, weighed per type (one `pulumi stack export`). */
export function weigh(project: PulumiProject): StateBytes {
  const sums: Record<string, { entry: number; provider: number; n: number }> = {};
  for (const r of project.resources()) {
    if (!r.type.startsWith("pulumi-nodejs:dynamic/")) continue;
    const t = (sums[r.type.replace(/^pulumi-nodejs:dynamic\//, "")] ??= { entry: 0, provider: 0, n: 0 });
    t.entry += Buffer.byteLength(JSON.stringify(r));
    t.provider += Buffer.byteLength(JSON.stringify(r.outputs?.__provider ?? ""));
    t.n++;
  }
  const out: StateBytes = {};
  for (const [type, t] of Object.entries(sums)) out[type] = { entry: Math.round(t.entry / t.n), provider: Math.round(t.provider / t.n), resources: t.n };
  return out;
}

/** Average entry bytes of the types whose name starts with `prefix` (`pagerduty:`, `floor:`, "" for all), weighted by count; NaN without any. */
export function averageEntry(bytes: StateBytes, prefix = ""): number {
  const types = Object.entries(bytes).filter(([t]) => t.startsWith(prefix));
  const n = types.reduce((a, [, b]) => a + b.resources, 0);
  return n ? Math.round(types.reduce((a, [, b]) => a + b.entry * b.resources, 0) / n) : NaN;
}

/** Bytes of the stack's checkpoint file (the local-file backend's `<stack>.json`). */
export function checkpointBytes(project: PulumiProject): number {
  const stacks = path.join(project.dir, ".pulumi-state", ".pulumi", "stacks");
  for (const dir of fs.existsSync(stacks) ? fs.readdirSync(stacks) : []) {
    const file = path.join(stacks, dir, "dev.json");
    if (fs.existsSync(file)) return fs.statSync(file).size;
  }
  return 0;
}

/** The state after a phase: the checkpoint file, and the dynamic resources in it by type. */
export interface StateAfter {
  checkpoint: number;
  types: StateBytes;
}

export const stateAfter = (project: PulumiProject): StateAfter => ({ checkpoint: checkpointBytes(project), types: weigh(project) });

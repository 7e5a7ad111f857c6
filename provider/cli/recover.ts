#!/usr/bin/env node
// pagerduty-recover [--stack NAME] [--cwd DIR] [--dry-run]
// Repairs a stack after an interrupted `pulumi up`: for every pending create of a Service,
// ServiceIntegration or ServiceEventRule it finds the object by the inputs the state recorded and
// records it in the state, so the next `pulumi up` neither fails on the name nor creates a second
// one. A pending create whose resource is already in the state is dropped, one with no object is
// dropped (the next `up` creates it), and when several objects match, nothing is changed and the
// candidates are listed: it never guesses.
//
// Pulumi 3.248's own `pulumi refresh --import-pending-creates URN ID` drops the resource instead of
// importing it, so the state is edited with `pulumi stack export` / `pulumi stack import`, then the
// recorded objects are read with `pulumi refresh --target`. Credentials come from the stack's
// config (as the provider reads them) or the PAGERDUTY_* environment. Only GET requests are made to
// PagerDuty; nothing secret is printed.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PagerDutyError } from "../errors";
import { createClient } from "../account/client";
import type { Checkpoint, Operation, StateResource } from "../account/stack-state";
import { resolveSettings } from "../config";
import type { ApiClient } from "../http/client";
import { userInputs } from "../kernel/check";
import { RECORDED_KINDS, type CreatedKind } from "../kernel/registry";
import { servicesNamedExactly } from "../resources/service";
import { rulesLike, type RuleInputs } from "../resources/service-event-rule";
import { integrationsLike, type IntegrationInputs } from "../resources/service-integration";
import { commandLine, UsageError } from "./usage";

const USAGE = "usage: pagerduty-recover [--stack NAME] [--cwd DIR] [--dry-run]";

/** Resource types this package creates objects for, by the type the state records. */
export const RECOVERABLE: Readonly<Record<string, CreatedKind>> = RECORDED_KINDS;

export interface RecoverOptions {
  stack?: string;
  cwd: string;
  dryRun: boolean;
}

export { UsageError };

export function parseArgs(argv: readonly string[]): RecoverOptions {
  const values = commandLine(
    argv,
    { stack: { type: "string", short: "s" }, cwd: { type: "string", short: "C" }, "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE, 0);
  for (const flag of ["stack", "cwd"] as const) if (values[flag] === "") throw new UsageError(`--${flag} needs a value\n${USAGE}`);
  return { cwd: values.cwd ?? process.cwd(), dryRun: values["dry-run"] ?? false, ...(values.stack ? { stack: values.stack } : {}) };
}

// ---- the state ---------------------------------------------------------------------------------

export type { Checkpoint };

/** What recovery does with one pending create. */
export type Decision =
  | { urn: string; kind: "record"; id: string; what: string }
  | { urn: string; kind: "settled" }
  | { urn: string; kind: "not-made"; what: string }
  | { urn: string; kind: "ambiguous"; ids: string[]; what: string };

/** Finds the ids of the objects matching a pending create's recorded inputs. */
export type Finder = (kind: CreatedKind, inputs: Record<string, unknown>) => Promise<string[]>;

const describe = (kind: string, inputs: Record<string, unknown>) =>
  kind === "Service" ? `service "${inputs.name}"` : kind === "ServiceIntegration" ? `integration of service ${inputs.service}` : `event rule of service ${inputs.service}`;

/**
 * Decides, for each pending create of this package's types, whether the object exists. Ids already
 * in the state and ids matched to another pending create are never offered twice.
 */
export async function plan(checkpoint: Checkpoint, find: Finder): Promise<Decision[]> {
  const resources = checkpoint.deployment.resources ?? [];
  const inState = new Set(resources.map((r) => r.urn));
  const taken = new Set(resources.filter((r) => RECOVERABLE[r.type] && r.id).map((r) => `${r.type}/${r.id}`));
  const decisions: Decision[] = [];
  const pending = (checkpoint.deployment.pending_operations ?? []).filter((op) => op.type === "creating" && RECOVERABLE[op.resource.type]);
  // Services first: children of a recorded service are found through it.
  pending.sort((a, b) => Number(RECOVERABLE[a.resource.type] !== "Service") - Number(RECOVERABLE[b.resource.type] !== "Service"));
  for (const op of pending) {
    const { urn, type } = op.resource;
    if (inState.has(urn)) {
      decisions.push({ urn, kind: "settled" });
      continue;
    }
    const kind = RECOVERABLE[type];
    const inputs = userInputs(op.resource.inputs ?? {});
    const what = describe(kind, inputs);
    const ids = (await find(kind, inputs)).filter((id) => !taken.has(`${type}/${id}`));
    if (ids.length === 1) {
      taken.add(`${type}/${ids[0]}`);
      decisions.push({ urn, kind: "record", id: ids[0], what });
    } else if (ids.length === 0) decisions.push({ urn, kind: "not-made", what });
    else decisions.push({ urn, kind: "ambiguous", ids: [...ids].sort(), what });
  }
  return decisions;
}

/**
 * The checkpoint with the decisions applied: recorded objects become resources (their outputs, the
 * recorded inputs, until a refresh reads them), and the pending creates that were decided are gone.
 */
export function apply(checkpoint: Checkpoint, decisions: readonly Decision[]): Checkpoint {
  const byUrn = new Map(decisions.map((d) => [d.urn, d]));
  const added: StateResource[] = [];
  const kept: Operation[] = [];
  for (const op of checkpoint.deployment.pending_operations ?? []) {
    const d = op.type === "creating" ? byUrn.get(op.resource.urn) : undefined;
    if (!d || d.kind === "ambiguous") kept.push(op);
    else if (d.kind === "record") added.push({ ...op.resource, id: d.id, outputs: { ...(op.resource.inputs ?? {}) } });
  }
  const resources = [...(checkpoint.deployment.resources ?? []), ...dependencyOrder(added)];
  return { ...checkpoint, deployment: { ...checkpoint.deployment, resources, pending_operations: kept } };
}

/**
 * Orders added resources so each follows the added ones it depends on (a child after its service);
 * everything else they reference is already in the state, before them, as the state requires.
 */
function dependencyOrder(added: StateResource[]): StateResource[] {
  const urns = new Set(added.map((r) => r.urn));
  const deps = (r: StateResource) => [r.parent, ...((r.dependencies as string[] | undefined) ?? [])].filter((u): u is string => typeof u === "string" && urns.has(u));
  const out: StateResource[] = [];
  const placed = new Set<string>();
  let rest = added;
  while (rest.length) {
    const ready = rest.filter((r) => deps(r).every((u) => placed.has(u)));
    // A cycle cannot come from a valid state; keep the remaining order rather than loop.
    const batch = ready.length ? ready : rest;
    for (const r of batch) {
      out.push(r);
      placed.add(r.urn);
    }
    rest = rest.filter((r) => !batch.includes(r));
  }
  return out;
}

// ---- finding objects ---------------------------------------------------------------------------

/** Objects matching recorded inputs, through the API (GET only), as the provider finds them. */
export const finderIn =
  (client: ApiClient): Finder =>
  async (kind, inputs) => {
    if (kind === "Service") return servicesNamedExactly(client, String(inputs.name ?? ""));
    if (kind === "ServiceIntegration") return integrationsLike(client, inputs as unknown as IntegrationInputs);
    return rulesLike(client, inputs as unknown as RuleInputs);
  };

// ---- the pulumi CLI ----------------------------------------------------------------------------

function pulumi(opts: RecoverOptions, args: string[], input?: string): string {
  const full = ["--non-interactive", ...args, ...(opts.stack ? ["--stack", opts.stack] : [])];
  const r = spawnSync("pulumi", full, { cwd: opts.cwd, encoding: "utf8", maxBuffer: 256 << 20, input });
  if (r.error) throw new PagerDutyError("ERR_CONFIG", `cannot run pulumi: ${r.error.message}`);
  if (r.status !== 0) {
    // stderr only: the stdout of `config --show-secrets` must never be printed.
    const detail = r.stderr.trim().split("\n").slice(-6).join("\n");
    const locked = /currently locked/.test(detail) ? "\nThe stack is still locked by the interrupted update: when no `pulumi` runs for it any more, run `pulumi cancel --yes`, then this command again." : "";
    throw new PagerDutyError("ERR_CONFIG", `pulumi ${args[0]} ${args[1] ?? ""} failed (exit ${r.status}):\n${detail}${locked}`);
  }
  return r.stdout;
}

/** The stack's `pagerduty:*` config, secrets decrypted in memory only. */
function stackConfig(opts: RecoverOptions): Map<string, string> {
  const raw = JSON.parse(pulumi(opts, ["config", "--json", "--show-secrets"]) || "{}") as Record<string, { value?: unknown }>;
  const out = new Map<string, string>();
  for (const [key, v] of Object.entries(raw)) if (key.startsWith("pagerduty:") && v?.value !== undefined) out.set(key, String(v.value));
  return out;
}

function report(decisions: readonly Decision[]): string {
  const lines = decisions.map((d) => {
    switch (d.kind) {
      case "record": return `  record    ${d.urn} -> ${d.id} (${d.what})`;
      case "settled": return `  settled   ${d.urn} (already in the state; the stale pending create is dropped)`;
      case "not-made": return `  not made  ${d.urn} (no ${d.what} matches; \`pulumi up\` creates it)`;
      case "ambiguous": return `  AMBIGUOUS ${d.urn}: ${d.ids.length} objects match (${d.what}): ${d.ids.join(", ")}`;
    }
  });
  return lines.join("\n");
}

export async function recover(opts: RecoverOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const checkpoint = JSON.parse(pulumi(opts, ["stack", "export"])) as Checkpoint;
  const interrupted = (checkpoint.deployment.pending_operations ?? []).filter((op) => op.type === "creating" && RECOVERABLE[op.resource.type]);
  if (!interrupted.length) {
    out("pagerduty-recover: no interrupted creates in the stack's state; nothing to do");
    return 0;
  }
  const config = stackConfig(opts);
  const client = createClient(resolveSettings((key) => config.get(key), process.env));
  let decisions: Decision[];
  try {
    decisions = await plan(checkpoint, finderIn(client));
  } finally {
    await client.close();
  }
  out(`pagerduty-recover: ${interrupted.length} interrupted create(s):\n${report(decisions)}`);
  const ambiguous = decisions.filter((d) => d.kind === "ambiguous");
  if (ambiguous.length) {
    out(
      "Nothing was changed: which object belongs to the state is not certain for the AMBIGUOUS ones. Delete the extra objects " +
        "in PagerDuty (keep one of each), then run `npx pagerduty-recover` again.",
    );
    return 1;
  }
  const recorded = decisions.filter((d) => d.kind === "record").map((d) => d.urn);
  const refresh = ["refresh", "--yes", "--skip-preview", ...recorded.flatMap((u) => ["--target", u])];
  if (opts.dryRun) {
    out(`Dry run: nothing was changed. Without --dry-run this edits the state (pulumi stack export/import)${recorded.length ? ` and runs: pulumi ${refresh.join(" ")}` : ""}`);
    return 0;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pagerduty-recover-"));
  try {
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, JSON.stringify(apply(checkpoint, decisions)), { mode: 0o600 });
    pulumi(opts, ["stack", "import", "--file", file]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (recorded.length) pulumi(opts, refresh);
  out(`Done: ${recorded.length} object(s) recorded in the state, ${decisions.length - recorded.length} pending create(s) dropped. Run \`pulumi up\` next.`);
  return 0;
}

async function main(): Promise<number> {
  try {
    return await recover(parseArgs(process.argv.slice(2)));
  } catch (e) {
    if (e instanceof UsageError && e.exitCode === 0) {
      process.stdout.write(`${e.message}\n`);
      return 0;
    }
    process.stderr.write(`pagerduty-recover: ${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof UsageError ? e.exitCode : 1;
  }
}

if (require.main === module) void main().then((code) => (process.exitCode = code));

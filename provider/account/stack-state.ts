// What the stack's own backend says during a deployment: which objects its resources hold, and
// which creates an earlier, interrupted run left pending. The backend is the one store every runner
// of a stack shares (a fresh CI runner has no local journal), and the engine writes a pending create
// there, inputs and `__origin` included, before it asks the provider to create. The provider reads
// it (the local file backend's file directly, else with `pulumi stack export`: no lock is taken,
// nothing secret is decrypted) only when a create needs it, so an `up` without creates costs nothing.
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { PagerDutyError } from "../errors";
import { pulumiCommand } from "../host/pulumi-cli";
import { ownId, recordedKind } from "../kernel/recorded-type";
import { readLocalCheckpoint } from "./local-checkpoint";

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [k: string]: unknown;
}

/** A resource's name: its URN's last part (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export const urnName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

export interface Operation {
  type: string;
  resource: StateResource;
}

export interface Checkpoint {
  version: number;
  deployment: { resources?: StateResource[]; pending_operations?: Operation[]; [k: string]: unknown };
}

/** One export of the stack, digested. */
export interface Snapshot {
  /** Epoch ms when the export was started. */
  startedAt: number;
  /** `Kind/id` of every object a resource of the state holds, to that resource. */
  held: Map<string, Holder>;
  /** `__origin` of each pending create of this package's types, with how many there are. */
  pending: Map<string, number>;
}

/** A resource of the state: its URN and its provenance key (sdk/origin.ts), which its replacement shares. */
export interface Holder {
  urn: string;
  origin?: string;
}

export const heldKey = (kind: string, id: string) => `${kind}/${id}`;

export function digest(checkpoint: Checkpoint, startedAt: number): Snapshot {
  const held = new Map<string, Holder>();
  for (const r of checkpoint.deployment.resources ?? []) {
    // Every kind of this package, through either door: only those that create objects are ever asked for.
    const kind = recordedKind(r.type);
    const origin = r.inputs?.__origin;
    if (kind && r.id && !r.delete) held.set(heldKey(kind, ownId(r.id)), { urn: r.urn, ...(typeof origin === "string" ? { origin } : {}) });
  }
  const pending = new Map<string, number>();
  for (const op of checkpoint.deployment.pending_operations ?? []) {
    const origin = op.resource.inputs?.__origin;
    // Only the kinds that create objects send `__origin` (their definitions' `creates`).
    if (op.type !== "creating" || !recordedKind(op.resource.type) || typeof origin !== "string") continue;
    pending.set(origin, (pending.get(origin) ?? 0) + 1);
  }
  return { startedAt, held, pending };
}

/**
 * How often an export that caught the checkpoint mid-write is tried: 5 attempts, waits of 0.2, 0.4,
 * 0.8 and 1.6 s (3 s in all). The engine replaces the checkpoint many times during an `up`, and
 * the CLI can read it while it is being written (`failed to load checkpoint: EOF`).
 */
export interface ExportRetry {
  attempts: number;
  baseDelayMs: number;
}

export const EXPORT_RETRY: ExportRetry = { attempts: 5, baseDelayMs: 200 };

/** What the CLI says when the checkpoint it read was cut short. */
const CUT_SHORT = /failed to load checkpoint: (unexpected )?EOF|unexpected end of JSON input/i;

/** `pulumi stack export` of `stack`, run in `cwd` (the project directory); `pulumi` is the CLI to run. */
export async function exportStack(stack: string, cwd = process.cwd(), retry: ExportRetry = EXPORT_RETRY, pulumi = pulumiCommand()): Promise<Checkpoint> {
  for (let n = 1; ; n++) {
    const outcome = await exportOnce(pulumi, stack, cwd);
    if (!(outcome instanceof Error)) return outcome;
    if (!CUT_SHORT.test(outcome.message)) throw outcome;
    if (n >= retry.attempts) {
      const over = (retryWaitMs(n - 1, retry) / 1000).toFixed(1);
      throw new PagerDutyError("ERR_STATE", `${outcome.message} (the checkpoint read cut short ${n} times over ${over} s)`);
    }
    await sleep(retry.baseDelayMs * 2 ** (n - 1));
  }
}

/** Sum of the waits before the first `n` retries. */
const retryWaitMs = (n: number, r: ExportRetry) => r.baseDelayMs * (2 ** n - 1);

function exportOnce(pulumi: string, stack: string, cwd: string): Promise<Checkpoint | PagerDutyError> {
  return new Promise((resolve) => {
    execFile(pulumi, ["stack", "export", "--non-interactive", "--stack", stack], { cwd, encoding: "utf8", maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
      if (error) {
        const detail = (stderr || error.message).trim().split("\n").slice(-3).join(" ");
        return resolve(new PagerDutyError("ERR_STATE", `reading the state of stack "${stack}" with \`pulumi stack export\` failed: ${detail}`));
      }
      try {
        resolve(JSON.parse(stdout) as Checkpoint);
      } catch (e) {
        resolve(new PagerDutyError("ERR_STATE", `\`pulumi stack export\` of stack "${stack}" printed no state: ${(e as Error).message}`));
      }
    });
  });
}

export type Exporter = (stack: string) => Promise<Checkpoint>;

/** A stack's fully qualified name (`<organization>/<project>/<stack>`), or a way to find it when first needed. */
export type StackName = string | (() => Promise<string>);

/** The stack's state: its local checkpoint file when the engine keeps one (local-checkpoint.ts), else `pulumi stack export`. */
export const readStack: Exporter = async (stack) => (readLocalCheckpoint(stack) as Checkpoint | undefined) ?? exportStack(stack);

/**
 * The stack's state as this provider process sees it. `interrupted(origin, arrivedAt)` tells whether
 * an earlier run left a create of that declared resource pending. The engine carries pending creates
 * of earlier runs into every checkpoint it writes, and adds one for each create of this run before
 * calling the provider (at most one per resource), so in any export of this run:
 * - no entry for the origin: no earlier run left one;
 * - two or more: an earlier run did;
 * - exactly one: it is this run's own if the export started once the create had reached the
 *   provider (the engine wrote it before); otherwise an export started after the create arrived decides.
 * With PULUMI_SKIP_CHECKPOINTS the engine writes nothing mid-run, so every entry is an earlier run's.
 */
export class StackState {
  private first?: Export;
  private latest?: Export;
  private queued?: Promise<Snapshot>;
  private named?: Promise<string>;

  /** `stack`: the fully qualified name, or how to find it (asked once, when the state is first read). */
  constructor(
    private readonly stack: StackName,
    private readonly exporter: Exporter = readStack,
    private readonly checkpointsWritten = !/^(1|true)$/i.test(process.env.PULUMI_SKIP_CHECKPOINTS ?? ""),
  ) {}

  /** The stack's fully qualified name; a failure to find it is kept, as a failed export is. */
  name(): Promise<string> {
    return (this.named ??= typeof this.stack === "string" ? Promise.resolve(this.stack) : this.stack());
  }

  /** The first export of this process (started on first use). */
  snapshot(): Promise<Snapshot> {
    return (this.first ??= this.start()).snap;
  }

  /**
   * A snapshot whose export started at or after `since`. Callers that arrive while an export runs
   * share the one queued after it, so a burst of creates costs one more export, not one each.
   */
  since(since: number): Promise<Snapshot> {
    const latest = this.latest ?? this.first ?? this.start();
    if (latest.startedAt >= since) return latest.snap;
    return (this.queued ??= latest.snap
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start().snap;
      }));
  }

  async interrupted(origin: string, arrivedAt: number): Promise<boolean> {
    const snap = await this.snapshot();
    const n = snap.pending.get(origin) ?? 0;
    if (n === 0) return false;
    if (n >= 2 || !this.checkpointsWritten) return true;
    if (arrivedAt <= snap.startedAt) return false;
    return ((await this.since(arrivedAt)).pending.get(origin) ?? 0) >= 2;
  }

  /** The URN of the resource of the state that holds `kind/id`, if any (newest export). */
  async holder(kind: string, id: string): Promise<string | undefined> {
    return (await this.holding(kind, id))?.urn;
  }

  /** The resource of the state that holds `kind/id`, if any (newest export). */
  async holding(kind: string, id: string): Promise<Holder | undefined> {
    const snap = await (this.latest ?? this.first ?? this.start()).snap;
    return snap.held.get(heldKey(kind, id));
  }

  private start(): Export {
    // An export retried after a read cut short started later than this: its snapshot is only newer
    // than `startedAt` says, which `interrupted` and `since` can rely on.
    const startedAt = Date.now();
    const e: Export = { startedAt, snap: this.name().then((stack) => this.exporter(stack).then((c) => digest(c, startedAt))) };
    this.first ??= e;
    this.latest = e;
    return e;
  }
}

interface Export {
  startedAt: number;
  snap: Promise<Snapshot>;
}

#!/usr/bin/env node
// pagerduty-recover [--stack NAME] [--cwd DIR] [--dry-run]
// Repairs a stack after an interrupted `pulumi up`: for every pending create of a kind that creates
// objects (the registry's creatingKinds()) it finds the object by the inputs the state recorded and
// records it in the state, so the next `pulumi up` neither fails on the name nor creates a second
// one. A pending create whose resource is already in the state is dropped, one with no object is
// dropped (the next `up` creates it), and when several objects match, nothing is changed and the
// candidates are listed: it never guesses.
//
// Pulumi 3.248's own `pulumi refresh --import-pending-creates URN ID` drops the resource instead of
// importing it, so the state is edited with `pulumi stack export` / `pulumi stack import`, then the
// recorded objects are read with `pulumi refresh --target`. Both doors' resources are recovered: the
// TypeScript SDK's dynamic providers (`pulumi-nodejs:dynamic/pagerduty:<Kind>`) and the package's
// plugin (`pagerduty-dynamic:index:<Kind>`). Each create is looked for in its own account (the
// `account` its inputs recorded), with that account's settings as its provider reads them: the
// stack config under the door's namespace (`pagerduty:*`, or `pagerduty-dynamic:*` for the
// package's default provider) or an explicit provider resource's inputs (read from the state with
// its secrets, in memory), and the PAGERDUTY_* environment; the default account's top-level keys, a
// named one's entry of `accounts`. An account that cannot be searched
// (settings missing or refused) is named with the setting to fix, and then, as for an ambiguous
// match, nothing is changed: `pulumi stack import` drops every pending operation, and a pending
// create is what lets the next `up` adopt its object. Only GET requests are made to PagerDuty;
// nothing secret is printed. A local file backend's checkpoint cut short by a lost machine is
// restored from its .bak first (checkpoint-repair.ts), said on stderr.
import type { ClientOverrides } from "../account/client";
import { type Checkpoint, type Operation, type StateResource, urnName } from "../account/stack-state";
import { DEFAULT_ACCOUNT } from "../config";
import { PagerDutyError, messageOf } from "../errors";
import type { ApiClient } from "../http/client";
import { userInputs } from "../kernel/check";
import { Consistency } from "../kernel/consistency";
import { ACCOUNT_INPUT, accountOf } from "../kernel/account-input";
import { type Door, doorOfType, ownId, recordedType } from "../kernel/recorded-type";
import { NAMESPACES } from "../settings";
import { creatingKindOf, creatingKinds, type CreatingKind, RESOURCES } from "../registry";
import { accountLabel } from "../account/refusal";
import { AccountClients } from "./account-clients";
import { BROKEN_CHECKPOINT, locateStack, repairCheckpoint, restoredMessage } from "./checkpoint-repair";
import { fill, orList, STACK_FLAGS, type StackOptions, stackOptions } from "./command-line";
import { main, systemTerminal, type Command } from "./main";
import { pulumiRunner, type Pulumi, withJsonFile } from "./pulumi-runner";
import { configValues, parseShown, providerSettings } from "./stack-config";

const HELP = `usage: pagerduty-recover [--stack NAME] [--cwd DIR] [--dry-run]

${fill(`Repairs a stack after an interrupted \`pulumi up\`: each pending create of a ${orList(creatingKinds())} is looked
for, in its own account, by the inputs the state recorded. A match is recorded in the state (then read with \`pulumi
refresh --target\`), a create that made nothing or is already in the state is dropped; when several objects match, or an
account cannot be searched, nothing is changed. Only GET requests are made to PagerDuty. It knows the types of both
doors: the TypeScript SDK's (${recordedType("<Kind>")}), searched with the stack config's ${NAMESPACES.dynamic}:* settings,
and the package's (${recordedType("<Kind>", "package")}), searched with its provider's settings: the stack config's
${NAMESPACES.package}:* settings, or an explicit provider resource's inputs.`)}

Options:
  -s, --stack NAME  the stack to repair (default: the selected stack)
  -C, --cwd DIR     the Pulumi project directory (default: the current directory)
  --dry-run         print the plan; change nothing
  -h, --help        show this help
  --version         show the version

Exit codes: 0 repaired (or nothing to do), 1 nothing was changed (an ambiguous match, an account
that could not be searched) or another error, 2 usage.`;

export type RecoverOptions = StackOptions;

// ---- the state ---------------------------------------------------------------------------------

export type { Checkpoint };

/**
 * Whose settings a pending create's provider reads: the stack config of the dynamic providers
 * (`pagerduty:*`) or of the package's default provider (`pagerduty-dynamic:*`), or an explicit
 * provider resource of the package (its URN).
 */
export type SettingsSource = Door | `urn:${string}`;

/** Where a decision was searched, when not the dynamic providers' default account: its account, the package's explicit provider. */
interface Searched {
  account?: string;
  /** The explicit provider resource whose settings were used (its URN). */
  provider?: string;
}

/** What recovery does with one pending create. */
export type Decision =
  | ({ urn: string; kind: "record"; id: string; what: string } & Searched)
  | ({ urn: string; kind: "settled" } & Searched)
  | ({ urn: string; kind: "not-made"; what: string } & Searched)
  | ({ urn: string; kind: "ambiguous"; ids: string[]; what: string } & Searched)
  /** Left pending: its account could not be searched (`reason` names the setting to fix). */
  | { urn: string; kind: "failed"; what: string; account: string; provider?: string; reason: string };

/** Finds, in `account` with the settings of `source`, the ids of the objects matching a pending create's recorded inputs. */
export type Finder = (kind: CreatingKind, inputs: Record<string, unknown>, account: string, source: SettingsSource) => Promise<string[]>;

/** What a pending create would have made, in words: its kind's own description. */
const describe = (kind: CreatingKind, inputs: Record<string, unknown>) => RESOURCES[kind].describe!(inputs);

/** The pending creates of this package's types. */
const pendingCreates = (checkpoint: Checkpoint) =>
  (checkpoint.deployment?.pending_operations ?? []).filter((op) => op.type === "creating" && creatingKindOf(op.resource.type));

/** The package's provider resources are `pulumi:providers:pagerduty-dynamic`; the engine names its default ones `default...`. */
const PACKAGE_PROVIDER = `pulumi:providers:${NAMESPACES.package}::`;

/** Whose settings the provider of a resource reads (see SettingsSource). */
export function settingsSource(resource: StateResource): SettingsSource {
  if (doorOfType(resource.type) !== "package") return "dynamic";
  // The engine's reference to a provider: `<provider URN>::<provider id>`.
  const ref = typeof resource.provider === "string" ? resource.provider : "";
  const urn = ref.slice(0, ref.lastIndexOf("::"));
  const at = urn.indexOf(PACKAGE_PROVIDER);
  if (at < 0 || urn.slice(at + PACKAGE_PROVIDER.length).startsWith("default")) return "package";
  return urn as `urn:${string}`;
}

/** The explicit provider's URN, for the summary; undefined for a stack config. */
const explicitProvider = (source: SettingsSource) => (source.startsWith("urn:") ? source : undefined);

/** A recorded `account` that is not a plain name (a secret): no account can be searched for it. */
const UNREADABLE = "(unreadable)";

function recordedAccount(props: Record<string, unknown> | undefined): string {
  const a = props?.[ACCOUNT_INPUT];
  return a === undefined || typeof a === "string" ? accountOf(props) : UNREADABLE;
}

/** The inputs a finder compares: the resource's own, without bookkeeping and the account. */
function ownInputs(recorded: Record<string, unknown> | undefined): Record<string, unknown> {
  const { [ACCOUNT_INPUT]: _, ...rest } = userInputs(recorded ?? {});
  return rest;
}

/**
 * Decides, for each pending create of this package's types, whether the object exists, looking in
 * the create's own account only. Ids already in the state and ids matched to another pending create
 * of the same account are never offered twice. An account that cannot be searched (settings missing
 * or refused, the API unreachable) has its creates "failed", undecided; the other accounts are
 * decided all the same. A create whose resource is in the state needs no search.
 */
export async function plan(checkpoint: Checkpoint, find: Finder): Promise<Decision[]> {
  const resources = checkpoint.deployment?.resources ?? [];
  const inState = new Set(resources.map((r) => r.urn));
  // The package records an object imported under its service by `<service id>/<id>`.
  const taken = new Set(
    resources
      .filter((r) => creatingKindOf(r.type) && r.id)
      .map((r) => takenKey(settingsSource(r), recordedAccount(r.inputs ?? r.outputs), creatingKindOf(r.type)!, ownId(r.id!))),
  );
  const groups = new Map<string, { source: SettingsSource; account: string; ops: Operation[] }>();
  for (const op of pendingCreates(checkpoint)) {
    const source = settingsSource(op.resource);
    const account = recordedAccount(op.resource.inputs);
    const key = JSON.stringify([source, account]);
    const group = groups.get(key) ?? { source, account, ops: [] };
    group.ops.push(op);
    groups.set(key, group);
  }
  // The dynamic providers' default account first, then the package's, then the rest by name.
  const rank = (g: { source: SettingsSource; account: string }) => [
    Number(g.account !== DEFAULT_ACCOUNT),
    Number(g.source !== "dynamic"),
    Number(g.source !== "package"),
  ];
  const order = [...groups.values()].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || a.source.localeCompare(b.source) || a.account.localeCompare(b.account);
  });
  const decisions: Decision[] = [];
  for (const g of order) decisions.push(...(await planAccount(g.source, g.account, g.ops, inState, taken, find)));
  return decisions;
}

/**
 * An object the state (or an earlier decision) takes, per account of a provider's settings and kind:
 * ids are unique within one account only, and another provider's settings may name another account.
 */
const takenKey = (source: SettingsSource, account: string, kind: string, id: string) => JSON.stringify([source, account, kind, id]);

async function planAccount(
  source: SettingsSource,
  account: string,
  ops: Operation[],
  inState: ReadonlySet<string>,
  taken: Set<string>,
  find: Finder,
): Promise<Decision[]> {
  const provider = explicitProvider(source);
  const named: Searched = { ...(account === DEFAULT_ACCOUNT ? {} : { account }), ...(provider ? { provider } : {}) };
  // Services first: children of a recorded service are found through it.
  const pending = [...ops].sort((a, b) => Number(creatingKindOf(a.resource.type) !== "Service") - Number(creatingKindOf(b.resource.type) !== "Service"));
  const decisions: Decision[] = [];
  const claimed: string[] = [];
  try {
    if (account === UNREADABLE)
      throw new PagerDutyError(
        "ERR_STATE",
        `the recorded "${ACCOUNT_INPUT}" input is not a plain account name (a secret?), so the account to search is not known`,
      );
    for (const op of pending) {
      const { urn, type } = op.resource;
      if (inState.has(urn)) {
        decisions.push({ urn, kind: "settled", ...named });
        continue;
      }
      const kind = creatingKindOf(type)!;
      const inputs = ownInputs(op.resource.inputs);
      const what = describe(kind, inputs);
      const ids = (await find(kind, inputs, account, source)).filter((id) => !taken.has(takenKey(source, account, kind, id)));
      if (ids.length === 1) {
        taken.add(takenKey(source, account, kind, ids[0]));
        claimed.push(takenKey(source, account, kind, ids[0]));
        decisions.push({ urn, kind: "record", id: ids[0], what, ...named });
      } else if (ids.length === 0) decisions.push({ urn, kind: "not-made", what, ...named });
      else decisions.push({ urn, kind: "ambiguous", ids: [...ids].sort(), what, ...named });
    }
    return decisions;
  } catch (e) {
    for (const key of claimed) taken.delete(key);
    const reason = messageOf(e);
    return pending.map((op) => {
      const { urn, type } = op.resource;
      return inState.has(urn)
        ? { urn, kind: "settled", ...named }
        : { urn, kind: "failed", what: describe(creatingKindOf(type)!, ownInputs(op.resource.inputs)), account, ...(provider ? { provider } : {}), reason };
    });
  }
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
    if (!d || d.kind === "ambiguous" || d.kind === "failed") kept.push(op);
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
  const deps = (r: StateResource) =>
    [r.parent, ...((r.dependencies as string[] | undefined) ?? [])].filter((u): u is string => typeof u === "string" && urns.has(u));
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

/** Objects matching recorded inputs, through one account's API (GET only), as the provider finds them. */
export function findIn(client: ApiClient, kind: CreatingKind, inputs: Record<string, unknown>): Promise<string[]> {
  return RESOURCES[kind].findExisting!(client, inputs);
}

/**
 * Each account searched with its own client, made from the settings its provider reads (`clients`
 * of each source). The service shows a new object late (kernel/consistency.ts): a search that finds
 * nothing is asked again until the account's window has passed since `since`, when the interrupted
 * run may last have created something.
 */
export const finderIn =
  (clientsOf: (source: SettingsSource) => AccountClients, since?: number): Finder =>
  (kind, inputs, account, source) => {
    const clients = clientsOf(source);
    return clients.use(account, (client) => {
      if (since === undefined) return findIn(client, kind, inputs);
      const consistency = new Consistency({ windowMs: clients.settings(account).consistencyWindowMs });
      return consistency.search(since, () => findIn(client, kind, inputs));
    });
  };

/** When the stack's state was last written: the interrupted run made nothing after it ended (undefined: not recorded). */
function lastWritten(checkpoint: Checkpoint): number | undefined {
  const manifest = checkpoint.deployment?.manifest as { time?: unknown } | undefined;
  const t = typeof manifest?.time === "string" ? Date.parse(manifest.time) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

// ---- the summary -------------------------------------------------------------------------------

/** Where a decision was searched, in words (nothing for the dynamic providers' default account). */
const searchedIn = (d: Searched) =>
  [d.account ? `account "${d.account}"` : "", d.provider ? `provider ${providerName(d.provider)}` : ""].filter(Boolean).join(", ");

const inAccount = (d: Searched) => (searchedIn(d) ? `, ${searchedIn(d)}` : "");

/** An explicit provider resource by its name (the URN's last part). */
const providerName = (urn: string) => `"${urnName(urn)}"`;

/** Who could not be searched: an account, and the explicit provider whose settings it was given. */
const searchedLabel = (account: string, provider?: string) => `${accountLabel(account)}${provider ? ` of provider ${providerName(provider)}` : ""}`;

function report(decisions: readonly Decision[]): string {
  const lines = decisions.map((d) => {
    switch (d.kind) {
      case "record":
        return `  record    ${d.urn} -> ${d.id} (${d.what}${inAccount(d)})`;
      case "settled":
        return `  settled   ${d.urn} (${searchedIn(d) ? `${searchedIn(d)}; ` : ""}already in the state; the stale pending create is dropped)`;
      case "not-made":
        return `  not made  ${d.urn} (no ${d.what} matches${inAccount(d)}; \`pulumi up\` creates it)`;
      case "ambiguous":
        return `  AMBIGUOUS ${d.urn}: ${d.ids.length} objects match (${d.what}${inAccount(d)}): ${d.ids.join(", ")}`;
      case "failed":
        return (
          `  FAILED    ${d.urn} (${d.what}${inAccount({ ...d, account: d.account === DEFAULT_ACCOUNT ? undefined : d.account })}): left pending, ` +
          `${searchedLabel(d.account, d.provider)} could not be searched`
        );
    }
  });
  return lines.join("\n");
}

/** Why each account that could not be searched failed, once per account (and explicit provider), by its label. */
function failures(decisions: readonly Decision[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of decisions) {
    const label = d.kind === "failed" ? searchedLabel(d.account, d.provider) : undefined;
    if (d.kind === "failed" && label && !out.has(label)) out.set(label, d.reason);
  }
  return out;
}

// ---- the command -------------------------------------------------------------------------------

/** What recover talks to; tests replace the pulumi CLI and the HTTP transport. */
export interface RecoverDeps {
  pulumi?: Pulumi;
  /** `pulumi whoami --json` (the backend URL), asked only when the checkpoint does not load. */
  whoami?: () => string;
  env?: NodeJS.ProcessEnv;
  clients?: ClientOverrides;
  /** Where what was repaired is said (stderr). */
  err?: (line: string) => void;
}

/**
 * `pulumi stack export`. A checkpoint that does not load is checked in the local file backend: if
 * it is cut short and its .bak is whole, the .bak is restored; if only its `.attrs` sidecar is, the
 * sidecar is moved aside (saying so either way), and the export runs again.
 */
function exportState(opts: RecoverOptions, pulumi: Pulumi, deps: RecoverDeps): Checkpoint {
  try {
    return JSON.parse(pulumi(["stack", "export"])) as Checkpoint;
  } catch (e) {
    if (!(e instanceof Error) || !BROKEN_CHECKPOINT.test(e.message)) throw e;
    // `whoami` takes no --stack.
    const whoami = deps.whoami ?? (() => pulumiRunner({ cwd: opts.cwd })(["whoami", "--json"]));
    const repair = repairCheckpoint(locateStack(pulumi, whoami), opts.cwd);
    if (repair.kind === "not-local") throw e;
    if (repair.kind === "restored" || repair.kind === "sidecar") (deps.err ?? systemTerminal.say)(`pagerduty-recover: ${restoredMessage(repair)}`);
    return JSON.parse(pulumi(["stack", "export"])) as Checkpoint;
  }
}

/**
 * The account clients of each settings source, made on first use: the stack config is read once
 * (`pulumi config --show-secrets`), and the state with its secrets (`pulumi stack export
 * --show-secrets`) only for an explicit provider's settings; both stay in memory.
 */
class SourceClients {
  private config?: string;
  private secretState?: Checkpoint;
  private readonly made = new Map<SettingsSource, AccountClients>();

  constructor(
    private readonly pulumi: Pulumi,
    private readonly deps: RecoverDeps,
  ) {}

  of(source: SettingsSource): AccountClients {
    let found = this.made.get(source);
    if (!found) {
      // The settings named as the provider reads them: the package's under its own namespace.
      const namespace = NAMESPACES[source === "dynamic" ? "dynamic" : "package"];
      found = new AccountClients(this.settings(source), this.deps.env ?? process.env, this.deps.clients, namespace);
      this.made.set(source, found);
    }
    return found;
  }

  private settings(source: SettingsSource): Map<string, string> {
    if (source === "dynamic" || source === "package") return configValues((this.config ??= this.pulumi(["config", "--json", "--show-secrets"])), source);
    this.secretState ??= parseShown(this.pulumi(["stack", "export", "--show-secrets"]), "stack export --show-secrets") as Checkpoint;
    const provider = this.secretState.deployment?.resources?.find((r) => r.urn === source);
    if (!provider) throw new PagerDutyError("ERR_STATE", `the provider resource ${source} is not in the stack's state`);
    return providerSettings(provider.inputs ?? {});
  }

  async close(): Promise<void> {
    await Promise.all([...this.made.values()].map((c) => c.close()));
  }
}

/** `out` receives the report's lines (stdout); 1 when nothing could be changed, a failure is thrown. */
export async function recover(opts: RecoverOptions, out: (line: string) => void, deps: RecoverDeps = {}): Promise<number> {
  const pulumi = deps.pulumi ?? pulumiRunner(opts);
  const checkpoint = exportState(opts, pulumi, deps);
  const interrupted = pendingCreates(checkpoint);
  if (!interrupted.length) {
    out("pagerduty-recover: no interrupted creates in the stack's state; nothing to do");
    return 0;
  }
  const clients = new SourceClients(pulumi, deps);
  let decisions: Decision[];
  try {
    // Without a recorded time, the run may have ended just now.
    decisions = await plan(
      checkpoint,
      finderIn((source) => clients.of(source), lastWritten(checkpoint) ?? Date.now()),
    );
  } finally {
    await clients.close();
  }
  out(`pagerduty-recover: ${interrupted.length} interrupted create(s):\n${report(decisions)}`);
  const failed = failures(decisions);
  for (const [label, reason] of failed) out(`${label}: ${reason}`);
  const ambiguous = decisions.some((d) => d.kind === "ambiguous");
  if (ambiguous || failed.size) {
    // `pulumi stack import` drops every pending operation of the state it writes, and a pending
    // create is what lets the next `up` (on any runner) adopt its object instead of making a second
    // one: the state is written only once every pending create is decided.
    const todo = [
      ...(ambiguous
        ? ["which object belongs to the state is not certain for the AMBIGUOUS ones: delete the extra objects in PagerDuty (keep one of each)"]
        : []),
      ...(failed.size ? [`${[...failed.keys()].join(", ")} could not be searched: fix the settings named above`] : []),
    ];
    out(
      `Nothing was changed: ${todo.join("; ")}. Then run \`npx --no-install pagerduty-recover\` again` +
        (failed.size
          ? " (writing the state back would drop the pending creates left undecided, which the next `pulumi up` needs to adopt their objects)."
          : "."),
    );
    return 1;
  }
  const recorded = decisions.filter((d) => d.kind === "record").map((d) => d.urn);
  const refresh = ["refresh", "--yes", "--skip-preview", ...recorded.flatMap((u) => ["--target", u])];
  if (opts.dryRun) {
    out(
      `Dry run: nothing was changed. Without --dry-run this edits the state (pulumi stack ` +
        `export/import)${recorded.length ? ` and runs: pulumi ${refresh.join(" ")}` : ""}`,
    );
    return 0;
  }
  withJsonFile("pagerduty-recover-", apply(checkpoint, decisions), (file) => pulumi(["stack", "import", "--file", file]));
  if (recorded.length) pulumi(refresh);
  out(`Done: ${recorded.length} object(s) recorded in the state, ${decisions.length - recorded.length} pending create(s) dropped. Run \`pulumi up\` next.`);
  return 0;
}

export const RECOVER: Command<typeof STACK_FLAGS, RecoverOptions> = {
  bin: "pagerduty-recover",
  help: HELP,
  flags: STACK_FLAGS,
  options: stackOptions,
  run: (opts, terminal) => recover(opts, (line) => terminal.out(`${line}\n`), { err: terminal.say }),
};

if (require.main === module) main(RECOVER);

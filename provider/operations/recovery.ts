// Creates that survive interruptions. A create whose outcome is unknown (the deployment was killed
// after the POST left, or its reply was lost to a timeout, a reset or a 5xx) may have made an
// object. Before making another, the provider looks for it, and adopts it only with proof that it
// came from this declared resource and that no other resource of the stack holds it. Two records
// say a create of this resource was interrupted:
// - this machine's journal (written before the POST leaves): the object must also have been created
//   after the intent, by the same credential, and be the only one that qualifies;
// - the stack's own state, which every runner shares: the engine keeps an interrupted run's pending
//   create there (inputs and `__origin`), so a fresh CI runner finds it; the object must match the
//   declared identifying inputs and be the only one no resource of the stack holds.
// Otherwise it creates (nothing qualifies) or fails listing the candidates. The uninterrupted path
// makes no request for this: the journal is local and the state is read once per process.
// PagerDuty is eventually consistent (kernel/consistency.ts): a search that finds nothing is
// believed only once an object the interrupted create made would be visible, so a lagging listing
// cannot cause a second create.
import type { AccountContext } from "../account/context";
import type { Intent } from "../account/journal";
import { ApiError, NetworkError, PagerDutyError, messageOf } from "../errors";
import { DEFAULT_TRANSPORT } from "../http/transport";
import * as say from "./recovery-messages";

export { RECOVER_COMMAND } from "./recovery-messages";

/** Origin of a lost-reply search for a create without `__origin`: matches no journal entry. */
const UNJOURNALED = "unjournaled:";

/** How far before the recorded intent a creation time may lie (clock differences). */
const CLOCK_SKEW_MS = 60_000;

/** An object that may be the one an interrupted create made. */
export interface Candidate {
  id: string;
  /** Epoch ms of its creation. */
  createdAt: number;
  /** Credential of its create record, as audit records show it ("****abcd"); undefined when unknown. */
  credential?: string;
}

export interface CreateSpec<T> {
  /** The definition of the kind being made, one that `creates` (the registry's creatingKinds()). */
  definition: { readonly kind: string };
  /** `__origin` from the inputs; without it (a program built with an older SDK) nothing is journaled. */
  origin: unknown;
  /** Words for messages, e.g. `service "Checkout"`. */
  what: string;
  /** Parent service of a child object. */
  parent?: string;
  /** Sends the POST; resolves with the new object's id. */
  post(): Promise<{ id: string; value: T }>;
  /** Whether the object still exists. */
  exists(id: string): Promise<boolean>;
  /** Objects matching the declared identifying inputs, created at or after `since` (epoch ms). */
  find(since: number): Promise<Candidate[]>;
  /** Ids of every object matching the declared identifying inputs, whenever and by whom it was made (the resource's findExisting, for these inputs). */
  findExisting(): Promise<string[]>;
}

/** `created`: the POST's reply; `adopted`: an object an interrupted create made, to be brought to the declared values. */
export type CreateOutcome<T> = { id: string; created: T } | { id: string; adopted: true };

export class AmbiguousCreateError extends PagerDutyError {
  readonly candidates: string[];
  constructor(message: string, candidates: string[]) {
    super("ERR_CONFLICT", message);
    this.name = "AmbiguousCreateError";
    this.candidates = candidates;
  }
}

/** A create whose reply was lost and whose outcome could not be settled. */
export class LostReplyError extends PagerDutyError {
  constructor(message: string, cause: unknown) {
    super(cause instanceof NetworkError ? "ERR_NETWORK" : "ERR_API", message, { cause });
    this.name = "LostReplyError";
  }
}

/** Whether a failed POST may nevertheless have been carried out. */
export function outcomeUnknown(e: unknown): boolean {
  if (e instanceof NetworkError) return e.sent;
  return e instanceof ApiError && e.status >= 500;
}

/** What happened to a request whose reply never came, in words. */
export function lostReplyReason(e: unknown): string {
  if (e instanceof ApiError) return `PagerDuty answered ${e.status}${e.apiMessage ? ` (${e.apiMessage})` : ""} after the request was sent`;
  if (e instanceof NetworkError) {
    switch (e.reason) {
      case "UND_ERR_HEADERS_TIMEOUT":
        return `no reply came within ${DEFAULT_TRANSPORT.headersTimeoutMs / 1000} s, the provider's wait for a reply`;
      case "UND_ERR_BODY_TIMEOUT":
        return "the reply stopped arriving before the timeout";
      case "ECONNRESET":
      case "EPIPE":
      case "UND_ERR_SOCKET":
      case "UND_ERR_CLOSED":
        return "the connection was closed before the reply arrived";
      default:
        return `the connection failed after the request was sent (${e.reason})`;
    }
  }
  return messageOf(e);
}

/**
 * Creates the object, or finds the one an interrupted or unanswered earlier create of the same
 * declared resource made. See the file comment for what counts as proof.
 */
export async function createOnce<T>(ctx: AccountContext, spec: CreateSpec<T>): Promise<CreateOutcome<T>> {
  const arrivedAt = Date.now();
  const origin = typeof spec.origin === "string" && spec.origin ? spec.origin : undefined;
  const prior = origin ? ctx.journal.load(origin) : undefined;
  // An entry of another API is of objects this one cannot show: searching would only wait out the window.
  const ours =
    prior !== undefined && prior.kind === spec.definition.kind && prior.parent === spec.parent && (prior.api ?? ctx.client.apiUrl) === ctx.client.apiUrl;
  const id = ours ? await resume(ctx, spec, prior) : origin ? await resumeFromState(ctx, spec, origin, arrivedAt) : undefined;
  if (id) {
    ctx.journal.claim(spec.definition.kind, id);
    ctx.consistency.created(spec.definition.kind, id);
    return { id, adopted: true };
  }
  return send(ctx, spec, origin);
}

/** When this process started: an interrupted earlier run made its objects before then. */
const processStart = Math.round(performance.timeOrigin);

/**
 * Candidates no other resource holds: not in the stack's state, not created or adopted by this
 * process for another resource, not recorded in this machine's journal for another resource. Without
 * the stack's state nothing can be proven free, and the create fails naming the recovery command.
 */
async function unheld(ctx: AccountContext, spec: CreateSpec<unknown>, ids: string[], origin: string, withState = true): Promise<string[]> {
  const state = withState ? ctx.stack : undefined;
  const free: string[] = [];
  for (const id of ids) {
    const claimant = ctx.journal.claimant(spec.definition.kind, id);
    if (ctx.journal.claimed(spec.definition.kind, id) || (claimant !== undefined && claimant !== origin)) continue;
    let holder: string | undefined;
    if (!withState) {
      free.push(id);
      continue;
    }
    try {
      if (!state) throw new PagerDutyError("ERR_STATE", say.NO_STACK_NAME);
      holder = await state.holder(spec.definition.kind, id);
    } catch (e) {
      throw new PagerDutyError("ERR_STATE", say.holderUnknown(spec.what, id, e));
    }
    if (holder === undefined) free.push(id);
  }
  return free;
}

/**
 * On a machine without this resource's journal entry: whether the stack's state keeps a create of it
 * that an earlier run left pending, and if so the one object it made. See StackState.interrupted.
 */
async function resumeFromState<T>(ctx: AccountContext, spec: CreateSpec<T>, origin: string, arrivedAt: number): Promise<string | undefined> {
  const state = ctx.stack;
  if (!state) return undefined;
  let interrupted: boolean;
  try {
    interrupted = await state.interrupted(origin, arrivedAt);
  } catch (e) {
    await ctx.warnOnce("stack-state", say.stateUnreadable(e));
    return undefined;
  }
  if (!interrupted) return undefined;
  // The interrupted run ended before this process started; what it made may still be invisible.
  const free = await ctx.consistency.search(processStart, async () => unheld(ctx, spec, await spec.findExisting(), origin));
  if (free.length > 1) {
    const ids = [...free].sort();
    throw new AmbiguousCreateError(say.severalInState(spec.what, ids), ids);
  }
  if (free.length === 0) return undefined;
  await ctx.warn(say.adoptedFromState(spec.what, free[0]));
  return free[0];
}

/** The object an earlier, interrupted create of this resource made, if there is one and it is provable. */
async function resume<T>(ctx: AccountContext, spec: CreateSpec<T>, prior: Intent): Promise<string | undefined> {
  if (prior.id) {
    const id = prior.id;
    const seen = await ctx.consistency.search(prior.sentAt, async () => ((await spec.exists(id)) ? [id] : []));
    if (!seen.length || !(await unheld(ctx, spec, [id], prior.origin)).length) return undefined;
    await adopted(ctx, spec, prior, prior.id, say.JOURNAL_KEPT_ID);
    return prior.id;
  }
  return search(ctx, spec, prior, say.JOURNAL_KEPT_REQUEST);
}

/**
 * Looks for the object an unanswered create made: one qualifying candidate is adopted, none means
 * the create was not carried out, several fail with the list.
 */
async function search<T>(ctx: AccountContext, spec: CreateSpec<T>, intent: Intent, story: string, withState = true): Promise<string | undefined> {
  // Asked again until the window since the create was sent has passed: what it made may still be invisible.
  const free = await ctx.consistency.search(intent.sentAt, async () => {
    const found = (await spec.find(intent.sentAt - CLOCK_SKEW_MS)).filter(
      (c) => c.createdAt >= intent.sentAt - CLOCK_SKEW_MS && c.credential !== undefined && c.credential === intent.credential,
    );
    const freeIds = new Set(
      found.length
        ? await unheld(
            ctx,
            spec,
            found.map((c) => c.id),
            intent.origin,
            withState,
          )
        : [],
    );
    return found.filter((c) => freeIds.has(c.id));
  });
  if (free.length > 1) {
    const ids = free.map((c) => c.id).sort();
    throw new AmbiguousCreateError(say.severalFound(spec.what, ids), ids);
  }
  if (free.length === 0) return undefined;
  await adopted(ctx, spec, intent, free[0].id, story);
  return free[0].id;
}

async function adopted<T>(ctx: AccountContext, spec: CreateSpec<T>, intent: Intent, id: string, story: string): Promise<void> {
  if (!intent.origin.startsWith(UNJOURNALED)) await safely(ctx, () => ctx.journal.done(intent, id));
  await ctx.warn(say.adoptedInstead(spec.what, id, story));
}

/**
 * Writes to the journal; a journal that cannot be written (read-only home, full disk) must not stop
 * the deployment, so it is reported once and the create goes on unprotected.
 */
async function safely(ctx: AccountContext, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    await ctx.warnOnce("journal", say.journalUnwritable(ctx.journal.dir, e));
  }
}

async function send<T>(ctx: AccountContext, spec: CreateSpec<T>, origin: string | undefined): Promise<CreateOutcome<T>> {
  const intent: Intent = {
    origin: origin ?? "",
    kind: spec.definition.kind,
    ...(spec.parent !== undefined ? { parent: spec.parent } : {}),
    sentAt: Date.now(),
    api: ctx.client.apiUrl,
    // Only needed to recognise the object later: journaled creates and lost replies.
    credential: origin ? await ctx.client.credentialTail() : "",
  };
  if (origin) await safely(ctx, () => ctx.journal.begin(intent));
  let first: unknown;
  /** Sends the POST and records what its reply made. */
  // A child's parent made moments ago may answer 404 for a while: nothing was made, so it is asked again.
  const parentSince = spec.parent === undefined ? undefined : ctx.consistency.createdAt("Service", spec.parent);
  const post = async (): Promise<CreateOutcome<T>> => {
    const r = spec.parent === undefined ? await spec.post() : await ctx.consistency.untilVisible(parentSince, () => spec.post());
    ctx.journal.claim(spec.definition.kind, r.id);
    ctx.consistency.created(spec.definition.kind, r.id);
    if (origin) await safely(ctx, () => ctx.journal.done(intent, r.id));
    return { id: r.id, created: r.value };
  };
  try {
    return await post();
  } catch (e) {
    if (!outcomeUnknown(e)) {
      // Refused: nothing was made, so no later create of this resource should look for it.
      if (origin) await safely(ctx, () => ctx.journal.discard(intent));
      throw e;
    }
    first = e;
  }
  // The request left but its reply was lost: find out whether the object was made.
  const reason = lostReplyReason(first);
  let id: string | undefined;
  try {
    intent.credential ||= await ctx.client.credentialTail();
    // Objects of earlier runs were made before this request was sent, so the stack's state is not needed.
    id = await search(ctx, spec, { ...intent, origin: intent.origin || `${UNJOURNALED}${intent.sentAt}` }, say.lostReplyStory(reason), false);
  } catch (e) {
    if (e instanceof AmbiguousCreateError) throw e;
    throw new LostReplyError(say.searchFailed(spec.what, reason, e, Boolean(origin)), first);
  }
  if (id) {
    ctx.journal.claim(spec.definition.kind, id);
    ctx.consistency.created(spec.definition.kind, id);
    return { id, adopted: true };
  }
  // Provably not made: creating it now cannot duplicate it.
  try {
    return await post();
  } catch (e) {
    const again = outcomeUnknown(e);
    const failure = again ? lostReplyReason(e) : messageOf(e);
    throw new LostReplyError(say.resendFailed(spec.what, reason, failure, again, Boolean(origin)), e);
  }
}

// One provider factory: every resource kind gets from its definition the same check, diff, 404
// handling, journal settling, drift report and error reporting, and its own code only maps the API.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { AccountContext } from "../account/context";
import { accountNameProblem } from "../config";
import { ConfigError } from "../errors";
import type { ApiClient } from "../http/client";
import { ACCOUNT_INPUT, accountOf, withoutAccount } from "../kernel/account-input";
import { checkInputs, UNKNOWN } from "../kernel/check";
import { CREATED_AT_KEY, recordedCreation } from "../kernel/consistency";
import { recordDeclared, withReadInputs } from "../kernel/declared";
import { diffRules, outputShape, type ResourceDefinition } from "../kernel/define";
import { diffManaged } from "../kernel/diff";
import { serverMaintained, unmanagedChanges } from "../kernel/drift";
import { deleteOrGone, readOrGone, updateOrGone } from "../kernel/gone";
import { PartialCreateError } from "../kernel/partial";
import { withServiceNotFoundHint } from "./service-hint";

type Props = Record<string, unknown>;

/** What a resource module provides: its definition and the API calls behind each operation. */
export interface Resource {
  definition: ResourceDefinition;
  /** What the object is, in messages (an update that finds it gone). */
  subject(id: string, props: Props): string;
  /**
   * Checks the schema cannot make (references the account must have), once the schema passes.
   * `olds` are the inputs of the last deployment ({} for a new resource).
   */
  verify?(ctx: AccountContext, news: Props, olds: Props): Promise<dynamic.CheckFailure[]>;
  /** A diff of its own (default: the managed fields, with the definition's replace rules). */
  diff?(olds: Props, news: Props): dynamic.DiffResult;
  /**
   * Takes over the existing object `id` and brings its managed fields to the declared values: the
   * create of a program that sets `adoptId`, and of an interrupted create's object (kernel/recovery.ts).
   */
  adopt?(ctx: AccountContext, id: string, news: Props): Promise<dynamic.CreateResult>;
  create(ctx: AccountContext, news: Props): Promise<dynamic.CreateResult>;
  /** 404 means gone: the factory drops it from the state. */
  read(ctx: AccountContext, id: string, props: Props): Promise<dynamic.ReadResult>;
  /** 404 fails naming `subject` and the way out. Without it, every change replaces. */
  update?(ctx: AccountContext, id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult>;
  /** 404 means done. */
  delete(ctx: AccountContext, id: string, props: Props): Promise<void>;
  /** Kinds that create objects: what one is, in words, from its recorded inputs (`service "Checkout"`). */
  describe?(inputs: Props): string;
  /** Kinds that create objects: ids of the objects matching the identifying inputs (recovery; GET only). */
  findExisting?(client: ApiClient, inputs: Props): Promise<string[]>;
}


/**
 * The account of `inputs` carried into what an operation reports, so read and delete find it (and
 * into the inputs a read rebuilds, kernel/declared.ts).
 */
function carryAccount<T extends { outs?: Props } | { props?: Props; inputs?: Props }>(result: T, from: Props | undefined): T {
  const a = from?.[ACCOUNT_INPUT];
  if (typeof a !== "string") return result;
  if ("outs" in result && result.outs) return { ...result, outs: { ...result.outs, [ACCOUNT_INPUT]: a } };
  if ("inputs" in result && result.inputs) result = { ...result, inputs: { ...result.inputs, [ACCOUNT_INPUT]: a } };
  if ("props" in result && result.props) return { ...result, props: { ...result.props, [ACCOUNT_INPUT]: a } };
  return result;
}

/**
 * The creation time a create records in state (kernel/consistency.ts), carried through reads and
 * updates like the account, so a 404 of a young object is waited out by later processes too.
 */
function carryStamp<T extends { outs?: Props } | { props?: Props }>(result: T, stamp: unknown): T {
  if (typeof stamp !== "number") return result;
  if ("outs" in result && result.outs) return { ...result, outs: { ...result.outs, [CREATED_AT_KEY]: stamp } };
  if ("props" in result && result.props) return { ...result, props: { ...result.props, [CREATED_AT_KEY]: stamp } };
  return result;
}

/** Why the `account` input is unusable, as a check failure (undefined: it is fine or not known yet). */
function accountFailure(news: Props): dynamic.CheckFailure | undefined {
  const a = news?.[ACCOUNT_INPUT];
  if (a === undefined || a === UNKNOWN) return undefined;
  const problem = accountNameProblem(a);
  return problem ? { property: "", reason: `${ACCOUNT_INPUT}: ${problem}` } : undefined;
}

/**
 * The engine's provider for a resource kind. `contextOf` gives the context of the account a call
 * names (configure has set the deployment up by then).
 */
export function makeProvider(resource: Resource, contextOf: (account: string) => AccountContext): Required<Omit<dynamic.ResourceProvider, "configure">> {
  const { definition } = resource;
  const kind = definition.kind;
  const maintained = serverMaintained(definition);
  const stamped = !("createdAt" in outputShape(definition));
  // What create and update report carries what the program declared, for the inputs `read` rebuilds.
  const declared = <T extends { outs?: Props }>(result: T, news: Props): T => ({ ...result, outs: recordDeclared(definition, result.outs, news) });
  // Once the engine shows it knows an id (it diffs, reads, updates or deletes it), the state, not
  // the intent journal, says which resource owns it: the journal forgets it (one GET less per
  // object on the next `up` after a destroy).
  const settle = (id: string, props: Props) => {
    if (!definition.origin) return;
    try {
      contextOf(accountOf(props)).journal.settle(kind, id);
    } catch {
      // no account yet (no usable settings): nothing was journaled by this process either
    }
  };

  /** When the object was made, if this process or its state knows (undefined: its age is unknown). */
  const youngSince = (ctx: AccountContext, id: string, props: Props | undefined) => ctx.consistency.createdAt(kind, id) ?? recordedCreation(props);

  return {
    async check(olds, news) {
      // The SDK passes `__conflict` when another resource of the program claims the same unique
      // value (a service's name, an integration's address; sdk/unique-names.ts). No property is
      // named, so the engine prints the message without dumping the inputs.
      if (typeof news?.__conflict === "string") return { failures: [{ property: "", reason: news.__conflict }] };
      const badAccount = accountFailure(news);
      if (badAccount) return { inputs: news, failures: [badAccount] };
      const own = checkInputs(definition.inputs, withoutAccount(news));
      const checked = own.inputs && news?.[ACCOUNT_INPUT] !== undefined ? { ...own, inputs: { ...own.inputs, [ACCOUNT_INPUT]: news[ACCOUNT_INPUT] } } : own;
      if (checked.failures?.length || news?.[ACCOUNT_INPUT] === UNKNOWN) return checked;
      let ctx: AccountContext;
      try {
        ctx = contextOf(accountOf(news));
      } catch (e) {
        // An account the stack config does not declare (or declares incompletely) fails here, on
        // the resource that names it; anything else is configure's to report.
        if (e instanceof ConfigError) return { inputs: news, failures: [{ property: "", reason: e.message }] };
        return checked;
      }
      if (!resource.verify) return checked;
      const failures = await resource.verify(ctx, withoutAccount(news), withoutAccount(olds ?? {}));
      return failures.length ? { inputs: news, failures } : checked;
    },

    async diff(id, olds, news) {
      settle(id, olds);
      // Another account holds other objects: the change replaces (created there, deleted here).
      if (news?.[ACCOUNT_INPUT] !== UNKNOWN && accountOf(olds) !== accountOf(news)) {
        return { changes: true, replaces: [ACCOUNT_INPUT], deleteBeforeReplace: false };
      }
      [olds, news] = [withoutAccount(olds), withoutAccount(news)];
      const result = resource.diff ? resource.diff(olds, news) : diffManaged(olds, news, diffRules(definition));
      // The opt-in drift report of unset fields (kernel/drift.ts): the state this run's read replaced.
      // A diff needs no account otherwise, so one that cannot be made is no reason to fail here.
      let ctx: AccountContext;
      try {
        ctx = contextOf(accountOf(news));
      } catch {
        return result;
      }
      const recorded = ctx.drift.take(kind, id);
      if (!recorded || result.changes || !ctx.driftAllFields) return result;
      return unmanagedChanges(recorded, olds, news, maintained).length ? { ...result, changes: true } : result;
    },

    async create(inputs) {
      const ctx = contextOf(accountOf(inputs));
      const news = withoutAccount(inputs);
      // Adoption by id: the object exists already; nothing is created.
      const adoptId = news?.adoptId;
      if (resource.adopt && typeof adoptId === "string" && adoptId) return carryAccount(declared(await resource.adopt(ctx, adoptId, news), news), inputs);
      // The state records when what this process made was made, so a later process can tell a 404 of
      // it from lag: the API's `createdAt` where the kind has one, else a stamp of ours (the object's
      // own create, or that of the service whose settings it holds).
      const stamp = (id: string, outs: Props | undefined) =>
        stamped ? ctx.consistency.createdAt(kind, id) ?? (typeof outs?.service === "string" ? ctx.consistency.createdAt("Service", outs.service) : undefined) : undefined;
      try {
        const made = await resource.create(ctx, news);
        return carryAccount(carryStamp(declared(made, news), stamp(made.id, made.outs)), inputs);
      } catch (e) {
        if (e instanceof PartialCreateError) Object.assign(e.properties, stamped ? { [CREATED_AT_KEY]: stamp(e.id, e.properties) } : {}, typeof inputs?.[ACCOUNT_INPUT] === "string" ? { [ACCOUNT_INPUT]: inputs[ACCOUNT_INPUT] } : {});
        // A child's service not found may live in another account: say which was asked and what to set.
        throw typeof news?.service === "string" ? withServiceNotFoundHint(ctx, news.service, e) : e;
      }
    },

    async read(id, state) {
      settle(id, state);
      const ctx = contextOf(accountOf(state));
      const props = state && withoutAccount(state);
      // One 404 is not proof the object is gone: it may be young and not yet visible (kernel/consistency.ts).
      const result = await readOrGone(() => ctx.consistency.settle(youngSince(ctx, id, state), () => resource.read(ctx, id, props ?? {})));
      if (result.id && props && ctx.driftAllFields) ctx.drift.keep(kind, id, props);
      return carryAccount(withReadInputs(definition, result.id ? carryStamp(result, state?.[CREATED_AT_KEY]) : result, props), state);
    },

    async update(id, olds, inputs) {
      settle(id, olds);
      if (!resource.update) throw new TypeError(`${kind} has no update: its diff replaces on every change`);
      const ctx = contextOf(accountOf(inputs));
      const [before, news] = [withoutAccount(olds), withoutAccount(inputs)];
      const updated = await updateOrGone(resource.subject(id, before), () => ctx.consistency.settle(youngSince(ctx, id, olds), () => resource.update!(ctx, id, before, news)));
      return carryAccount(carryStamp(declared(updated, news), olds?.[CREATED_AT_KEY]), inputs);
    },

    async delete(id, state) {
      settle(id, state);
      const ctx = contextOf(accountOf(state));
      await deleteOrGone(() => ctx.consistency.settle(youngSince(ctx, id, state), () => resource.delete(ctx, id, withoutAccount(state) ?? {})));
    },
  };
}

// One provider factory: every resource kind gets from its definition the same check, diff, 404
// handling, journal settling, drift report and error reporting, and its own code only maps the API.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { AccountContext } from "../account/context";
import { accountNameProblem } from "../config";
import { ConfigError } from "../errors";
import { ACCOUNT_INPUT, accountOf, withoutAccount } from "../kernel/account-input";
import { checkInputs, UNKNOWN } from "../kernel/check";
import { CREATED_AT_KEY, recordedCreation } from "../kernel/consistency";
import { recordDeclared, withReadInputs } from "../kernel/declared";
import { diffRules, outputShape } from "../kernel/define";
import { diffManaged } from "../kernel/diff";
import { serverMaintained, unmanagedChanges } from "../kernel/drift";
import { deleteOrGone, readOrGone, updateOrGone } from "../kernel/gone";
import { PartialCreateError } from "../kernel/partial";
import { leanResult } from "../kernel/unset";
import { assertWritable, writeRefused } from "./planned-write";
import type { Checked, Definition, Proposed, Recorded, Resource, StateOf } from "./resource";
import { withServiceNotFoundHint } from "./service-hint";

export type { AnyResource, Resource } from "./resource";

type Props = Record<string, unknown>;

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
export function makeProvider<D extends Definition>(
  resource: Resource<D>,
  contextOf: (account: string) => AccountContext,
): Required<Omit<dynamic.ResourceProvider, "configure">> {
  const { definition } = resource;
  // The one narrowing of the engine's props: check parsed the inputs with the definition's schema
  // (in preview, values not known yet pass unparsed), and the state holds what this provider reported.
  const asChecked = (p: Props) => p as Checked<D>;
  const asProposed = (p: Props) => p as Proposed<D>;
  const asRecorded = (p: Props) => p as Recorded<D>;
  const asState = (p: Props) => p as StateOf<D>;
  const kind = definition.kind;
  const maintained = serverMaintained(definition);
  const rules = diffRules(definition);
  const stamped = !("createdAt" in outputShape(definition));
  // What create and update report carries what the program declared, for the inputs `read` rebuilds.
  const declared = <T extends { outs?: Props }>(result: T, news: Props): T => ({ ...result, outs: recordDeclared(definition, result.outs, news) });
  // Once the engine shows it knows an id (it diffs, reads, updates or deletes it), the state, not
  // the intent journal, says which resource owns it: the journal forgets it (one GET less per
  // object on the next `up` after a destroy).
  const handOver = (id: string, props: Props) => {
    if (!definition.creates) return;
    try {
      contextOf(accountOf(props)).journal.handOver(kind, id);
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
      const failures = resource.verify ? await resource.verify(ctx, asProposed(withoutAccount(news)), asRecorded(withoutAccount(olds ?? {}))) : [];
      // No old inputs: a create, or a replacement (the engine checks one again without them). Both write.
      if (!olds || Object.keys(olds).length === 0) {
        const adopting = resource.adopt && typeof news.adoptId === "string" ? news.adoptId : undefined;
        const refused = await writeRefused(ctx, definition, adopting ? "adopt" : "create");
        if (refused) failures.push({ property: "", reason: refused });
        // The engine can only show a create: say what it will be.
        else if (adopting)
          await ctx.warnOnce(
            `adopt/${kind}/${adopting}`,
            `${kind} adoptId ${adopting}: shown as a create, \`up\` takes over the existing object and writes only what differs`,
          );
      }
      return failures.length ? { inputs: news, failures } : checked;
    },

    async diff(id, olds, news) {
      handOver(id, olds);
      // Another account holds other objects: the change replaces (created there, deleted here).
      if (news?.[ACCOUNT_INPUT] !== UNKNOWN && accountOf(olds) !== accountOf(news)) {
        return { changes: true, replaces: [ACCOUNT_INPUT], deleteBeforeReplace: false };
      }
      [olds, news] = [withoutAccount(olds), withoutAccount(news)];
      const result = resource.diff ? resource.diff(asState(olds), asProposed(news)) : diffManaged(olds, news, rules);
      // The opt-in drift report of unset fields (kernel/drift.ts): the state this run's read replaced.
      // A diff needs no account otherwise, so one that cannot be made is no reason to fail here.
      let ctx: AccountContext;
      try {
        ctx = contextOf(accountOf(news));
      } catch {
        return result;
      }
      // The diff of a refresh that just read the object reports drift; any other with changes plans a write.
      if (!ctx.drift.takeRead(kind, id) && result.changes) await assertWritable(ctx, definition, result.replaces?.length ? "replace" : "update");
      const recorded = ctx.drift.take(kind, id);
      if (!recorded || result.changes || !ctx.driftAllFields) return result;
      return unmanagedChanges(recorded, olds, news, maintained, rules.asDeclared).length ? { ...result, changes: true } : result;
    },

    async create(inputs) {
      const ctx = contextOf(accountOf(inputs));
      const news = withoutAccount(inputs);
      // Adoption by id: the object exists already; nothing is created.
      const adoptId = news?.adoptId;
      if (resource.adopt && typeof adoptId === "string" && adoptId)
        return leanResult(carryAccount(declared(await resource.adopt(ctx, adoptId, asChecked(news)), news), inputs));
      // The state records when what this process made was made, so a later process can tell a 404 of
      // it from lag: the API's `createdAt` where the kind has one, else a stamp of ours (the object's
      // own create, or that of the service whose settings it holds).
      const stamp = (id: string, outs: Props | undefined) =>
        stamped
          ? (ctx.consistency.createdAt(kind, id) ?? (typeof outs?.service === "string" ? ctx.consistency.createdAt("Service", outs.service) : undefined))
          : undefined;
      try {
        const made = await resource.create(ctx, asChecked(news));
        return leanResult(carryAccount(carryStamp(declared(made, news), stamp(made.id, made.outs)), inputs));
      } catch (e) {
        if (e instanceof PartialCreateError)
          Object.assign(
            e.properties,
            stamped ? { [CREATED_AT_KEY]: stamp(e.id, e.properties) } : {},
            typeof inputs?.[ACCOUNT_INPUT] === "string" ? { [ACCOUNT_INPUT]: inputs[ACCOUNT_INPUT] } : {},
          );
        // A child's service not found may live in another account: say which was asked and what to set.
        throw typeof news?.service === "string" ? withServiceNotFoundHint(ctx, news.service, e) : e;
      }
    },

    async read(id, state) {
      handOver(id, state);
      const ctx = contextOf(accountOf(state));
      const props = state && withoutAccount(state);
      // One 404 is not proof the object is gone: it may be young and not yet visible (kernel/consistency.ts).
      const result = await readOrGone(() => ctx.consistency.untilVisible(youngSince(ctx, id, state), () => resource.read(ctx, id, asState(props ?? {}))));
      if (result.id) ctx.drift.markRead(kind, id);
      if (result.id && props && ctx.driftAllFields) ctx.drift.keep(kind, id, props);
      // The inputs are rebuilt before the unset fields go: a declared `null` stays declared.
      return leanResult(carryAccount(withReadInputs(definition, result.id ? carryStamp(result, state?.[CREATED_AT_KEY]) : result, props), state));
    },

    async update(id, olds, inputs) {
      handOver(id, olds);
      if (!resource.update) throw new TypeError(`${kind} has no update: its diff replaces on every change`);
      const ctx = contextOf(accountOf(inputs));
      const [before, news] = [withoutAccount(olds), withoutAccount(inputs)];
      const updated = await updateOrGone(resource.subject(id, asState(before)), () =>
        ctx.consistency.untilVisible(youngSince(ctx, id, olds), () => resource.update!(ctx, id, asState(before), asChecked(news))),
      );
      return leanResult(carryAccount(carryStamp(declared(updated, news), olds?.[CREATED_AT_KEY]), inputs));
    },

    async delete(id, state) {
      handOver(id, state);
      const ctx = contextOf(accountOf(state));
      await deleteOrGone(() => ctx.consistency.untilVisible(youngSince(ctx, id, state), () => resource.delete(ctx, id, asState(withoutAccount(state) ?? {}))));
    },
  };
}

// One provider factory: every resource kind gets from its definition the same check, diff, 404
// handling, journal settling, drift report and error reporting, and its own code only maps the API.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { AccountContext } from "../account/context";
import { checkInputs } from "./check";
import { diffRules, type ResourceDefinition } from "./define";
import { diffManaged } from "./diff";
import { serverMaintained, unmanagedChanges } from "./drift";
import { deleteOrGone, readOrGone, updateOrGone } from "./gone";

type Props = Record<string, unknown>;

/** What a resource module provides: its definition and the API calls behind each operation. */
export interface Resource {
  definition: ResourceDefinition;
  /** What the object is, in messages (an update that finds it gone). */
  subject(id: string, props: Props): string;
  /** Checks the schema cannot make (references the account must have), once the schema passes. */
  verify?(ctx: AccountContext, news: Props): Promise<dynamic.CheckFailure[]>;
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
}

/**
 * The engine's provider for a resource kind. `contextOf` gives the account context of each call
 * (configure has set the deployment up by then).
 */
export function makeProvider(resource: Resource, contextOf: () => AccountContext): Required<Omit<dynamic.ResourceProvider, "configure">> {
  const { definition } = resource;
  const kind = definition.kind;
  const maintained = serverMaintained(definition);
  // Once the engine shows it knows an id (it diffs, reads, updates or deletes it), the state, not
  // the intent journal, says which resource owns it: the journal forgets it (one GET less per
  // object on the next `up` after a destroy).
  const settle = (id: string) => {
    if (!definition.origin) return;
    try {
      contextOf().journal.settle(kind, id);
    } catch {
      // no account yet (no usable settings): nothing was journaled by this process either
    }
  };

  return {
    async check(_olds, news) {
      // The SDK passes `__conflict` when another resource of the program claims the same unique
      // value (a service's name; sdk/unique-names.ts). No property is named, so the engine prints
      // the message without dumping the inputs.
      if (typeof news?.__conflict === "string") return { failures: [{ property: "", reason: news.__conflict }] };
      const checked = checkInputs(definition.inputs, news);
      if (checked.failures?.length || !resource.verify) return checked;
      let ctx: AccountContext;
      try {
        ctx = contextOf();
      } catch {
        return checked; // no usable settings: configure reports that
      }
      const failures = await resource.verify(ctx, news);
      return failures.length ? { inputs: news, failures } : checked;
    },

    async diff(id, olds, news) {
      settle(id);
      const result = resource.diff ? resource.diff(olds, news) : diffManaged(olds, news, diffRules(definition));
      // The opt-in drift report of unset fields (kernel/drift.ts): the state this run's read replaced.
      // A diff needs no account otherwise, so one that cannot be made is no reason to fail here.
      let ctx: AccountContext;
      try {
        ctx = contextOf();
      } catch {
        return result;
      }
      const recorded = ctx.drift.take(kind, id);
      if (!recorded || result.changes || !ctx.driftAllFields) return result;
      return unmanagedChanges(recorded, olds, news, maintained).length ? { ...result, changes: true } : result;
    },

    create(news) {
      // Adoption by id: the object exists already; nothing is created.
      const adoptId = news?.adoptId;
      if (resource.adopt && typeof adoptId === "string" && adoptId) return resource.adopt(contextOf(), adoptId, news);
      return resource.create(contextOf(), news);
    },

    async read(id, props) {
      settle(id);
      const ctx = contextOf();
      const result = await readOrGone(() => resource.read(ctx, id, props ?? {}));
      if (result.id && props && ctx.driftAllFields) ctx.drift.keep(kind, id, props);
      return result;
    },

    async update(id, olds, news) {
      settle(id);
      if (!resource.update) throw new TypeError(`${kind} has no update: its diff replaces on every change`);
      return updateOrGone(resource.subject(id, olds), () => resource.update!(contextOf(), id, olds, news));
    },

    async delete(id, props) {
      settle(id);
      await deleteOrGone(() => resource.delete(contextOf(), id, props ?? {}));
    },
  };
}

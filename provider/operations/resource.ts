// What a resource module provides, typed from its definition. The factory (factory.ts) is the one
// place the engine's untyped props become these types; each says what the props are at that point.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import type { AccountContext } from "../account/context";
import type { ApiClient } from "../http/client";
import type { Hidden, MaybeUnknown } from "../kernel/check";
import type { InputsOf, OutputsOf, TypedDefinition } from "../kernel/define";

type Props = Record<string, unknown>;

/** Any definition. */
export type Definition = TypedDefinition<z.ZodTypeAny, z.ZodTypeAny>;

/** A definition whose inputs and outputs are plain records: what a collection of kinds holds. */
type Erased = TypedDefinition<z.ZodType<Props>, z.ZodType<Props>>;

/** Inputs as check parsed them (create, adoption, update), with the SDK's hidden keys, without the account. */
export type Checked<D extends Definition> = InputsOf<D> & Hidden;

/**
 * Inputs as the program proposes them (verify, diff): they passed the schema, except where a value is
 * not known yet in preview, which check leaves unjudged and unparsed.
 */
export type Proposed<D extends Definition> = Fields<z.input<D["inputs"]> | InputsOf<D>> & Hidden;

type Fields<T> = { [K in keyof T]: MaybeUnknown<T[K]> };

/**
 * Inputs an earlier deployment recorded (the last state's, a checkpoint's), not checked now: a read
 * rebuilds them from outputs, and a checkpoint holds a secret as an encrypted object.
 */
export type Recorded<D extends Definition> = { readonly [K in keyof InputsOf<D>]?: unknown };

/** The state: the outputs this provider reported, with its bookkeeping (`__declared`, `__createdAt`). */
export type StateOf<D extends Definition> = OutputsOf<D> & Hidden;

/** What a resource module provides: its definition and the API calls behind each operation. */
export interface Resource<D extends Definition = Erased> {
  definition: D;
  /** What the object is, in messages (an update that finds it gone). */
  subject(id: string, state: StateOf<D>): string;
  /**
   * Checks the schema cannot make (references the account must have), once the schema passes.
   * `olds` are the inputs of the last deployment ({} for a new resource).
   */
  verify?(ctx: AccountContext, news: Proposed<D>, olds: Recorded<D>): Promise<dynamic.CheckFailure[]>;
  /** A diff of its own (default: the managed fields, with the definition's replace rules). */
  diff?(olds: StateOf<D>, news: Proposed<D>): dynamic.DiffResult;
  /**
   * Takes over the existing object `id` and brings its managed fields to the declared values: the
   * create of a program that sets `adoptId`, and of an interrupted create's object (operations/recovery.ts).
   */
  adopt?(ctx: AccountContext, id: string, news: Checked<D>): Promise<Made<D>>;
  create(ctx: AccountContext, news: Checked<D>): Promise<Made<D>>;
  /** 404 means gone: the factory drops it from the state. */
  read(ctx: AccountContext, id: string, state: StateOf<D>): Promise<{ id: string; props: OutputsOf<D> }>;
  /** 404 fails naming `subject` and the way out. Without it, every change replaces. */
  update?(ctx: AccountContext, id: string, olds: StateOf<D>, news: Checked<D>): Promise<{ outs: OutputsOf<D> }>;
  /** 404 means done. */
  delete(ctx: AccountContext, id: string, state: StateOf<D>): Promise<void>;
  /** Kinds that create objects: what one is, in words, from its recorded inputs (`service "Checkout"`). */
  describe?(inputs: Recorded<D>): string;
  /** Kinds that create objects: ids of the objects matching the identifying inputs (recovery; GET only). */
  findExisting?(client: ApiClient, inputs: Recorded<D>): Promise<string[]>;
}

/** What create and adoption report. */
export interface Made<D extends Definition> {
  id: string;
  outs: OutputsOf<D>;
}

/**
 * Any resource, for collections of kinds (the registry, recovery, tests): its methods take plain
 * records, which TypeScript checks both ways for methods, so every `Resource<D>` is one.
 */
export type AnyResource = Resource;

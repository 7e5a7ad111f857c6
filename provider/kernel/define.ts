// One description per resource: its inputs and outputs as zod schemas with a sentence of
// documentation on every field (`.describe()`), which inputs replace the object on change, and which
// outputs are secret. `check` validates with it, `diff` takes its replace rules from it, and
// scripts/generate-sdk.ts prints the SDK's argument and output types (with TSDoc), the resource
// classes and the resource reference's tables (docs/reference.md) from it, so none of them is written by hand.
// Likewise one description per lookup (`defineLookup`): its function's name, arguments and result.
import { z } from "zod";
import type { DiffRules } from "./diff";

export interface ResourceDefinition {
  /** Resource kind, e.g. "Service": the SDK class and the type token `pagerduty:<kind>`. */
  kind: string;
  /** What the resource is and how it behaves, for the class's TSDoc and the resource reference. */
  description: string;
  /** The resource reference's summary table's notes for the resource: one or two sentences. */
  notes: string;
  /** The inputs: an object schema (cross-field rules as `superRefine` around it), every field described. */
  inputs: z.ZodTypeAny;
  /**
   * Every output, those that mirror an input included (as the provider reports them: normalized,
   * `null` where unset). A field without its own description takes the input's of the same name.
   */
  outputs: z.ZodTypeAny;
  /** Inputs whose change needs a new object. */
  replaceOn: readonly string[];
  /** Inputs that never change the remote object (adoption ids) and that diff ignores. */
  diffIgnore?: readonly string[];
  /**
   * Outputs PagerDuty partly computes, each with how its live value reads as the program's
   * declaration (a busy service's `critical` status is the program's `active`): diff, the inputs a
   * refresh rebuilds and the drift report compare through it, so what PagerDuty computes is never drift.
   */
  liveAsDeclared?: Readonly<Record<string, (live: unknown) => unknown>>;
  /** The scopes its writes need (default `services.write`): a preview that plans one fails without them. */
  writeScopes?: readonly string[];
  /** Outputs the SDK marks secret (encrypted in state, masked in output). */
  secretOutputs?: readonly string[];
  /**
   * Whether its create makes a remote object: the SDK then passes the `__origin` provenance key, and
   * the create is journaled and recovered after an interruption (operations/recovery.ts).
   */
  creates: boolean;
  /**
   * An input PagerDuty keeps unique per account (a service's name, an integration's address): the
   * SDK fails the program when two resources share a value.
   */
  uniqueInAccount?: string;
  /**
   * How `pulumi import` names one, since the engine imports by id alone (default `"<id>"`): an object
   * that lives under its service by `"<service id>/<id>"`, a service's feature by
   * `"<service id>/<feature>"` (its own id), a service's one object of the kind by `"<service id>"`;
   * null: it cannot be imported (its id alone does not locate it).
   */
  importId?: ImportId | null;
}

export type ImportId = "<id>" | "<service id>/<id>" | "<service id>/<feature>" | "<service id>";

/** How a definition's kind is imported (for errors and docs; no definition: `"<id>"`); undefined: it cannot be imported. */
export function importIdFormat(definition: Pick<ResourceDefinition, "importId"> | undefined): ImportId | undefined {
  const format = definition?.importId;
  return format === null ? undefined : (format ?? "<id>");
}

/**
 * The id `pulumi import` takes for the object `id` of a definition's kind, in its `importId`'s form,
 * the service and feature taken from the object's inputs; undefined: it cannot be imported.
 */
export function importIdOf(definition: Pick<ResourceDefinition, "importId"> | undefined, id: string, inputs: Record<string, unknown> = {}): string | undefined {
  const service = String(inputs.service ?? "");
  switch (importIdFormat(definition)) {
    case undefined:
      return undefined;
    case "<service id>/<id>":
      return `${service}/${id}`;
    case "<service id>/<feature>":
      return `${service}/${String(inputs.feature ?? "")}`;
    case "<service id>":
      return String(inputs.service ?? id);
    default:
      return id;
  }
}

type Typed = "inputs" | "outputs" | "replaceOn" | "diffIgnore" | "liveAsDeclared" | "secretOutputs" | "uniqueInAccount";

/** A definition with its schemas' own types, so `OutputsOf` and the provider's mappings are checked. */
export type TypedDefinition<I extends z.ZodTypeAny, O extends z.ZodTypeAny> = Omit<ResourceDefinition, "inputs" | "outputs"> & { inputs: I; outputs: O };

/**
 * A definition whose rules name only fields it has (checked by the compiler). `creates` keeps its
 * literal type, so the registry reads which kinds create objects off the definitions' types too.
 */
export function defineResource<I extends z.ZodTypeAny, O extends z.ZodTypeAny, Creates extends boolean>(
  d: Omit<ResourceDefinition, Typed | "creates"> & {
    creates: Creates;
    inputs: I;
    outputs: O;
    replaceOn: readonly (keyof z.input<I> & string)[];
    diffIgnore?: readonly (keyof z.input<I> & string)[];
    liveAsDeclared?: { readonly [K in keyof z.input<I> & keyof z.output<O> & string]?: (live: z.output<O>[K]) => z.output<I>[K] };
    secretOutputs?: readonly (keyof z.output<O> & string)[];
    uniqueInAccount?: keyof z.input<I> & string;
  },
): TypedDefinition<I, O> & { creates: Creates } {
  // The views are typed per field above; the kernel applies them to the live value of that field.
  return d as TypedDefinition<I, O> & { creates: Creates };
}

/**
 * One description per lookup: the SDK's get* function (scripts/generate-sdk.ts), the package's
 * function of the same name (plugin/schema.ts) and both doors' checks of its arguments come from it.
 */
export interface LookupDefinition {
  /** The function, in the SDK and in the package: `getService`. */
  functionName: string;
  /** The query the lookup's state records (`query: "service"`): recorded lookups name it, so it never changes. */
  query: string;
  /** What it finds: the function's TSDoc, the package function's description and the reference's. */
  description: string;
  /** The arguments: an object schema (cross-field rules as `superRefine` around it), every field described. */
  args: z.ZodTypeAny;
  /** The SDK's interface for the arguments, when programs name it (unset: an inline type). */
  argsType?: string;
  /**
   * The result: an object schema `named()` as its SDK type (`ServiceLookupResult`), or an unnamed
   * object whose fields hold named types (`{ rules: EventRuleLookup[] }`).
   */
  result: z.ZodTypeAny;
}

/** A lookup definition with its schemas' own types, so its query is typed by them. */
export type TypedLookupDefinition<A extends z.ZodTypeAny, R extends z.ZodTypeAny> = Omit<LookupDefinition, "args" | "result"> & { args: A; result: R };

export function defineLookup<A extends z.ZodTypeAny, R extends z.ZodTypeAny>(d: TypedLookupDefinition<A, R>): TypedLookupDefinition<A, R> {
  return d;
}

/** The fields of a lookup's arguments (under any `superRefine`). */
export function argsShape(d: LookupDefinition): z.ZodRawShape {
  return objectShape(d.args, `${d.functionName} arguments`);
}

/** The fields of a lookup's result. */
export function resultShape(d: LookupDefinition): z.ZodRawShape {
  return objectShape(d.result, `${d.functionName} result`);
}

/** The fields of a definition's inputs (under any `superRefine`). */
export function inputShape(d: ResourceDefinition): z.ZodRawShape {
  return objectShape(d.inputs, `${d.kind} inputs`);
}

/** The fields of a definition's outputs. */
export function outputShape(d: ResourceDefinition): z.ZodRawShape {
  return objectShape(d.outputs, `${d.kind} outputs`);
}

function objectShape(schema: z.ZodTypeAny, what: string): z.ZodRawShape {
  let s = schema;
  while (s instanceof z.ZodEffects) s = s.innerType();
  if (!(s instanceof z.ZodObject)) throw new TypeError(`${what} must be an object schema`);
  return s.shape as z.ZodRawShape;
}

/** The inputs check hands on, typed from a definition: as its schema parsed them. */
export type InputsOf<D extends { inputs: z.ZodTypeAny }> = z.output<D["inputs"]>;

/** The outputs a resource reports, typed from its definition. */
export type OutputsOf<D extends { outputs: z.ZodTypeAny }> = z.output<D["outputs"]>;

/** The diff rules of a resource, from its definition. */
export function diffRules(d: ResourceDefinition): DiffRules {
  return { replaceOn: d.replaceOn, ...(d.diffIgnore ? { ignore: d.diffIgnore } : {}), asDeclared: declaredView(d) };
}

/** A live output as the program would declare it (`liveAsDeclared`); other outputs as they are. */
export function declaredView(d: ResourceDefinition): (key: string, live: unknown) => unknown {
  const views = d.liveAsDeclared ?? {};
  return (key, live) => (Object.hasOwn(views, key) && live !== undefined && live !== null ? views[key](live) : live);
}

const typeNames = new WeakMap<z.ZodTypeAny, string>();

/**
 * Gives a nested schema the name its SDK type is printed under (input types add "Args"): needed
 * for recursive schemas, and for names programs already use. Others are named by their path.
 */
export function named<T extends z.ZodTypeAny>(name: string, schema: T): T {
  typeNames.set(schema, name);
  return schema;
}

export function typeNameOf(schema: z.ZodTypeAny): string | undefined {
  return typeNames.get(schema);
}

/**
 * A definition's outputs with every field described (an output without its own description takes
 * the input's of the same name): for lookup results that repeat a resource's outputs.
 */
export function documentedOutputs<D extends { inputs: z.ZodTypeAny; outputs: z.ZodTypeAny; kind: string }>(d: D): D["outputs"] {
  const inputs = objectShape(d.inputs, `${d.kind} inputs`);
  const outputs = d.outputs as unknown as z.AnyZodObject;
  const shape: z.ZodRawShape = {};
  for (const [k, s] of Object.entries(outputs.shape as z.ZodRawShape)) {
    const fallback = describedAs(inputs[k]);
    shape[k] = describedAs(s) || !fallback ? s : s.describe(fallback);
  }
  return z.object(shape) as unknown as D["outputs"];
}

/** The description of a field, looked up through the wrappers around it (optional, nullable, default, refinements, lazy). */
export function describedAs(schema: z.ZodTypeAny | undefined): string | undefined {
  for (let s = schema; s; s = unwrapped(s)) if (s.description) return s.description;
  return undefined;
}

/** The schema inside a wrapper, if it is one. */
export function unwrapped(s: z.ZodTypeAny): z.ZodTypeAny | undefined {
  if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) return s.unwrap();
  if (s instanceof z.ZodDefault) return s.removeDefault();
  if (s instanceof z.ZodEffects) return s.innerType();
  if (s instanceof z.ZodLazy) return s.schema;
  return undefined;
}

/** What a package of these kinds manages, in one sentence: package.json's and the package schema's description (`npm run generate`). */
export function managedKinds(definitions: readonly ResourceDefinition[]): string {
  return `PagerDuty's services area as code: ${definitions.map((d) => d.kind).join(", ")}, and lookups`;
}

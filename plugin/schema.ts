// The package's schema (Pulumi's package schema: resources, types, functions, config), built from
// the same definitions the dynamic providers and the TypeScript SDK come from: every kind of
// provider/registry.ts with its inputs and outputs (zod), their descriptions, the secret outputs,
// and every lookup of it as a function (its definition's arguments, result and description). scripts/generate-schema.ts writes it to plugin/schema.json, which
// the plugin serves and every language's SDK is generated from.
import { z } from "zod";
import {
  argsShape,
  describedAs,
  inputShape,
  type LookupDefinition,
  managedKinds,
  outputShape,
  type ResourceDefinition,
  typeNameOf,
  unwrapped,
} from "../provider/kernel/define";
import { ACCOUNT_INPUT } from "../provider/kernel/account-input";
import { CONFIG_SETTINGS } from "./config";
import { PACKAGE, token } from "./names";

type Json = Record<string, unknown>;

/** A property's type in the schema: a primitive, an array, a map, a reference to a named type, a union. */
type TypeSpec = Json;
type Mode = "input" | "output";

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const singular = (s: string) => pascal(s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);

/** Collects the named object types the resources and functions use. */
class Types {
  readonly specs: Record<string, Json> = {};
  private readonly names = new Map<z.ZodTypeAny, Partial<Record<Mode, string>>>();

  constructor(private readonly taken: Set<string>) {}

  /** The schema type of a field's value. */
  type(schema: z.ZodTypeAny, mode: Mode, path: string[]): TypeSpec {
    if (schema instanceof z.ZodObject || (schema instanceof z.ZodLazy && typeNameOf(schema))) return this.object(schema, mode, path);
    const inner = unwrapped(schema);
    if (inner) return this.type(inner, mode, path);
    if (schema instanceof z.ZodString) return { type: "string" };
    if (schema instanceof z.ZodNumber) return { type: schema.isInt ? "integer" : "number" };
    if (schema instanceof z.ZodBoolean) return { type: "boolean" };
    if (schema instanceof z.ZodEnum) return { type: "string" };
    if (schema instanceof z.ZodLiteral) return { type: typeof schema.value === "number" ? "number" : typeof schema.value === "boolean" ? "boolean" : "string" };
    if (schema instanceof z.ZodArray) return { type: "array", items: this.type(schema.element, mode, [...path.slice(0, -1), singular(path.at(-1) ?? "item")]) };
    if (schema instanceof z.ZodRecord) return { type: "object", additionalProperties: this.type(schema.valueSchema, mode, path) };
    if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) return this.union([...(schema.options as z.ZodTypeAny[])], mode, path);
    if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny || schema instanceof z.ZodNull) return { $ref: "pulumi.json#/Any" };
    throw new Error(`${path.join(".")}: the schema printer does not know zod type ${schema.constructor.name}`);
  }

  /** A union: its distinct members (null left out: every property may be absent), one alone as itself. */
  private union(options: z.ZodTypeAny[], mode: Mode, path: string[]): TypeSpec {
    const members = options
      .filter((o) => !(o instanceof z.ZodNull))
      .map((o, i) => this.type(o, mode, options.length > 1 && isObject(o) ? [...path, `Option${i + 1}`] : path));
    const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
    if (distinct.length === 1) return distinct[0];
    // Code generators take a union of primitives and named types, not of arrays or maps: those go as Any.
    if (distinct.some((m) => m.type === "array" || m.type === "object" || m.$ref === "pulumi.json#/Any")) return { $ref: "pulumi.json#/Any" };
    return { oneOf: distinct };
  }

  private object(schema: z.ZodTypeAny, mode: Mode, path: string[]): TypeSpec {
    const known = this.names.get(schema)?.[mode];
    if (known) return { $ref: `#/types/${token(known)}` };
    const base = typeNameOf(schema) ?? path.map(pascal).join("");
    // An input and an output type of one name would be one type in the SDKs: outputs get their own.
    let name = mode === "output" && this.taken.has(base) ? `${base}Result` : base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    this.names.set(schema, { ...this.names.get(schema), [mode]: name });
    let target: z.ZodTypeAny = schema;
    while (!(target instanceof z.ZodObject)) target = unwrapped(target)!;
    const shape = (target as z.AnyZodObject).shape as z.ZodRawShape;
    const spec: Json = { type: "object" };
    const doc = describedAs(schema);
    if (doc) spec.description = doc;
    this.specs[token(name)] = spec; // before the fields: a recursive type finds itself
    Object.assign(spec, this.members(shape, mode, typeNameOf(schema) ? [typeNameOf(schema)!] : path));
    return { $ref: `#/types/${token(name)}` };
  }

  /** `properties` and `required` of an object's fields. */
  members(shape: z.ZodRawShape, mode: Mode, path: string[], docOf?: (key: string) => string | undefined): { properties: Json; required?: string[] } {
    const properties: Json = {};
    const required: string[] = [];
    for (const [key, s] of Object.entries(shape)) {
      const doc = describedAs(s) ?? docOf?.(key);
      properties[key] = { ...this.type(s, mode, [...path, key]), ...(doc ? { description: doc } : {}) };
      if (isRequired(s, mode)) required.push(key);
    }
    return { properties, ...(required.length ? { required } : {}) };
  }
}

const isObject = (s: z.ZodTypeAny): boolean => {
  for (let x: z.ZodTypeAny | undefined = s; x; x = unwrapped(x)) if (x instanceof z.ZodObject) return true;
  return false;
};

/** Inputs: not optional. Outputs: neither optional nor nullable (the provider leaves an unset output out). */
function isRequired(s: z.ZodTypeAny, mode: Mode): boolean {
  if (s.isOptional()) return false;
  return mode === "input" || !s.isNullable();
}

const ACCOUNT_DOC =
  "The account the object lives in: a name declared in the provider's `accounts` setting. Unset: the provider's own account. " +
  "Changing it replaces the object. (A second account is usually simplest as a second provider resource.)";

function resource(d: ResourceDefinition, types: Types): Json {
  const inputs = inputShape(d);
  const outputs = outputShape(d);
  const inputDoc = (key: string) => (inputs[key] ? describedAs(inputs[key]) : undefined);
  const ins = types.members(inputs, "input", [d.kind]);
  const outs = types.members(outputs, "output", [d.kind], inputDoc);
  for (const key of d.secretOutputs ?? []) {
    (outs.properties[key] as Json).secret = true;
    if (ins.properties[key]) (ins.properties[key] as Json).secret = true;
  }
  const account = { type: "string", description: ACCOUNT_DOC };
  return {
    description: d.description,
    inputProperties: { ...ins.properties, [ACCOUNT_INPUT]: account },
    ...(ins.required ? { requiredInputs: ins.required } : {}),
    properties: { ...outs.properties, [ACCOUNT_INPUT]: account },
    ...(outs.required ? { required: outs.required } : {}),
  };
}

/** Options of the schema: the package's version and the lookups (the registry's). */
export interface SchemaOptions {
  version: string;
  lookups: readonly LookupDefinition[];
}

/** A lookup as a function: its arguments and the account in, its result out. */
function lookupFunction(l: LookupDefinition, types: Types): Json {
  const args = types.members(argsShape(l), "input", [pascal(l.functionName)]);
  // A named result is a type of its own (the SDKs' lookups return it); an unnamed one is only the function's outputs.
  const spec = typeNameOf(l.result)
    ? types.specs[(types.type(l.result, "output", []) as { $ref: string }).$ref.slice("#/types/".length)]
    : types.members((l.result as z.AnyZodObject).shape, "output", [`${pascal(l.functionName)}Outputs`]);
  return {
    description: l.description,
    inputs: {
      type: "object",
      properties: {
        ...args.properties,
        [ACCOUNT_INPUT]: {
          type: "string",
          description: "The account to look in: a name declared in the provider's `accounts` setting (unset: the provider's own account).",
        },
      },
      ...(args.required ? { required: args.required } : {}),
    },
    outputs: { type: "object", properties: spec.properties, ...(spec.required ? { required: spec.required } : {}) },
  };
}

/** The package schema of the given definitions (the registry's). */
export function buildSchema(definitions: readonly ResourceDefinition[], options: SchemaOptions): Json {
  const types = new Types(new Set(definitions.map((d) => d.kind)));
  const resources: Json = {};
  for (const d of definitions) resources[token(d.kind)] = resource(d, types);
  const functions: Json = {};
  for (const l of options.lookups) functions[token(l.functionName)] = lookupFunction(l, types);
  const config = configSpec(types);
  return {
    name: PACKAGE,
    displayName: "PagerDuty (dynamic)",
    version: options.version,
    description: `${managedKinds(definitions)}: the resources of pulumi-pagerduty-dynamic as a Pulumi package.`,
    keywords: ["pulumi", "pagerduty", "category/monitoring"],
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    config: { variables: config.properties },
    provider: {
      description: "The provider: one PagerDuty account (and any named in `accounts`).",
      inputProperties: config.properties,
      properties: config.outputs,
    },
    resources,
    functions,
    types: types.specs,
    language: {
      python: { packageName: "pulumi_pagerduty_dynamic", respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: "pagerduty-dynamic/sdk/go/pagerdutydynamic" },
      nodejs: { packageName: "pulumi-pagerduty-dynamic-sdk", respectSchemaVersion: true },
    },
  };
}

/** The provider's settings (config keys `pagerduty-dynamic:<name>`), secrets marked. */
function configSpec(types: Types): { properties: Json; outputs: Json } {
  const properties: Json = {};
  const outputs: Json = {};
  for (const s of CONFIG_SETTINGS) {
    const spec: Json = { ...types.type(s.schema, "input", ["Provider", s.name]), description: s.description, ...(s.secret ? { secret: true } : {}) };
    properties[s.name] = spec;
    // The provider resource's outputs: its plain string settings (Pulumi's own convention).
    if (spec.type === "string") outputs[s.name] = spec;
  }
  return { properties, outputs };
}

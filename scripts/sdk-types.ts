// Prints zod schemas as the SDK's TypeScript types. Inputs are wrapped in `pulumi.Input` at every
// level, as Pulumi's generated SDKs do, so a nested field can take another resource's output;
// outputs are plain. Every object becomes a named, exported interface whose fields carry the
// schema's `.describe()` text as TSDoc; a field without one is an error, so no field goes
// undocumented. Only the zod kinds the definitions use are printed; any other fails loudly.
import { z } from "zod";
import { describedAs, typeNameOf, unwrapped } from "../provider/kernel/define";

export { describedAs };

export type Mode = "input" | "output";

/** Whether a field may be left out (optional, or with a default). */
export function isOptional(schema: z.ZodTypeAny): boolean {
  return schema.isOptional();
}

export const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** The element of a plural field name: `emailFilters` -> `EmailFilter`. */
const singular = (s: string) => pascal(s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);

/** TSDoc for a description. */
export function tsdoc(text: string, indent = ""): string {
  const lines = text.trim().split("\n");
  if (lines.length === 1 && text.length < 100) return `${indent}/** ${text.trim()} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} *${l ? ` ${l}` : ""}`), `${indent} */`].join("\n");
}

/** Where each printed interface lives, across the generated files: a file reuses (imports) another's. */
export class TypeRegistry {
  private readonly where = new Map<z.ZodTypeAny, Partial<Record<Mode, { name: string; module: string }>>>();
  /** Names declared at top level anywhere (classes, Args, interfaces): a new one must not reuse them. */
  readonly taken = new Set<string>();

  find(schema: z.ZodTypeAny, mode: Mode): { name: string; module: string } | undefined {
    return this.where.get(schema)?.[mode];
  }

  add(schema: z.ZodTypeAny, mode: Mode, name: string, module: string): void {
    if (this.taken.has(name)) throw new Error(`the type name ${name} is declared twice; give one of the schemas another name with named()`);
    this.taken.add(name);
    this.where.set(schema, { ...this.where.get(schema), [mode]: { name, module } });
  }
}

/**
 * Collects the interfaces one generated file declares. Names come from `named()` or the path
 * (`Service` + `SupportHours`); input interfaces end in "Args". A schema object met again (shared,
 * recursive, or declared by another generated file, which is then imported) reuses its interface.
 */
export class TypePrinter {
  private readonly decls: string[] = [];
  private readonly imported = new Map<string, Set<string>>();

  /** `module`: the generated file this printer writes, e.g. "./service". */
  constructor(
    private readonly registry: TypeRegistry,
    private readonly module: string,
  ) {}

  /** The interfaces printed so far, in the order first met. */
  declarations(): string[] {
    return [...this.decls];
  }

  /** `import type` lines for the interfaces this file uses from other generated files. */
  imports(): string[] {
    return [...this.imported].sort(([a], [b]) => a.localeCompare(b)).map(([m, names]) => `import type { ${[...names].sort().join(", ")} } from "${m}";`);
  }

  /** The type of a field's value (without `?`): `pulumi.Input<...>` around it in input mode. */
  field(schema: z.ZodTypeAny, mode: Mode, path: string[]): string {
    const t = this.type(schema, mode, path);
    return mode === "input" ? `pulumi.Input<${t}>` : t;
  }

  /** Prints the members of an object schema, each with its TSDoc. */
  members(shape: z.ZodRawShape, mode: Mode, path: string[], docFallback?: (key: string) => string | undefined): string[] {
    const out: string[] = [];
    for (const [key, schema] of Object.entries(shape)) {
      const doc = describedAs(schema) ?? docFallback?.(key);
      if (!doc) throw new Error(`${[...path, key].join(".")}: no description (.describe()) for this field`);
      out.push(tsdoc(doc, "  "), `  ${key}${isOptional(schema) ? "?" : ""}: ${this.field(schema, mode, [...path, key])};`);
    }
    return out;
  }

  type(schema: z.ZodTypeAny, mode: Mode, path: string[]): string {
    const alias = typeNameOf(schema);
    if (alias && !(schema instanceof z.ZodObject || schema instanceof z.ZodLazy)) return this.alias(alias, schema, path);
    return this.structure(schema, mode, path);
  }

  /** The type of a schema, its own name (if any) aside. */
  private structure(schema: z.ZodTypeAny, mode: Mode, path: string[]): string {
    const wrap = (t: string) => (mode === "input" ? `pulumi.Input<${t}>` : t);
    if (schema instanceof z.ZodOptional) return this.type(schema.unwrap(), mode, path);
    if (schema instanceof z.ZodDefault) return this.type(schema.removeDefault(), mode, path);
    if (schema instanceof z.ZodNullable) return `${this.type(schema.unwrap(), mode, path)} | null`;
    if (schema instanceof z.ZodEffects) return this.type(schema.innerType(), mode, path);
    if (schema instanceof z.ZodString) return "string";
    if (schema instanceof z.ZodNumber) return "number";
    if (schema instanceof z.ZodBoolean) return "boolean";
    if (schema instanceof z.ZodNull) return "null";
    if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return "unknown";
    if (schema instanceof z.ZodLiteral) return JSON.stringify(schema.value);
    if (schema instanceof z.ZodEnum) return (schema.options as string[]).map((o) => JSON.stringify(o)).join(" | ");
    if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) {
      const options = [...(schema.options as z.ZodTypeAny[])];
      return [...new Set(options.map((o) => this.type(o, mode, path)))].join(" | ");
    }
    if (schema instanceof z.ZodArray) {
      const element = this.type(schema.element, mode, [...path.slice(0, -1), singular(path[path.length - 1] ?? "item")]);
      const t = wrap(element);
      return /[|&]/.test(t) && !t.startsWith("pulumi.Input<") ? `(${t})[]` : `${t}[]`;
    }
    if (schema instanceof z.ZodRecord) return `Record<string, ${wrap(this.type(schema.valueSchema, mode, path))}>`;
    if (schema instanceof z.ZodObject || schema instanceof z.ZodLazy) return this.object(schema, mode, path);
    throw new Error(`${path.join(".")}: the SDK printer does not know zod type ${schema.constructor.name}`);
  }

  /** The name of an interface already printed for this schema and mode, imported when another file holds it. */
  private known(schema: z.ZodTypeAny, mode: Mode): string | undefined {
    const found = this.registry.find(schema, mode);
    if (found && found.module !== this.module) {
      if (!this.imported.has(found.module)) this.imported.set(found.module, new Set());
      this.imported.get(found.module)!.add(found.name);
    }
    return found?.name;
  }

  /** A named non-object type: one plain alias, used by inputs and outputs alike. */
  private alias(name: string, schema: z.ZodTypeAny, path: string[]): string {
    const known = this.known(schema, "output");
    if (known) return known;
    this.registry.add(schema, "output", name, this.module);
    const slot = this.decls.push("") - 1;
    const doc = describedAs(schema);
    this.decls[slot] = [...(doc ? [tsdoc(doc)] : []), `export type ${name} = ${this.structure(schema, "output", path)};`].join("\n");
    return name;
  }

  private object(schema: z.AnyZodObject | z.ZodLazy<z.ZodTypeAny>, mode: Mode, path: string[]): string {
    const known = this.known(schema, mode);
    if (known) return known;
    const base = typeNameOf(schema) ?? path.map(pascal).join("");
    const name = mode === "input" ? `${base}Args` : base;
    this.registry.add(schema, mode, name, this.module);
    let target: z.ZodTypeAny = schema;
    while (!(target instanceof z.ZodObject)) {
      const next = unwrapped(target);
      if (!next) throw new Error(`${path.join(".")}: a named type must be an object schema`);
      target = next;
    }
    const slot = this.decls.push("") - 1; // keeps the order outer-before-inner despite recursion
    const doc = describedAs(schema);
    this.decls[slot] = [
      ...(doc ? [tsdoc(doc)] : []),
      `export interface ${name} {`,
      ...this.members((target as z.AnyZodObject).shape, mode, typeNameOf(schema) ? [typeNameOf(schema)!] : path),
      // A passthrough object keeps keys it does not declare (e.g. a lookup returning the API's object).
      ...((target as z.AnyZodObject)._def.unknownKeys === "passthrough"
        ? ["  /** Other fields of the API's object, as it sends them. */", "  [key: string]: unknown;"]
        : []),
      "}",
    ].join("\n");
    return name;
  }
}

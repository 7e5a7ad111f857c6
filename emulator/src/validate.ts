// Small field checkers for what the route body schemas (schemas.ts) cannot say: nested objects
// whose rules depend on other fields, and seed documents, which do not come through a route. They
// collect every problem before failing, so one 400 names all wrong fields, as the real API does.
import { invalid } from "./errors";
import { isTimeZone } from "./time-zones";

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const has = (o: Json, key: string): boolean => Object.hasOwn(o, key) && o[key] !== undefined;

interface Opts {
  nullable?: boolean;
  required?: boolean;
}

export class Validator {
  readonly errors: string[] = [];

  constructor(private readonly prefix = "") {}

  fail(message: string): undefined {
    this.errors.push(message);
    return undefined;
  }

  /** A field's path as messages quote it: `"a.b[0].key"`. */
  path(key: string): string {
    return `"${this.prefix}${key}"`;
  }

  /** Shared presence/null handling; `check` runs only on a present, non-null value. */
  private field<T>(o: Json, key: string, opts: Opts, check: (v: unknown) => T | undefined): T | null | undefined {
    if (!has(o, key)) return opts.required ? this.fail(`${this.path(key)} is required`) : undefined;
    const v = o[key];
    if (v === null) return opts.nullable ? null : this.fail(`${this.path(key)} must not be null`);
    return check(v);
  }

  string(o: Json, key: string, opts: Opts & { nonEmpty?: boolean; max?: number; pattern?: RegExp } = {}) {
    return this.field(o, key, opts, (v) => {
      if (typeof v !== "string") return this.fail(`${this.path(key)} must be a string`);
      if (opts.nonEmpty && v.trim() === "") return this.fail(`${this.path(key)} can't be blank`);
      if (opts.max !== undefined && v.length > opts.max) return this.fail(`${this.path(key)} is too long (maximum is ${opts.max} characters)`);
      if (opts.pattern && !opts.pattern.test(v)) return this.fail(`${this.path(key)} has an invalid format`);
      return v;
    });
  }

  /** A time zone name the service knows (time-zones.ts). */
  timeZone(o: Json, key: string, opts: Opts = {}) {
    const name = this.string(o, key, { ...opts, nonEmpty: true });
    if (typeof name === "string" && name.trim() !== "" && !isTimeZone(name))
      return this.fail(`${this.path(key)} ${JSON.stringify(name)} is not a time zone (an IANA name such as "America/Lima")`);
    return name;
  }

  integer(o: Json, key: string, opts: Opts & { min?: number; max?: number; oneOf?: readonly number[] } = {}) {
    return this.field(o, key, opts, (v) => {
      const ok =
        typeof v === "number" &&
        Number.isSafeInteger(v) &&
        (opts.min === undefined || v >= opts.min) &&
        (opts.max === undefined || v <= opts.max) &&
        (!opts.oneOf || opts.oneOf.includes(v));
      if (ok) return v as number;
      const range = opts.oneOf
        ? `one of ${opts.oneOf.join(", ")}`
        : opts.min === 0 && opts.max === undefined
          ? "a non-negative integer"
          : `an integer${opts.min !== undefined ? ` >= ${opts.min}` : ""}${opts.max !== undefined ? ` <= ${opts.max}` : ""}`;
      return this.fail(`${this.path(key)} must be ${range}${opts.nullable ? " or null" : ""}`);
    });
  }

  boolean(o: Json, key: string, opts: Opts = {}) {
    return this.field(o, key, opts, (v) => (typeof v === "boolean" ? v : this.fail(`${this.path(key)} must be true or false`)));
  }

  oneOf<T extends string>(o: Json, key: string, values: readonly T[], opts: Opts = {}) {
    return this.field(o, key, opts, (v) =>
      typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : this.fail(`${this.path(key)} must be one of: ${values.join(", ")}`),
    );
  }

  object(o: Json, key: string, opts: Opts = {}) {
    return this.field(o, key, opts, (v) => (isObject(v) ? v : this.fail(`${this.path(key)} must be an object`)));
  }

  array(o: Json, key: string, opts: Opts = {}) {
    return this.field(o, key, opts, (v) => (Array.isArray(v) ? (v as unknown[]) : this.fail(`${this.path(key)} must be an array`)));
  }

  /** An array of objects, each checked by `each` with a validator prefixed `key[i].`. */
  objects<T>(o: Json, key: string, each: (n: Validator, item: Json) => T, opts: Opts = {}): (T | undefined)[] | null | undefined {
    const list = this.array(o, key, opts);
    if (!list) return list;
    return list.map((item, i) => {
      const n = this.nested(`${key}[${i}].`);
      return isObject(item) ? each(n, item) : this.fail(`${this.path(`${key}[${i}]`)} must be an object`);
    });
  }

  /** A reference `{id, type?}`; returns the id. */
  reference(o: Json, key: string, opts: Opts = {}) {
    const ref = this.object(o, key, opts);
    if (!ref) return ref;
    if (typeof ref.id !== "string" || ref.id === "") return this.fail(`${this.path(`${key}.id`)} must be a non-empty string`);
    return ref.id;
  }

  /** Validate a nested object with a child validator that shares this error list. */
  nested(prefix: string): Validator {
    const child = new Validator(this.prefix + prefix);
    (child as { errors: string[] }).errors = this.errors;
    return child;
  }

  /** Throw one 400 listing every problem found. */
  done(): void {
    if (this.errors.length) throw invalid(...this.errors);
  }
}

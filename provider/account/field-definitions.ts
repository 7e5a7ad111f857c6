// The account's custom field definitions as this process knows them, for the checks and writes of
// custom field values. Three sources, because a program may define a field and set its values in the
// same deployment:
// - the account's listing, read once per process (definitions rarely change mid-run), and read
//   again after this process created, changed or deleted one;
// - the definitions the program declares (each ServiceCustomField's check records its own), which
//   win over the listing: at preview they do not exist yet, or not yet with the declared options;
// - when this process created each field, so a write of values can wait out the new field's lag
//   (PagerDuty is eventually consistent, kernel/consistency.ts).
import { isDeepStrictEqual } from "node:util";
import { ScopeError } from "../errors";
import type { ApiClient } from "../http/client";
import { FIELD_DEFINITIONS, FIELDS_READ } from "../kernel/api-paths";
import { UNKNOWN } from "../kernel/check";

/** A custom field's definition as `/services/custom_fields` lists it (or as a program declares it). */
export interface FieldDefinition {
  id?: string;
  name: string;
  data_type?: string;
  field_type?: string;
  field_options?: Array<{ id?: string; data?: { value?: unknown } }>;
}

export class FieldDefinitions {
  private listing?: Promise<FieldDefinition[] | undefined>;
  private readonly declared = new Map<string, FieldDefinition>();
  private readonly born = new Map<string, number>();

  constructor(private readonly client: ApiClient) {}

  /** The account's definitions with their options; undefined without `custom_fields.read` (the write then checks). */
  listed(): Promise<FieldDefinition[] | undefined> {
    if (!this.listing) {
      const listing = this.client
        .request<{ fields?: FieldDefinition[] }>("GET", FIELD_DEFINITIONS, { query: { include: ["field_options"] }, scopes: FIELDS_READ })
        .then((r) => r?.fields ?? [])
        .catch((e) => {
          if (e instanceof ScopeError) return undefined;
          this.listing = undefined; // a failure is not remembered
          throw e;
        });
      this.listing = listing;
    }
    return this.listing;
  }

  /** A definition of the account was created, changed or deleted by this process: the listing is read again. */
  changed(): void {
    this.listing = undefined;
  }

  /** What a ServiceCustomField of this deployment declares (its check): values are judged against it. */
  declare(def: FieldDefinition): void {
    this.declared.set(def.name, def);
  }

  /** The field `name` was created by this process just now (at `at`, epoch ms). */
  created(name: string, at: number): void {
    this.born.set(name, at);
    this.changed();
  }

  /** When this process created the field `name` (undefined: it did not). */
  createdAt(name: string): number | undefined {
    return this.born.get(name);
  }

  /** The definitions by name: the listed ones, with the program's declarations in place of theirs. Undefined: nothing is known. */
  async byName(): Promise<Map<string, FieldDefinition> | undefined> {
    const listed = await this.listed();
    if (!listed && this.declared.size === 0) return undefined;
    const out = new Map((listed ?? []).map((d) => [d.name, d]));
    for (const [name, d] of this.declared) out.set(name, d);
    return out;
  }
}

/** What a scalar of the field's data type must be, or undefined when `v` is one (or the type is new to us). */
function kindProblem(dataType: string | undefined, v: unknown): string | undefined {
  switch (dataType) {
    case "boolean":
      return typeof v === "boolean" ? undefined : "true or false";
    case "integer":
      return Number.isSafeInteger(v) ? undefined : "an integer";
    case "float":
      return typeof v === "number" && Number.isFinite(v) ? undefined : "a number";
    case "string":
      return typeof v === "string" ? undefined : "a string";
    case "url":
      return typeof v === "string" && /^https?:\/\/\S+$/.test(v) ? undefined : "an http(s) URL";
    case "datetime":
      return typeof v === "string" && !Number.isNaN(Date.parse(v)) ? undefined : "an ISO 8601 date-time string";
    default:
      return undefined;
  }
}

/**
 * Why `value` does not fit the field's definition, in the user's terms, or undefined when it does
 * (null always does: it clears the field). Values not known until apply are not judged.
 */
export function valueProblem(def: FieldDefinition, value: unknown): string | undefined {
  if (value === null || value === undefined || value === UNKNOWN) return undefined;
  const fieldType = def.field_type ?? "";
  const multi = fieldType.startsWith("multi");
  const kind = `"${def.name}" is a ${[fieldType, def.data_type].filter(Boolean).join(" ")} field`;
  if (multi && !Array.isArray(value)) return `must be a list of values (${kind}); got ${JSON.stringify(value)}`;
  if (!multi && fieldType && Array.isArray(value)) return `must be a single value, not a list (${kind})`;
  for (const v of Array.isArray(value) ? value : [value]) {
    if (v === UNKNOWN) continue;
    const expected = kindProblem(def.data_type, v);
    if (expected) return `must be ${expected} (${kind}); got ${JSON.stringify(v)}`;
    const options = (def.field_options ?? []).map((o) => o.data?.value);
    if (fieldType.endsWith("_fixed") && options.length && !options.some((o) => isDeepStrictEqual(o, v))) {
      return `must be one of the field's options ${options.map((o) => JSON.stringify(o)).join(", ")}; got ${JSON.stringify(v)}`;
    }
  }
  return undefined;
}

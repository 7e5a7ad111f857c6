// Key-case mapping between Pulumi's camelCase properties and the API's snake_case fields.
const toSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function mapKeys(value: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, f));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[f(k)] = mapKeys(v, f);
    return out;
  }
  return value;
}

/** Deep camelCase -> snake_case keys (undefined values dropped: they mean "not managed"). */
export const toApi = <T = Record<string, unknown>>(v: unknown) => mapKeys(v, toSnake) as T;
/** Deep snake_case -> camelCase keys. */
export const fromApi = <T = Record<string, unknown>>(v: unknown) => mapKeys(v, toCamel) as T;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

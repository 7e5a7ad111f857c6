// How a lookup finds its one object: by exact name in a listing (a miss lists what there is), or
// under a service, whose 404 is a miss on the `service` argument.
import { isNotFound } from "../http/client";
import { LookupMiss } from "../engine/lookup";

/** An object as a listing returns it: its id, and its name or summary. */
export interface Named {
  id: string;
  name?: string;
  summary?: string;
  [key: string]: unknown;
}

export const nameOf = (o: Named) => o.name ?? o.summary ?? "";

/** A miss's hint for objects a program often declares beside the lookup. */
export const DEPENDS_ON_HINT = " (if this program creates it, pass it in dependsOn)";

/**
 * The one item named exactly `name`; else a miss on `name` listing what there is (vendor names are
 * matched case-insensitively when no exact match exists, as users type them: "datadog" for "Datadog").
 */
export function byName<T extends Named>(items: T[], name: string, what: string, opts: { caseInsensitive?: boolean; hint?: string } = {}): T {
  const exact = items.filter((i) => nameOf(i) === name);
  const found = exact.length ? exact : opts.caseInsensitive ? items.filter((i) => nameOf(i).toLowerCase() === name.toLowerCase()) : [];
  if (found.length === 1) return found[0];
  const plural = what.endsWith("y") ? `${what.slice(0, -1)}ies` : `${what}s`;
  if (found.length > 1)
    throw new LookupMiss("name", `${found.length} ${plural} are named "${name}" (${found.map((i) => i.id).join(", ")}); names must be unique to look one up`);
  const names = items.map(nameOf).slice(0, 20);
  const known = names.length ? `; there are: ${names.map((n) => JSON.stringify(n)).join(", ")}${items.length > names.length ? ", ..." : ""}` : "";
  const exactly = opts.caseInsensitive ? "" : " (names match exactly, including case)";
  throw new LookupMiss("name", `no ${what} is named "${name}"${exactly}${opts.hint ?? ""}${known}`);
}

/** A read under a service: its 404 means the service does not exist. */
export async function underService<T>(service: string, get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (e) {
    if (isNotFound(e)) throw new LookupMiss("service", `no service has id "${service}"`);
    throw e;
  }
}

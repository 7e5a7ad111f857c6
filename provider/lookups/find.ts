// How a lookup finds its one object: by exact name in a listing (a miss lists what there is), or
// under a service, whose 404 is a miss on the `service` argument. PagerDuty shows a new object only
// seconds after its create (kernel/consistency.ts), and a program often looks up what it just made
// (dependsOn): a 404 of a service this process created, or a name missing from a listing while this
// process created an object of that kind, is believed only once the consistency window has passed.
import type { AccountContext } from "../account/context";
import { isNotFound } from "../http/client";
import { LookupMiss } from "../operations/lookup";

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
export function byName<T extends Named>(items: T[], name: string, what: string, opts: NameOptions = {}): T {
  const found = matching(items, name, opts);
  if (found.length === 1) return found[0];
  const plural = what.endsWith("y") ? `${what.slice(0, -1)}ies` : `${what}s`;
  if (found.length > 1)
    throw new LookupMiss("name", `${found.length} ${plural} are named "${name}" (${found.map((i) => i.id).join(", ")}); names must be unique to look one up`);
  const names = items.map(nameOf).slice(0, 20);
  const known = names.length ? `; there are: ${names.map((n) => JSON.stringify(n)).join(", ")}${items.length > names.length ? ", ..." : ""}` : "";
  const exactly = opts.caseInsensitive ? "" : " (names match exactly, including case)";
  throw new LookupMiss("name", `no ${what} is named "${name}"${exactly}${opts.hint ?? ""}${known}`);
}

interface NameOptions {
  caseInsensitive?: boolean;
  hint?: string;
}

/** The items named `name`: exactly, else (`caseInsensitive`) in any case. */
function matching<T extends Named>(items: T[], name: string, opts: NameOptions): T[] {
  const exact = items.filter((i) => nameOf(i) === name);
  return exact.length ? exact : opts.caseInsensitive ? items.filter((i) => nameOf(i).toLowerCase() === name.toLowerCase()) : [];
}

/**
 * The listing `list` answers, listed again while it has nothing named `name` and an object of `kind`
 * this process created may still be missing from it (none created: listed once).
 */
export async function listedWith<T>(ctx: AccountContext, kind: string, list: () => Promise<T[]>, named: (items: T[]) => boolean): Promise<T[]> {
  const since = ctx.consistency.lastCreated(kind);
  if (since === undefined) return list();
  let items: T[] = [];
  await ctx.consistency.search(since, async () => {
    items = await list();
    return named(items) ? [items] : [];
  });
  return items;
}

/** byName over a listing, listed again while an object of `kind` this process created may be missing from it. */
export async function listedByName<T extends Named>(
  ctx: AccountContext,
  kind: string,
  list: () => Promise<T[]>,
  name: string,
  what: string,
  opts: NameOptions = {},
): Promise<T> {
  return byName(await listedWith(ctx, kind, list, (items) => matching(items, name, opts).length > 0), name, what, opts);
}

/**
 * A read under a service: its 404 means the service does not exist, once a service this process
 * created has had the consistency window to appear.
 */
export async function underService<T>(ctx: AccountContext, service: string, get: () => Promise<T>): Promise<T> {
  const since = ctx.consistency.createdAt("Service", service);
  try {
    return await (since === undefined ? get() : ctx.consistency.untilVisible(since, get));
  } catch (e) {
    if (isNotFound(e)) throw new LookupMiss("service", `no service has id "${service}"`);
    throw e;
  }
}

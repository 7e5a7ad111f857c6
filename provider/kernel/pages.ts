// Reading whole lists from the API's two pagination styles: offset (`limit`, `offset`, `more`) for
// index endpoints, and cursor (`limit`, `cursor`, `next_cursor`) for audit records.
import type { ApiClient, Query } from "../http/client";
import { PagerDutyError } from "../errors";

/** The API's maximum page size. */
export const MAX_PAGE = 100;
/** A guard against a server that never ends a listing. */
const MAX_PAGES = 10_000;

/** Every item of an offset-paginated index, following `more`. */
export async function listOffset<T>(client: ApiClient, path: string, key: string, scopes: string[], query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.request<Record<string, unknown>>("GET", path, { query: { ...query, limit: MAX_PAGE, offset: items.length }, scopes });
    const batch = (res?.[key] ?? []) as T[];
    items.push(...batch);
    if (res?.more !== true || batch.length === 0) return items;
  }
  throw new PagerDutyError("ERR_API", `GET ${path} kept reporting more items after ${MAX_PAGES} pages`);
}

/**
 * Every item of an offset-paginated index, or undefined when it holds more than `max`. The first
 * page asks for the total, and the pages after it are then fetched at once rather than one after
 * another; a server that gives no total is followed by `more`, as in listOffset.
 */
export type Page = Record<string, unknown> & { more?: boolean; total?: number | null };

/** The first page of an offset-paginated index with its total (what listOffsetAtOnce starts from). */
export function firstPage(client: ApiClient, path: string, scopes: string[], query: Query = {}): Promise<Page> {
  return client.request<Page>("GET", path, { query: { ...query, limit: MAX_PAGE, offset: 0, total: true }, scopes });
}

export async function listOffsetAtOnce<T>(
  client: ApiClient,
  path: string,
  key: string,
  scopes: string[],
  max: number,
  query: Query = {},
  /** A first page already asked for (firstPage with the same query). */
  started?: Promise<Page>,
): Promise<T[] | undefined> {
  const page = (offset: number) => client.request<Page>("GET", path, { query: { ...query, limit: MAX_PAGE, offset }, scopes });
  const batch = (p: Page) => (p?.[key] ?? []) as T[];
  const first = await (started ?? firstPage(client, path, scopes, query));
  const items = [...batch(first)];
  if (typeof first.total === "number") {
    if (first.total > max) return undefined;
    const offsets: number[] = [];
    for (let o = items.length; first.more === true && o < first.total; o += MAX_PAGE) offsets.push(o);
    for (const p of await Promise.all(offsets.map((o) => page(o)))) items.push(...batch(p));
    return items;
  }
  for (let p = first; p.more === true && batch(p).length > 0; ) {
    if (items.length >= max) return undefined;
    p = await page(items.length);
    items.push(...batch(p));
  }
  return items;
}

/** Every item of a cursor-paginated listing, following `next_cursor` until it is null. */
export async function listCursor<T>(client: ApiClient, path: string, key: string, scopes: string[], query: Query = {}, limit = MAX_PAGE): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.request<Record<string, unknown>>("GET", path, { query: { ...query, limit, cursor }, scopes });
    items.push(...((res?.[key] ?? []) as T[]));
    const next = res?.next_cursor;
    if (typeof next !== "string" || next === "") return items;
    if (seen.has(next)) throw new PagerDutyError("ERR_API", `GET ${path} returned the cursor of an earlier page again`);
    seen.add(next);
    cursor = next;
  }
  throw new PagerDutyError("ERR_API", `GET ${path} kept returning a next_cursor after ${MAX_PAGES} pages`);
}

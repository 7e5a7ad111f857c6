// Reading whole lists from the API's two pagination styles: offset (`limit`, `offset`, `more`) for
// index endpoints, and cursor (`limit`, `cursor`, `next_cursor`) for audit records.
import type { Query } from "../http/client";
import { PagerDutyError } from "../errors";
import { getClient } from "../runtime";

/** The API's maximum page size. */
export const MAX_PAGE = 100;
/** A guard against a server that never ends a listing. */
const MAX_PAGES = 10_000;

/** Every item of an offset-paginated index, following `more`. */
export async function listOffset<T>(path: string, key: string, scopes: string[], query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await getClient().request<Record<string, unknown>>("GET", path, { query: { ...query, limit: MAX_PAGE, offset: items.length }, scopes });
    const batch = (res?.[key] ?? []) as T[];
    items.push(...batch);
    if (res?.more !== true || batch.length === 0) return items;
  }
  throw new PagerDutyError("ERR_API", `GET ${path} kept reporting more items after ${MAX_PAGES} pages`);
}

/** Every item of a cursor-paginated listing, following `next_cursor` until it is null. */
export async function listCursor<T>(path: string, key: string, scopes: string[], query: Query = {}, limit = MAX_PAGE): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await getClient().request<Record<string, unknown>>("GET", path, { query: { ...query, limit, cursor }, scopes });
    items.push(...((res?.[key] ?? []) as T[]));
    const next = res?.next_cursor;
    if (typeof next !== "string" || next === "") return items;
    if (seen.has(next)) throw new PagerDutyError("ERR_API", `GET ${path} returned the cursor of an earlier page again`);
    seen.add(next);
    cursor = next;
  }
  throw new PagerDutyError("ERR_API", `GET ${path} kept returning a next_cursor after ${MAX_PAGES} pages`);
}

// A refresh reads every service and integration of a stack at once, one GET each, and every read
// holds one of the engine's slots for a round trip. When reads overlap (a burst, not a single
// targeted read), one listing of the account's services with their integrations answers the rest
// of the burst: a page per 100 services instead of a request per object.
//
// The listing only ever answers "here it is". An object it does not show (deleted, or moved
// between pages by a concurrent change) is read on its own, so a listing can never make refresh
// drop a resource from the state. A write of this process started or finished since the listing
// was taken makes it unusable, and it is not reused after TTL_MS.
import type { ApiClient } from "../http/client";
import { MAX_PAGE } from "./pages";

/** How long a listing answers reads; a refresh burst is far shorter, a later one takes its own. */
export const TTL_MS = 10_000;
/** Accounts with more services than this are not listed: the pages would cost more than they save. */
export const MAX_LISTED = 500;

const READ = ["services.read"];

export interface ListedService {
  id: string;
  integrations?: Array<{ id: string; type?: string }>;
  [field: string]: unknown;
}

interface Listing {
  takenAt: number;
  writes: number;
  services: Promise<Map<string, ListedService> | undefined>;
}

class ServiceListing {
  private singles = 0;
  private listing?: Listing;
  private tooLarge = false;

  constructor(private readonly client: ApiClient) {}

  /**
   * A read of something service `serviceId`'s listing entry holds: `pick` takes it from a usable
   * listing, otherwise `single` reads it on its own. A read while another is in flight starts a
   * listing; the count is taken before the first await, so reads started together see each other.
   */
  async read<T>(serviceId: string, pick: (s: ListedService) => T | undefined, single: () => Promise<T>): Promise<T> {
    const listing = this.usable() ?? (this.singles > 0 && !this.tooLarge ? this.take() : undefined);
    if (listing) {
      const services = await listing.services;
      const listed = listing.writes === this.client.writeCount ? services?.get(serviceId) : undefined;
      const picked = listed && pick(listed);
      if (picked) return picked;
    }
    this.singles++;
    try {
      return await single();
    } finally {
      this.singles--;
    }
  }

  private usable(): Listing | undefined {
    const l = this.listing;
    return l && l.writes === this.client.writeCount && Date.now() - l.takenAt < TTL_MS ? l : undefined;
  }

  private take(): Listing {
    const listing: Listing = { takenAt: Date.now(), writes: this.client.writeCount, services: this.list().catch(() => undefined) };
    this.listing = listing;
    return listing;
  }

  /** Every service with its integrations, or undefined when the account has more than MAX_LISTED. */
  private async list(): Promise<Map<string, ListedService> | undefined> {
    type Page = { services?: ListedService[]; more?: boolean; total?: number | null };
    const page = (offset: number, total = false) =>
      this.client.request<Page>("GET", "/services", {
        query: { "include[]": ["integrations"], limit: MAX_PAGE, offset, ...(total ? { total: true } : {}) },
        scopes: READ,
      });
    const first = await page(0, true);
    const items = [...(first.services ?? [])];
    if (typeof first.total === "number") {
      if (first.total > MAX_LISTED) return this.giveUp();
      // The total is known: the other pages at once.
      const offsets: number[] = [];
      for (let o = items.length; first.more === true && o < first.total; o += MAX_PAGE) offsets.push(o);
      for (const p of await Promise.all(offsets.map((o) => page(o)))) items.push(...(p.services ?? []));
    } else {
      for (let p = first; p.more === true && (p.services?.length ?? 0) > 0; ) {
        if (items.length >= MAX_LISTED) return this.giveUp();
        p = await page(items.length);
        items.push(...(p.services ?? []));
      }
    }
    return new Map(items.map((s) => [s.id, s]));
  }

  private giveUp(): undefined {
    this.tooLarge = true;
    return undefined;
  }
}

const listings = new WeakMap<ApiClient, ServiceListing>();

/** The listing of the account `client` works for (one per client, so per account and credential). */
export function serviceListing(client: ApiClient): ServiceListing {
  let l = listings.get(client);
  if (!l) listings.set(client, (l = new ServiceListing(client)));
  return l;
}

/** `ServiceListing.read` on the listing of `client`'s account. */
export function readViaListing<T>(client: ApiClient, serviceId: string, pick: (s: ListedService) => T | undefined, single: () => Promise<T>): Promise<T> {
  return serviceListing(client).read(serviceId, pick, single);
}

/** An integration as the listing embeds it, when it embeds it whole (not as a reference). */
export function listedIntegration<T>(service: ListedService, id: string): T | undefined {
  const found = service.integrations?.find((i) => i.id === id);
  return found && !String(found.type ?? "").endsWith("_reference") ? (found as T) : undefined;
}

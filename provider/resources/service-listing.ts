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
import { listOffsetAtOnce } from "./pages";

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
    const services = await listOffsetAtOnce<ListedService>(this.client, "/services", "services", READ, MAX_LISTED, { "include[]": ["integrations"] });
    if (!services) this.tooLarge = true;
    return services && new Map(services.map((s) => [s.id, s]));
  }
}

const listings = new WeakMap<ApiClient, ServiceListing>();

/**
 * `ServiceListing.read` on the listing of `client`'s account (one listing per client, so per
 * account and credential).
 */
export function readViaListing<T>(client: ApiClient, serviceId: string, pick: (s: ListedService) => T | undefined, single: () => Promise<T>): Promise<T> {
  let listing = listings.get(client);
  if (!listing) listings.set(client, (listing = new ServiceListing(client)));
  return listing.read(serviceId, pick, single);
}

/** An integration as the listing embeds it, when it embeds it whole (not as a reference). */
export function listedIntegration<T>(service: ListedService, id: string): T | undefined {
  const found = service.integrations?.find((i) => i.id === id);
  return found && !String(found.type ?? "").endsWith("_reference") ? (found as T) : undefined;
}

// A refresh reads every service, integration and rule of a stack at once, one GET each, and every
// read holds one of the engine's slots for a round trip. When reads overlap (a burst, not a single
// targeted read), a listing answers the rest of the burst instead:
// - services and their integrations: `GET /services?include[]=integrations`, a page per 100
//   services. It is taken once the reads of the burst so far reach the number of its pages (the
//   first page, which counts as one of them, tells the total), so a big account is listed only when
//   the stack reads enough of it: the choice is by cost, not by a cap on the account's size;
// - the event rules of one service: one `GET /services/{id}/rules` for every rule of it read in
//   the burst.
//
// A listing only ever answers "here it is". An object it does not show (deleted, or moved between
// pages by a concurrent change) is read on its own, so a listing can never make refresh drop a
// resource from the state. A write of this process started or finished since the listing was taken
// makes it unusable, and it is not reused after TTL_MS.
import type { ApiClient } from "../http/client";
import { firstPage, listOffset, listOffsetAtOnce, MAX_PAGE, type Page } from "../kernel/pages";
import { READ, rulesPath, SERVICES } from "../kernel/api-paths";

/** How long a listing answers reads; a refresh burst is far shorter, a later one takes its own. */
export const TTL_MS = 10_000;

export interface ListedService {
  id: string;
  integrations?: Array<{ id: string; type?: string }>;
  [field: string]: unknown;
}

interface Listing<T> {
  takenAt: number;
  writes: number;
  items: Promise<Map<string, T> | undefined>;
}

/**
 * Reads of one kind that may be answered by one listing. `worth(reads)` says whether a listing pays
 * for itself after `reads` reads of the burst (undefined: not yet known); `list()` takes it.
 */
class SharedReads<T> {
  private singles = 0;
  private reads = 0;
  private lastReadAt = 0;
  private listing?: Listing<T>;

  constructor(
    private readonly client: ApiClient,
    private readonly list: () => Promise<Map<string, T> | undefined>,
    private readonly worth: (reads: number) => Promise<boolean> = async () => true,
  ) {}

  /**
   * A read of object `key`: `pick` takes it from a usable listing, otherwise `single` reads it on
   * its own. A read while another is in flight may start a listing; the counts are taken before
   * the first await, so reads started together see each other.
   */
  async read<R>(key: string, pick: (found: T) => R | undefined, single: () => Promise<R>): Promise<R> {
    const now = Date.now();
    if (now - this.lastReadAt > TTL_MS) this.reads = 0;
    this.lastReadAt = now;
    this.reads++;
    const overlapping = this.singles > 0;
    const listing = this.usable() ?? (overlapping && (await this.worth(this.reads)) ? (this.usable() ?? this.take()) : undefined);
    if (listing) {
      const items = await listing.items;
      const listed = listing.writes === this.client.writeCount ? items?.get(key) : undefined;
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

  private usable(): Listing<T> | undefined {
    const l = this.listing;
    return l && l.writes === this.client.writeCount && Date.now() - l.takenAt < TTL_MS ? l : undefined;
  }

  private take(): Listing<T> {
    const listing: Listing<T> = { takenAt: Date.now(), writes: this.client.writeCount, items: this.list().catch(() => undefined) };
    this.listing = listing;
    return listing;
  }
}

/** The account's services with their integrations, and when a listing of them pays. */
class ServiceListing {
  readonly reads: SharedReads<ListedService>;
  /** The listing's first page (with the total), asked for once per TTL window and reused by the listing. */
  private first?: { at: number; writes: number; page: Promise<Page | undefined> };

  constructor(private readonly client: ApiClient) {
    this.reads = new SharedReads(
      client,
      () => this.list(),
      (reads) => this.worth(reads),
    );
  }

  /** A listing pays once the burst's reads reach its pages: at most one request per read so far. */
  private async worth(reads: number): Promise<boolean> {
    const first = await this.firstPage();
    if (typeof first?.total !== "number") return first !== undefined;
    return reads >= Math.max(1, Math.ceil(first.total / MAX_PAGE));
  }

  private firstPage(): Promise<Page | undefined> {
    const f = this.first;
    if (!f || f.writes !== this.client.writeCount || Date.now() - f.at >= TTL_MS) {
      this.first = { at: Date.now(), writes: this.client.writeCount, page: firstPage(this.client, SERVICES, READ, LISTED).catch(() => undefined) };
    }
    return this.first!.page;
  }

  private async list(): Promise<Map<string, ListedService> | undefined> {
    const first = this.firstPage().then((p) => p ?? Promise.reject(new Error("the first page failed")));
    const services = await listOffsetAtOnce<ListedService>(this.client, SERVICES, "services", READ, Infinity, LISTED, first);
    return services && new Map(services.map((s) => [s.id, s]));
  }
}

const LISTED = { "include[]": ["integrations"] };

/**
 * The refresh listings of one account (its client): services with their integrations, and the
 * rules of each service.
 */
export class Listings {
  private services?: ServiceListing;
  private readonly rules = new Map<string, SharedReads<{ id: string }>>();

  constructor(private readonly client: ApiClient) {}

  /** A read of (something in) service `serviceId`, through the services listing when it pays. */
  service<T>(serviceId: string, pick: (s: ListedService) => T | undefined, single: () => Promise<T>): Promise<T> {
    this.services ??= new ServiceListing(this.client);
    return this.services.reads.read(serviceId, pick, single);
  }

  /**
   * A read of rule `id` of `service`: rules of one service read in one burst share one listing of
   * that service's rules. A service with no rules left, or gone, is left to the single read.
   */
  rule<T extends { id: string }>(service: string, id: string, single: () => Promise<T>): Promise<T> {
    let reads = this.rules.get(service);
    if (!reads) {
      const path = rulesPath(service);
      reads = new SharedReads(this.client, async () => new Map((await listOffset<{ id: string }>(this.client, path, "rules", READ)).map((r) => [r.id, r])));
      this.rules.set(service, reads);
    }
    return reads.read(id, (r) => r as T, single);
  }
}

/** An integration as the listing embeds it, when it embeds it whole (not as a reference). */
export function listedIntegration<T>(service: ListedService, id: string): T | undefined {
  const found = service.integrations?.find((i) => i.id === id);
  return found && !String(found.type ?? "").endsWith("_reference") ? (found as T) : undefined;
}

// The emulator's runtime: state plus the clock, id allocator, statistics, faults, rate limiter,
// consistency lag and persistence that every route shares. Routes get it as `core`; nothing here knows HTTP.
// It knows the kinds (kinds/) only as what they tell it: their tables and what a deleted service takes.
import { Clock } from "./clock";
import { Faults } from "./faults";
import { IdAllocator, secret } from "./ids";
import { IssuedSecrets } from "./issued";
import { Lag, type LagSettings, NO_LAG } from "./lag";
import { loadState, saveState } from "./persistence";
import { RateLimiter } from "./ratelimit";
import { applySeed, defaultSeed, type KindSeed, readSeedFile, type SeedDocument, type SeedSummary, summarize } from "./seed";
import { Stats } from "./stats";
import { CORE_TABLES, emptyCoreState, type KindTables, type ServiceRecord, type State, withBareTables } from "./store";
import type { AuthCode, PendingAuthorization } from "./auth-codes";

export interface EmulatorOptions {
  /** Seed document or path of a seed JSON file; default: `defaultSeed()`. */
  seed?: SeedDocument | string;
  /** Persist state to this file (loaded when it exists, else seeded and written). */
  dataFile?: string;
  /** Requests per minute per app (or API key) per account; default 960. */
  rateLimit?: number;
  /** Fixed admin token; default random (or the data file's). */
  adminToken?: string;
  /** Largest accepted request body in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** Fastify logger option; default off (the emulator never logs secrets either way). */
  logger?: boolean;
  /** Base URL for `self` links; default taken from each request's Host header. */
  publicUrl?: string;
  /** For `startEmulator`: port (0 = any free port) and host. */
  port?: number;
  host?: string;
  /**
   * For `startEmulator`: serve HTTPS. `true` makes a local CA and a certificate for
   * 127.0.0.1/localhost/::1 (the CA kept beside `dataFile`, else in a temp dir); or the user's files.
   */
  tls?: boolean | { certFile: string; keyFile: string };
  /** Consistency lag (lag.ts); default none. A reset returns to these settings. */
  lag?: Partial<LagSettings>;
}

export const DEFAULT_RATE_LIMIT = 960;

/** The core's tables the registry snapshot keeps on reset (with the kinds' `seeded` ones); everything else is cleared. */
const REGISTRY_KEYS = ["accounts", "users", "apps", "apiKeys", "escalationPolicies"] as const;

/** What the core is told of a kind (kinds/kind.ts has the rest): its tables, and what a deleted service takes of it. */
export interface KindState {
  readonly name: string;
  /** Its tables in the state, each with its empty value. The whole state is saved as JSON, so a table is persisted by being here. */
  readonly tables: Partial<KindTables>;
  /** Tables the seed fills: a reset gives them back as they were at start, not empty. */
  readonly seeded?: readonly (keyof KindTables)[];
  /**
   * What a deleted service takes of the kind, called just before the service goes: its children in
   * the kind's tables, references to it; or why the kind keeps them. Absent: nothing of the kind
   * outside the service's own record names a service.
   */
  readonly serviceDeleted?: ((core: EmulatorCore, s: ServiceRecord) => void) | { readonly kept: string };
  /**
   * Why service `s` is in maintenance now, by the kind (say, a maintenance window naming it that is
   * ongoing by the core's clock), or undefined. A service some kind puts in maintenance shows the
   * status "maintenance", and events sent to it change nothing (`EmulatorCore.maintenanceOf`).
   */
  readonly maintenance?: (core: EmulatorCore, s: ServiceRecord) => string | undefined;
  /**
   * Fields it shows on service `s` as the API renders one (references to its children there, a
   * status computed from what it keeps); `include` is the request's `include[]`. They replace the
   * service's own (kinds/service/view.ts; `EmulatorCore.serviceView`).
   */
  readonly serviceView?: (core: EmulatorCore, base: string, s: ServiceRecord, include: ReadonlySet<string>) => Record<string, unknown>;
  /** What it does once service `s`'s fields were written; `sent`, the fields the request sent (a service's own alert grouping parameters take it out of its setting). */
  readonly serviceWritten?: (core: EmulatorCore, s: ServiceRecord, sent: Readonly<Record<string, unknown>>) => void;
  /** What it lets go of when an object of another kind, not a service (`serviceDeleted`), is deleted, by id (a business service's dependencies). */
  readonly objectDeleted?: (core: EmulatorCore, id: string) => void;
  /** Its section of the seed document, which fills its tables at start (list them in `seeded` too, so a reset gives them back). */
  readonly seed?: KindSeed;
}

export class EmulatorCore {
  private current!: State;
  /** The tables of the state (the core's and the kinds'), kept without a prototype: `withBareTables`. */
  private readonly tables: readonly string[];
  readonly clock = new Clock();
  readonly ids: IdAllocator;
  readonly stats = new Stats();
  readonly faults = new Faults();
  /** Tokens, routing keys and client secrets handed out since start, for secret scans (issued.ts). */
  readonly issued = new IssuedSecrets();
  readonly limiter: RateLimiter;
  readonly lag: Lag;
  /** Authorization codes and pending consent pages: short-lived, never persisted. */
  readonly codes = new Map<string, AuthCode>();
  readonly pending = new Map<string, PendingAuthorization>();
  /** Every route the app serves (filled as the app gets ready: the kinds register theirs as fastify plugins). */
  readonly routes: { method: string; url: string }[] = [];
  private readonly registry: Partial<State>;
  private readonly dataFile?: string;

  /** `kinds`: every kind served (kinds/index.ts), whose tables make up the state with the core's. */
  constructor(
    readonly opts: EmulatorOptions,
    private readonly kinds: readonly KindState[],
  ) {
    // A kind's table keyed by id is an object; its lists and counters are not.
    const keyed = (empty: unknown) => typeof empty === "object" && empty !== null && !Array.isArray(empty);
    this.tables = [...CORE_TABLES, ...kinds.flatMap((k) => Object.entries(k.tables).flatMap(([t, empty]) => (keyed(empty) ? [t] : [])))];
    this.dataFile = opts.dataFile;
    this.limiter = new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);
    this.lag = new Lag({ ...NO_LAG, ...opts.lag }, this.clock, this.stats);
    const loaded = this.dataFile ? loadState(this.dataFile, this.emptyTables()) : undefined;
    if (loaded) {
      this.state = loaded;
      if (opts.adminToken) this.state.adminToken = opts.adminToken;
      this.ids = new IdAllocator(new Set(loaded.usedIds));
    } else {
      this.state = this.emptyState(opts.adminToken ?? secret());
      this.ids = new IdAllocator();
      const doc = typeof opts.seed === "string" ? readSeedFile(opts.seed) : (opts.seed ?? defaultSeed());
      applySeed(this.state, this.ids, doc, this.clock.iso(), this.seedSections);
    }
    const kept = [...REGISTRY_KEYS, ...kinds.flatMap((k) => k.seeded ?? [])];
    this.registry = structuredClone(Object.fromEntries(kept.map((k) => [k, this.state[k]])));
    this.save();
  }

  /** The whole state. Set anew at start, on reset and when an admin seed is applied to a copy. */
  get state(): State {
    return this.current;
  }

  set state(next: State) {
    this.current = withBareTables(next, this.tables);
  }

  /** The kinds' sections of the seed document (`KindState.seed`). */
  get seedSections(): KindSeed[] {
    return this.kinds.flatMap((k) => (k.seed ? [k.seed] : []));
  }

  /** Every kind's tables, empty (their values are cloned: a kind's declaration is never the live table). */
  private emptyTables(): KindTables {
    return Object.assign({}, ...this.kinds.map((k) => structuredClone(k.tables)));
  }

  private emptyState(adminToken: string): State {
    return { ...emptyCoreState(adminToken), ...this.emptyTables() };
  }

  get adminToken(): string {
    return this.state.adminToken;
  }

  summary(): SeedSummary {
    return summarize(this.state);
  }

  /** Write the state when persistence is on (called before a mutating reply is sent). */
  save(): void {
    if (!this.dataFile) return;
    this.state.usedIds = [...this.ids.used];
    saveState(this.dataFile, this.state);
  }

  /**
   * Back to the registry as it was at startup (accounts, users, apps, keys, policies, field
   * definitions) with no services, tokens, audit records, faults, statistics or clock offset, and
   * the startup lag settings. Ids handed out before stay used.
   */
  reset(): void {
    const fresh = this.emptyState(this.state.adminToken);
    fresh.signingKey = this.state.signingKey;
    Object.assign(fresh, structuredClone(this.registry));
    this.state = fresh;
    this.codes.clear();
    this.pending.clear();
    this.faults.clear();
    this.limiter.reset();
    this.clock.reset();
    this.lag.reset();
    Object.assign(this.stats, new Stats());
    this.save();
  }

  /** Each kind lets go of service `s`, which is about to be deleted (`KindState.serviceDeleted`). */
  serviceDeleted(s: ServiceRecord): void {
    for (const k of this.kinds) if (typeof k.serviceDeleted === "function") k.serviceDeleted(this, s);
  }

  /** What the kinds show on service `s` (`KindState.serviceView`), later kinds' fields over earlier ones'. */
  serviceView(base: string, s: ServiceRecord, include: ReadonlySet<string>): Record<string, unknown> {
    return Object.assign({}, ...this.kinds.map((k) => k.serviceView?.(this, base, s, include) ?? {}));
  }

  /** Each kind hears that service `s`'s fields were written (`KindState.serviceWritten`). */
  serviceWritten(s: ServiceRecord, sent: Readonly<Record<string, unknown>>): void {
    for (const k of this.kinds) k.serviceWritten?.(this, s, sent);
  }

  /** Each kind lets go of object `id`, just deleted (`KindState.objectDeleted`). */
  objectDeleted(id: string): void {
    for (const k of this.kinds) k.objectDeleted?.(this, id);
  }

  /** Why service `s` is in maintenance now (the first kind that says so), or undefined (`KindState.maintenance`). */
  maintenanceOf(s: ServiceRecord): string | undefined {
    for (const k of this.kinds) {
      const why = k.maintenance?.(this, s);
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** Start the consistency-lag window (lag.ts) of an object just created in an account, by the account's region. */
  startLag(accountId: string, id: string): void {
    this.lag.created(id, this.state.accounts[accountId]?.region ?? "us");
  }
}

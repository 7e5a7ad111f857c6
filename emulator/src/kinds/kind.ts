// What a kind of object the emulator serves brings, in one module (kinds/<kind>.ts, or
// kinds/<kind>/index.ts when it has several files) listed once in kinds/index.ts: its tables in the
// state (the core saves and loads them with the rest), its routes (a fastify plugin given the core),
// how the consistency lag hides a new one, what a deleted service takes of it, and an example the
// kinds' test makes through its routes (tests/emulator/kinds.test.ts), which fails when one of these
// is missing from what the kind does.
import type { FastifyInstance } from "fastify";
import type { EmulatorCore, KindState } from "../core";
import type { AdminRoute } from "../http";
import { type KindTables, owned } from "../store";

/** What a kind's routes receive as the plugin's options: the core, instead of importing it. */
export interface KindOptions {
  core: EmulatorCore;
}

/** Path parameters of a request (every route's are strings). */
export type Params = Readonly<Record<string, string>>;

/**
 * A new object hidden in the paths that name it: while its window lasts, a request to a route under
 * one of `paths` that names it answers 404 before its handler runs (lag-gate.ts), and its listings
 * leave it out (their handlers ask `core.lag.visible`).
 */
export interface LagPaths {
  /** Route patterns (as the kind registers them) whose parameters name an object of the kind; routes under them are covered too. */
  readonly paths: readonly string[];
  /** The object a request's parameters name in the caller's account, and the not-found message it answers while hidden; none: the handler answers. */
  find(core: EmulatorCore, params: Params, accountId: string): { id: string; missing: string } | undefined;
}

/**
 * The usual `LagPaths["find"]`: the object of `table` that the path parameter `param` names in the
 * caller's account, missing as "<label> <id>"; with `parent`, the parameter naming its service, it
 * must be that service's too, missing as "<label> <id> of service <service id>".
 */
export function ownedFind<T extends { id: string; accountId: string; serviceId?: string }>(
  table: (core: EmulatorCore) => Record<string, T>,
  param: string,
  label: string,
  parent?: string,
): LagPaths["find"] {
  return (core, p, accountId) => {
    const o = owned(table(core), p[param], accountId);
    if (!o) return undefined;
    if (parent === undefined) return { id: o.id, missing: `${label} ${o.id}` };
    return o.serviceId === p[parent] ? { id: o.id, missing: `${label} ${o.id} of service ${p[parent]}` } : undefined;
  };
}

/**
 * How the consistency lag (lag.ts) treats a new object of the kind: hidden where paths name it
 * (`LagPaths`), hidden from its listings only as no path names it alone (`listedOnly`, why), or
 * never hidden on its own (`never`, why).
 */
export type KindLag = LagPaths | { readonly listedOnly: string } | { readonly never: string };

/** What the kinds' test makes before an example: a service, a second one, an Events API v2 integration's routing key on the first; and the account's escalation policy. */
export interface ExampleIds {
  service: string;
  other: string;
  routingKey: string;
  escalationPolicy: string;
}

/** One object made through the kind's own routes, for the kinds' test. */
export interface Example {
  /** The request that makes it: a REST call with the account's API key, or an event (`POST /v2/enqueue`) for what events make. */
  create(ids: ExampleIds): { method: "POST" | "PUT"; path: string; body: Record<string, unknown> };
  /**
   * Where it shows afterwards, given the id the create's reply gave its object (none for an event): a
   * GET of it, or a listing (`key` of its reply) that holds the item `id` (none: any item).
   */
  found(made: { id?: string }, ids: ExampleIds): { get: string } | { list: string; key: string; id?: string };
}

/** A kind, typed by the tables it brings (`T`, keys of `KindTables`). */
export interface Kind<T extends keyof KindTables = never> extends KindState {
  readonly tables: Readonly<Pick<KindTables, T>>;
  /** Its routes, registered in an encapsulated fastify context with `{ core }` as options. */
  routes(app: FastifyInstance, opts: KindOptions): Promise<void>;
  readonly lag: KindLag;
  /** Its test controls under /_emulator (admin.ts registers them in its plugin, behind the admin token). */
  readonly adminRoutes?: (route: AdminRoute, core: EmulatorCore) => void;
  /** What it does before any request is handled (the clock may have moved since the last one). */
  readonly beforeRequest?: (core: EmulatorCore) => void;
  readonly example: Example;
}

/** Any kind, whatever its tables: what the list, the app and the lag gate hold. */
export type AnyKind = Omit<Kind, "tables"> & { readonly tables: Partial<KindTables> };

/** A kind's declaration, its table names kept in its type (kinds/index.ts checks every table has its kind). */
export const defineKind = <T extends keyof KindTables = never>(kind: Kind<T>): Kind<T> => kind;

/** The lag entry of a kind hidden in its paths (what the lag gate reads). */
export const lagPaths = (lag: KindLag): LagPaths | undefined => ("paths" in lag ? lag : undefined);

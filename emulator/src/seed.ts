// Seeding: a JSON document (accounts, users, apps, API keys, escalation policies, custom field
// definitions) turned into state. Secrets and ids left out are generated, so the default seed
// gets fresh credentials on every start; a seed file or a data file fixes them.
import { readFileSync } from "node:fs";
import { deepestPath, MAX_DEPTH, pathText } from "./depth";
import { type IdAllocator, randomString, secret } from "./ids";
import { CLASSIC_SCOPES, DEFAULT_APP_SCOPES } from "./scopes";
import type { Account, App, AppKind, Region, Role, State } from "./store";
import { accountBySubdomain } from "./store";

export interface SeedDocument {
  accounts?: { id?: string; subdomain: string; region?: Region; name?: string; aiopsEntitled?: boolean }[];
  users?: { id?: string; account: string; email: string; name?: string; password?: string; role?: Role }[];
  apps?: {
    id?: string;
    account: string;
    name: string;
    kind: AppKind;
    confidential?: boolean;
    clientId?: string;
    clientSecret?: string;
    scopes?: string[] | string;
    redirectUris?: string[];
    published?: boolean;
    /** Subdomains of other accounts whose admin installed the app. */
    installs?: string[];
  }[];
  apiKeys?: {
    id?: string;
    account: string;
    kind?: "account" | "user";
    /** The user's email or id, for user keys. */
    user?: string;
    name?: string;
    token?: string;
    readOnly?: boolean;
  }[];
  escalationPolicies?: { id?: string; account: string; name: string }[];
  /** The custom-field kind's section (kinds/custom-field/: its `seed`); a kind's section is a list of entries, each naming its account. */
  customFields?: SeedEntry[];
}

/** One entry of a kind's section of the seed: the subdomain of its account, an optional id, and the kind's own fields. */
export type SeedEntry = { account: string } & Record<string, unknown>;

/**
 * A kind's section of the seed document (`KindState.seed`): the core reads the entries and their
 * accounts, the kind makes each entry's object in its tables and returns its id, or throws saying
 * what is wrong (the core adds where).
 */
export interface KindSeed {
  readonly key: keyof SeedDocument & string;
  add(state: State, ids: IdAllocator, accountId: string, fields: Record<string, unknown>, now: string, id?: string): string;
}

/** One account's credentials: its first usable Scoped app, read/write account key and policy. */
export interface AccountSummary {
  account: { subdomain: string; region: Region };
  oauth: { clientId: string; clientSecret: string; scopes: string };
  apiKey: string;
  escalationPolicyId: string;
}

/**
 * What the CLI prints and `buildEmulator` returns: the credentials most callers need, of the
 * first account, and in `eu` those of the first EU account when the seed has one (its REST base
 * is `<url>/eu`).
 */
export interface SeedSummary extends AccountSummary {
  eu?: AccountSummary;
}

export class SeedError extends Error {
  override readonly name = "SeedError";
  readonly code = "EMULATOR_SEED_INVALID";
}

type FieldType = "a string" | "a boolean" | "a token" | "an array of strings" | "a string or an array of strings";
const isString = (v: unknown) => typeof v === "string";
const FIELD_TYPES: Record<FieldType, (v: unknown) => boolean> = {
  "a string": isString,
  "a boolean": (v) => typeof v === "boolean",
  "a token": (v) => typeof v === "string" && /^\S+$/.test(v),
  "an array of strings": (v) => Array.isArray(v) && v.every(isString),
  "a string or an array of strings": (v) => isString(v) || (Array.isArray(v) && v.every(isString)),
};

const REDIRECTS = ["http://localhost:8765/callback", "http://127.0.0.1:8765/callback"];

export function defaultSeed(): SeedDocument {
  return {
    accounts: [
      { subdomain: "acme", region: "us", name: "Acme Corp" },
      { subdomain: "globex", region: "eu", name: "Globex", aiopsEntitled: false },
    ],
    users: [
      { account: "acme", email: "admin@acme.example", name: "Ada Admin", role: "admin" },
      { account: "acme", email: "user@acme.example", name: "Uma User", role: "user" },
      { account: "acme", email: "viewer@acme.example", name: "Vic Viewer", role: "read_only" },
      { account: "globex", email: "admin@globex.example", name: "Gus Admin", role: "admin" },
    ],
    apps: [
      { account: "acme", name: "Pulumi provider", kind: "scoped", confidential: true, scopes: DEFAULT_APP_SCOPES, redirectUris: REDIRECTS },
      { account: "acme", name: "Classic web app", kind: "classic", confidential: true, scopes: [...CLASSIC_SCOPES], redirectUris: REDIRECTS },
      { account: "acme", name: "Classic single-page app", kind: "classic", confidential: false, scopes: [...CLASSIC_SCOPES], redirectUris: REDIRECTS },
      {
        account: "globex",
        name: "Globex marketplace app",
        kind: "scoped",
        confidential: true,
        scopes: DEFAULT_APP_SCOPES,
        redirectUris: REDIRECTS,
        published: true,
      },
    ],
    apiKeys: [
      { account: "acme", kind: "account", name: "Acme account key" },
      { account: "acme", kind: "user", user: "user@acme.example", name: "Uma's key" },
      { account: "acme", kind: "account", name: "Acme read-only key", readOnly: true },
      { account: "globex", kind: "account", name: "Globex account key" },
    ],
    escalationPolicies: [
      { account: "acme", name: "Default" },
      { account: "globex", name: "Default" },
    ],
    customFields: [
      {
        account: "acme",
        name: "tier",
        display_name: "Tier",
        data_type: "string",
        field_type: "single_value_fixed",
        field_options: [{ data: { data_type: "string", value: "gold" } }, { data: { data_type: "string", value: "silver" } }],
      },
      { account: "acme", name: "runbook", display_name: "Runbook", data_type: "url", field_type: "single_value" },
      { account: "acme", name: "pci", display_name: "PCI scope", data_type: "boolean", field_type: "single_value" },
    ],
  };
}

export function readSeedFile(file: string): SeedDocument {
  let doc: SeedDocument;
  try {
    doc = JSON.parse(readFileSync(file, "utf8")) as SeedDocument;
  } catch (e) {
    throw new SeedError(`Cannot read seed file ${file}: ${(e as Error).message}`);
  }
  // The same bound as request bodies (depth.ts): the seed is cloned and saved like them.
  const deep = deepestPath(doc);
  if (deep) throw new SeedError(`Seed file ${file}: "${pathText(deep)}" nests more than ${MAX_DEPTH} levels`);
  return doc;
}

/**
 * Add the seed's objects to `state` and return the seed with every generated id and secret
 * filled in. Throws SeedError naming the entry (e.g. `apps[1].account`) on bad input; on error
 * the state may be partly seeded, so callers seed a copy.
 */
export function applySeed(state: State, ids: IdAllocator, doc: SeedDocument, now: string, sections: readonly KindSeed[] = []): SeedDocument {
  const resolved: Required<SeedDocument> = {
    accounts: [],
    users: [],
    apps: [],
    apiKeys: [],
    escalationPolicies: [],
    customFields: [],
  };
  const takeId = (id: string | undefined, where: string): string => {
    if (id === undefined) return ids.next();
    if (typeof id !== "string" || id === "" || ids.used.has(id)) throw new SeedError(`${where}.id is invalid or already used`);
    return ids.claim(id);
  };
  const account = (subdomain: unknown, where: string) => {
    const a = typeof subdomain === "string" ? accountBySubdomain(state, subdomain) : undefined;
    if (!a) throw new SeedError(`${where}.account names no account ("${String(subdomain)}")`);
    return a;
  };
  const list = <T>(v: T[] | undefined, where: string): T[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new SeedError(`${where} must be an array`);
    return v;
  };
  /** Optional fields must have their declared type when present (seed files are hand-written). */
  const types = (entry: unknown, where: string, spec: Record<string, FieldType>): void => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw new SeedError(`${where} must be an object`);
    for (const [key, type] of Object.entries(spec)) {
      const v = (entry as Record<string, unknown>)[key];
      if (v !== undefined && !FIELD_TYPES[type](v)) throw new SeedError(`${where}.${key} must be ${type}`);
    }
  };

  list(doc.accounts, "accounts").forEach((a, i) => {
    const where = `accounts[${i}]`;
    types(a, where, { id: "a token", name: "a string", aiopsEntitled: "a boolean" });
    if (typeof a?.subdomain !== "string" || !/^[a-z0-9-]+$/.test(a.subdomain)) throw new SeedError(`${where}.subdomain must match [a-z0-9-]+`);
    if (accountBySubdomain(state, a.subdomain)) throw new SeedError(`${where}.subdomain "${a.subdomain}" exists already`);
    const region = a.region ?? "us";
    if (region !== "us" && region !== "eu") throw new SeedError(`${where}.region must be "us" or "eu"`);
    const id = takeId(a.id, where);
    state.accounts[id] = { id, subdomain: a.subdomain, region, name: a.name ?? a.subdomain, aiopsEntitled: a.aiopsEntitled ?? true };
    resolved.accounts.push({ ...a, id, region });
  });

  list(doc.users, "users").forEach((u, i) => {
    const where = `users[${i}]`;
    types(u, where, { id: "a token", name: "a string", password: "a string" });
    const acc = account(u?.account, where);
    if (typeof u.email !== "string" || !u.email.includes("@")) throw new SeedError(`${where}.email must be an email address`);
    if (Object.values(state.users).some((x) => x.email === u.email)) throw new SeedError(`${where}.email "${u.email}" exists already`);
    const role = u.role ?? "user";
    if (!["admin", "user", "read_only"].includes(role)) throw new SeedError(`${where}.role must be admin, user or read_only`);
    const id = takeId(u.id, where);
    const password = u.password ?? secret(12);
    state.users[id] = { id, accountId: acc.id, email: u.email, name: u.name ?? u.email, password, role, removed: false };
    resolved.users.push({ ...u, id, password, role });
  });

  list(doc.apps, "apps").forEach((a, i) => {
    const where = `apps[${i}]`;
    types(a, where, {
      id: "a token",
      name: "a string",
      confidential: "a boolean",
      clientId: "a token",
      clientSecret: "a token",
      scopes: "a string or an array of strings",
      redirectUris: "an array of strings",
      published: "a boolean",
      installs: "an array of strings",
    });
    const acc = account(a?.account, where);
    if (a.kind !== "classic" && a.kind !== "scoped") throw new SeedError(`${where}.kind must be "classic" or "scoped"`);
    const confidential = a.confidential ?? true;
    if (a.kind === "scoped" && !confidential) throw new SeedError(`${where}: Scoped OAuth does not support non-confidential clients`);
    const scopes =
      typeof a.scopes === "string" ? a.scopes.split(" ").filter(Boolean) : (a.scopes ?? (a.kind === "classic" ? [...CLASSIC_SCOPES] : DEFAULT_APP_SCOPES));
    if (a.kind === "classic" && scopes.some((s) => !(CLASSIC_SCOPES as readonly string[]).includes(s)))
      throw new SeedError(`${where}.scopes of a Classic app may only be "read" and "write"`);
    const installs = list(a.installs, `${where}.installs`).map((s, j) => account(s, `${where}.installs[${j}]`).id);
    const clientId = a.clientId ?? randomString(20, "abcdefghijklmnopqrstuvwxyz0123456789");
    if (Object.values(state.apps).some((x) => x.clientId === clientId)) throw new SeedError(`${where}.clientId exists already`);
    const id = takeId(a.id, where);
    const app: App = {
      id,
      name: a.name ?? id,
      accountId: acc.id,
      kind: a.kind,
      confidential,
      clientId,
      clientSecret: a.clientSecret ?? secret(),
      scopes,
      redirectUris: list(a.redirectUris, `${where}.redirectUris`),
      published: a.published ?? false,
      installs,
      oauthEnabled: true,
    };
    state.apps[id] = app;
    resolved.apps.push({ ...a, id, clientId, clientSecret: app.clientSecret, scopes, confidential });
  });

  list(doc.apiKeys, "apiKeys").forEach((k, i) => {
    const where = `apiKeys[${i}]`;
    types(k, where, { id: "a token", name: "a string", token: "a token", readOnly: "a boolean", user: "a string" });
    const acc = account(k?.account, where);
    const kind = k.kind ?? "account";
    let userId: string | undefined;
    if (kind === "user") {
      const u = Object.values(state.users).find((x) => (x.email === k.user || x.id === k.user) && x.accountId === acc.id);
      if (!u) throw new SeedError(`${where}.user names no user of account ${acc.subdomain}`);
      userId = u.id;
    } else if (kind !== "account") throw new SeedError(`${where}.kind must be "account" or "user"`);
    const token = k.token ?? randomString(20, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+");
    if (Object.values(state.apiKeys).some((x) => x.token === token)) throw new SeedError(`${where}.token exists already`);
    const id = takeId(k.id, where);
    state.apiKeys[id] = { id, accountId: acc.id, kind, userId, name: k.name ?? `${kind} key`, token, readOnly: k.readOnly ?? false };
    resolved.apiKeys.push({ ...k, id, kind, token });
  });

  list(doc.escalationPolicies, "escalationPolicies").forEach((p, i) => {
    const where = `escalationPolicies[${i}]`;
    types(p, where, { id: "a token" });
    const acc = account(p?.account, where);
    if (typeof p.name !== "string" || p.name === "") throw new SeedError(`${where}.name is required`);
    const id = takeId(p.id, where);
    state.escalationPolicies[id] = { id, accountId: acc.id, name: p.name };
    resolved.escalationPolicies.push({ ...p, id });
  });

  for (const section of sections) {
    const out: SeedEntry[] = [];
    list(doc[section.key] as SeedEntry[] | undefined, section.key).forEach((f, i) => {
      const where = `${section.key}[${i}]`;
      types(f, where, { id: "a token" });
      const acc = account(f?.account, where);
      const { account: _a, id, ...fields } = f;
      try {
        out.push({ ...f, id: section.add(state, ids, acc.id, fields, now, id === undefined ? undefined : takeId(id as string, where)) });
      } catch (e) {
        throw new SeedError(`${where}: ${(e as Error).message}`);
      }
    });
    (resolved as Record<string, unknown>)[section.key] = out;
  }

  return resolved;
}

/** The credentials most callers need: the first account's, and the first EU account's. */
export function summarize(state: State): SeedSummary {
  const accounts = Object.values(state.accounts);
  if (!accounts.length) throw new SeedError("The seed defines no account");
  const eu = accounts.find((a) => a.region === "eu");
  return { ...summarizeAccount(state, accounts[0]), ...(eu ? { eu: summarizeAccount(state, eu) } : {}) };
}

/** The app is one the account created: only those get client-credentials tokens there. */
function summarizeAccount(state: State, account: Account): AccountSummary {
  const app = Object.values(state.apps).find((a) => a.accountId === account.id && a.kind === "scoped" && a.oauthEnabled);
  const key = Object.values(state.apiKeys).find((k) => k.accountId === account.id && k.kind === "account" && !k.readOnly);
  const policy = Object.values(state.escalationPolicies).find((p) => p.accountId === account.id);
  return {
    account: { subdomain: account.subdomain, region: account.region },
    oauth: { clientId: app?.clientId ?? "", clientSecret: app?.clientSecret ?? "", scopes: app?.scopes.join(" ") ?? "" },
    apiKey: key?.token ?? "",
    escalationPolicyId: policy?.id ?? "",
  };
}

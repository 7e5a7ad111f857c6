// The kinds' test: every kind the emulator lists (emulator/src/kinds/index.ts) makes one object
// through its own routes (its `example`) and shows that it is persisted (a restart over the same data
// file serves it as before), lagged as its `lag` says (with a window on, a read right after the
// create answers 404 or the listing leaves it out, and the object is there once the window ended; a
// kind never lagged is there at once), and let go by a deleted service (no table of any kind but one
// that keeps its records names the service). A made-up kind shows a new kind is one module that
// passes these checks, and three made-up kinds that each forget one thing show each check fails.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ADMIN_HEADER } from "../../emulator/src/admin";
import { buildApp } from "../../emulator/src/app";
import { EmulatorCore, type EmulatorOptions } from "../../emulator/src/core";
import { notFound } from "../../emulator/src/errors";
import { params, rest, who } from "../../emulator/src/http";
import { KIND_MODULES, TABLE_KINDS } from "../../emulator/src/kinds";
import { type AnyKind, type ExampleIds, ownedFind } from "../../emulator/src/kinds/kind";
import { findService } from "../../emulator/src/kinds/service/model";
import { SCOPES } from "../../emulator/src/scopes";
import { ACCEPT, type Res, send } from "./helpers";

/** `self` links name this origin before and after a restart (ports differ). */
const ORIGIN = "http://emulator.test";
const WINDOW_MS = 60_000;

interface Served {
  core: EmulatorCore;
  url: string;
  close(): Promise<unknown>;
}

/** An emulator serving `kinds`, listening on loopback, as `startEmulator` makes one from the listed kinds. */
async function serve(kinds: readonly AnyKind[], opts: EmulatorOptions = {}): Promise<Served> {
  const core = new EmulatorCore({ rateLimit: 1_000_000, ...opts }, kinds);
  const app = buildApp(core, kinds);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  return { core, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, close: () => app.close() };
}

/** A REST call with the account's API key; admin paths with the admin token. */
function call(e: Served, method: string, path: string, body?: unknown): Promise<Res> {
  const auth: Record<string, string> = path.startsWith("/_emulator")
    ? { [ADMIN_HEADER]: e.core.adminToken }
    : { authorization: `Token token=${e.core.summary().apiKey}` };
  return send(e.url + path, {
    method,
    headers: { ...auth, accept: ACCEPT, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function ok(e: Served, method: string, path: string, body?: unknown): Promise<Res> {
  const res = await call(e, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res;
}

/** What an example needs, made before any lag window is set. */
async function prepare(e: Served): Promise<ExampleIds> {
  const escalationPolicy = e.core.summary().escalationPolicyId;
  const service = async (name: string) =>
    (await ok(e, "POST", "/services", { service: { name, escalation_policy: { id: escalationPolicy, type: "escalation_policy_reference" } } })).json.service.id;
  const ids = { service: await service("parent"), other: await service("other"), escalationPolicy };
  const integration = await ok(e, "POST", `/services/${ids.service}/integrations`, { integration: { type: "events_api_v2_inbound_integration" } });
  return { ...ids, routingKey: integration.json.integration.integration_key };
}

/** The id the create's reply gave the object: of its one object, or of the first of its list; none for a setting or an event. */
function idOf(reply: unknown): string | undefined {
  const body = reply && typeof reply === "object" ? Object.values(reply)[0] : undefined;
  const one = Array.isArray(body) ? body[0] : body;
  return one && typeof one === "object" && typeof (one as { id?: unknown }).id === "string" ? (one as { id: string }).id : undefined;
}

interface Made {
  ids: ExampleIds;
  found: ReturnType<AnyKind["example"]["found"]>;
}

async function make(e: Served, kind: AnyKind, ids: ExampleIds): Promise<Made> {
  const { method, path, body } = kind.example.create(ids);
  const id = idOf((await ok(e, method, path, body)).json);
  return { ids, found: kind.example.found({ id }, ids) };
}

/** What the example's place shows now: the GET's reply, or the listing; `present` when it holds the object. */
async function look(e: Served, { found }: Made): Promise<{ present: boolean; shown: unknown }> {
  const res = await call(e, "GET", "get" in found ? found.get : found.list);
  if ("get" in found) return { present: res.status === 200, shown: [res.status, res.json] };
  const items = (res.json?.[found.key] ?? []) as { id?: string }[];
  const holds = found.id === undefined ? items.length > 0 : items.some((x) => x.id === found.id);
  return { present: res.status === 200 && holds, shown: [res.status, items] };
}

const where = ({ found }: Made) => ("get" in found ? `GET ${found.get}` : `the listing ${found.list}`);

/** Each check: undefined when the kind does what it says, else what it did. */
async function persisted(kinds: readonly AnyKind[], kind: AnyKind): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "pd-emulator-kinds-"));
  try {
    const opts = { dataFile: join(dir, "state.json"), publicUrl: ORIGIN };
    const one = await serve(kinds, opts);
    const made = await make(one, kind, await prepare(one));
    const before = await look(one, made);
    await one.close();
    if (!before.present) return `the example is not there after its create: ${where(made)} shows ${JSON.stringify(before.shown)}`;
    const two = await serve(kinds, opts);
    const after = await look(two, made);
    await two.close();
    return isDeepStrictEqual(after, before) ? undefined : `not persisted: after a restart ${where(made)} shows ${JSON.stringify(after.shown)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function lagged(kinds: readonly AnyKind[], kind: AnyKind): Promise<string | undefined> {
  const e = await serve(kinds);
  try {
    const ids = await prepare(e);
    await ok(e, "PUT", "/_emulator/lag", { ms: WINDOW_MS });
    const made = await make(e, kind, ids);
    const now = await look(e, made);
    if ("never" in kind.lag) return now.present ? undefined : `lagged though its lag says never: ${where(made)} shows ${JSON.stringify(now.shown)}`;
    if (now.present) return `not lagged: right after the create ${where(made)} shows it`;
    await ok(e, "POST", "/_emulator/clock", { advanceMs: WINDOW_MS + 1 });
    const later = await look(e, made);
    return later.present ? undefined : `still hidden after its window: ${where(made)} shows ${JSON.stringify(later.shown)}`;
  } finally {
    await e.close();
  }
}

async function letGo(kinds: readonly AnyKind[], kind: AnyKind): Promise<string | undefined> {
  const e = await serve(kinds);
  try {
    const { ids } = await make(e, kind, await prepare(e));
    await ok(e, "DELETE", `/services/${ids.service}`);
    const state = e.core.state as unknown as Record<string, unknown>;
    const left = kinds.flatMap((k) =>
      typeof k.serviceDeleted === "object" ? [] : Object.keys(k.tables).filter((t) => JSON.stringify(state[t]).includes(ids.service)),
    );
    return left.length ? `a deleted service is still named in ${left.join(", ")}` : undefined;
  } finally {
    await e.close();
  }
}

describe.each(KIND_MODULES.map((k) => [k.name, k as AnyKind] as const))("%s", (_name, kind) => {
  test("is persisted: a restart over its data file serves the example as before", async () => {
    expect(await persisted(KIND_MODULES, kind)).toBeUndefined();
  });
  test("is lagged as its `lag` says", async () => {
    expect(await lagged(KIND_MODULES, kind)).toBeUndefined();
  });
  test("is let go by a deleted service", async () => {
    expect(await letGo(KIND_MODULES, kind)).toBeUndefined();
  });
});

test("every table of the state is one kind's, and each kind says why when it is not lagged or keeps what names a service", () => {
  const tables = KIND_MODULES.flatMap((k) => Object.keys(k.tables));
  expect(new Set(tables).size).toBe(tables.length);
  expect(Object.keys(TABLE_KINDS).sort()).toEqual([...tables].sort());
  for (const k of KIND_MODULES) {
    if ("never" in k.lag) expect(k.lag.never).toMatch(/\w{3,} \w{3,}/);
    if ("listedOnly" in k.lag) expect(k.lag.listedOnly).toMatch(/\w{3,} \w{3,}/);
    if (typeof k.serviceDeleted === "object") expect(k.serviceDeleted.kept).toMatch(/\w{3,} \w{3,}/);
  }
});

// Made up on purpose (PagerDuty has no such thing, so no one mistakes it for its API): a service's
// sticky notes, one text each, under the service.
describe("a made-up kind, a service's sticky notes", () => {
  interface Note {
    id: string;
    accountId: string;
    serviceId: string;
    text: string;
  }
  const ONE = "/services/:id/sticky_notes/:note_id";
  const tableOf = (core: EmulatorCore) => (core.state as unknown as { stickyNotes: Record<string, Note> }).stickyNotes;

  /** The whole kind in one module, as kinds/<kind>.ts would be; `forget` leaves one thing out. */
  function notes(forget?: "table" | "lag" | "serviceDeleted"): AnyKind {
    // Forgetting the table: kept in the emulator's memory instead, as a Map beside the core would be.
    const memory = new WeakMap<EmulatorCore, Record<string, Note>>();
    const inMemory = (core: EmulatorCore) => memory.get(core) ?? memory.set(core, {}).get(core)!;
    const table = (core: EmulatorCore) => (forget === "table" ? inMemory(core) : tableOf(core));
    return {
      name: "sticky note",
      tables: { stickyNotes: {} } as AnyKind["tables"],
      async routes(app, { core }) {
        rest(app, "POST", "/services/:id/sticky_notes", SCOPES.servicesWrite, (req, reply) => {
          const s = findService(core, who(req), params(req).id);
          const n: Note = { id: core.ids.next(), accountId: s.accountId, serviceId: s.id, text: (req.body as { text: string }).text };
          table(core)[n.id] = n;
          if (forget !== "lag") core.startLag(n.accountId, n.id);
          reply.code(201);
          return { sticky_note: n };
        });
        rest(app, "GET", ONE, SCOPES.servicesRead, (req) => {
          const n = table(core)[params(req).note_id];
          if (!n || n.serviceId !== params(req).id) throw notFound(`Sticky note ${params(req).note_id}`);
          return { sticky_note: n };
        });
      },
      lag: {
        paths: [ONE],
        find: ownedFind(table, "note_id", "Sticky note", "id"),
      },
      ...(forget === "serviceDeleted"
        ? {}
        : {
            serviceDeleted: (core: EmulatorCore, s: { id: string }) => {
              for (const n of Object.values(table(core))) if (n.serviceId === s.id) delete table(core)[n.id];
            },
          }),
      example: {
        create: (ids) => ({ method: "POST", path: `/services/${ids.service}/sticky_notes`, body: { text: "back at six" } }),
        found: ({ id }, ids) => ({ get: `/services/${ids.service}/sticky_notes/${id}` }),
      },
    };
  }

  const checks = async (kind: AnyKind) => {
    const kinds = [...KIND_MODULES, kind];
    return { persisted: await persisted(kinds, kind), lagged: await lagged(kinds, kind), letGo: await letGo(kinds, kind) };
  };

  test("one module added to the list: served, persisted, lagged and let go by a deleted service", async () => {
    expect(await checks(notes())).toEqual({ persisted: undefined, lagged: undefined, letGo: undefined });
  });

  test("kept outside the state: not persisted, and the test says so", async () => {
    expect(await checks(notes("table"))).toEqual({
      persisted: expect.stringMatching(/^not persisted: after a restart GET .* shows \[404,/),
      lagged: undefined,
      letGo: undefined,
    });
  });

  test("no lag window started at its create: not lagged, and the test says so", async () => {
    expect(await checks(notes("lag"))).toEqual({
      persisted: undefined,
      lagged: expect.stringMatching(/^not lagged: right after the create GET \/services\/\w+\/sticky_notes\/\w+ shows it$/),
      letGo: undefined,
    });
  });

  test("nothing done when its service is deleted: left behind, and the test says so", async () => {
    expect(await checks(notes("serviceDeleted"))).toEqual({
      persisted: undefined,
      lagged: undefined,
      letGo: "a deleted service is still named in stickyNotes",
    });
  });
});

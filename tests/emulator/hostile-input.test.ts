// Hostile input found by hand (issue 29 item 4): bodies nested thousands of levels deep, and
// pagination numbers too large to be exact. Each is a 400 naming the field or parameter, before
// anything is stored; never a 5xx, and nothing breaks later reads or saves.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_DEPTH } from "../../emulator/src/depth";
import { ADMIN_HEADER } from "../../emulator/src";
import { admin, type Client, client, createService, type Emu, prototypeFields, send, start, startWithClient } from "./helpers";

/** `{"a": {"a": ... 1}}`: `levels` nested objects. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

/** A rule whose subcondition `options` are nested so that the whole body has `depth` levels. */
const ruleBody = (depth: number): string =>
  // body, rule, conditions, subconditions, [0], parameters: 6 levels before `options`.
  `{"rule":{"conditions":{"operator":"and","subconditions":[{"operator":"equals","parameters":{"path":"x","value":"y","options":${nested(depth - 6)}}}]}}}`;

const post = (e: Emu, path: string, raw: string) =>
  send(`${e.apiUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Token token=${e.seed.apiKey}`, "content-type": "application/json" },
    body: raw,
  });

describe("nesting depth", () => {
  let e: Emu;
  let api: Client;
  beforeAll(async () => ({ e, api } = await startWithClient()));
  afterAll(() => e.close());

  test("an event rule nested 10,000 levels deep (~60 KB) is a 400 naming the field; nothing is stored, listings still answer", async () => {
    const sid = await createService(e, api);
    const raw = ruleBody(10_000);
    expect(raw.length).toBeGreaterThan(50_000);
    const res = await post(e, `/services/${sid}/rules`, raw);
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      message: "Invalid Input Provided",
      code: 2001,
      errors: [`"conditions.subconditions[0].parameters.options.a.a.a…" is nested too deeply: objects and arrays may nest at most ${MAX_DEPTH} levels`],
    });
    const rules = await api.get(`/services/${sid}/rules`);
    expect(rules.status).toBe(200);
    expect(rules.json.rules).toEqual([]);
    const records = (await api.get(`/services/${sid}/audit/records`)).json.records;
    expect(records.map((r: { action: string; details: { resource: { type: string } } }) => [r.action, r.details.resource.type])).toEqual([
      ["create", "service_reference"],
    ]);
  });

  test(`${MAX_DEPTH} levels are accepted and read back whole; ${MAX_DEPTH + 1} are refused`, async () => {
    const sid = await createService(e, api);
    const ok = await post(e, `/services/${sid}/rules`, ruleBody(MAX_DEPTH));
    expect(ok.status).toBe(201);
    const read = await api.get(`/services/${sid}/rules/${ok.json.rule.id}`);
    expect(read.json.rule.conditions.subconditions[0].parameters.options).toEqual(JSON.parse(nested(MAX_DEPTH - 6)));
    const over = await post(e, `/services/${sid}/rules`, ruleBody(MAX_DEPTH + 1));
    expect(over.status).toBe(400);
    expect(over.json.error.errors[0]).toMatch(/^"conditions\.subconditions\[0\]\.parameters\.options\.a\.a\.a…" is nested too deeply/);
  });

  test("every JSON body is bounded: other routes, arrays, the admin seed; a body of arrays nested 400,000 deep is a 400 too", async () => {
    const sid = await createService(e, api);
    const deep = nested(5_000);
    const cases: [string, string, string][] = [
      ["PUT", `/services/${sid}`, `{"service":{"alert_grouping_parameters":{"type":"content_based","config":${deep}}}}`],
      [
        "POST",
        `/services/${sid}/integrations`,
        `{"integration":{"type":"generic_email_inbound_integration","email_parsers":[{"action":"trigger","match_predicate":${deep}}]}}`,
      ],
      ["PUT", `/services/${sid}/custom_fields/values`, `{"custom_fields":[{"name":"tier","value":${deep}}]}`],
      ["POST", "/services", `${"[".repeat(400_000)}${"]".repeat(400_000)}`],
    ];
    for (const [method, path, raw] of cases) {
      const res = await send(`${e.apiUrl}${path}`, {
        method,
        headers: { authorization: `Token token=${e.seed.apiKey}`, "content-type": "application/json" },
        body: raw,
      });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.json.error.errors[0]).toMatch(/is nested too deeply/);
    }
    const seed = await send(`${e.url}/_emulator/seed`, {
      method: "POST",
      headers: { "x-emulator-admin-token": e.adminToken, "content-type": "application/json" },
      body: `{"accounts":[{"subdomain":"deep","region":"us","name":${deep}}]}`,
    });
    expect(seed.status).toBe(400);
    expect(seed.json.error.errors[0]).toMatch(/^"accounts\[0\]\.name\.a\.a\.a\.a\.a…" is nested too deeply/);
    // The service is as it was; the emulator answers as before.
    expect((await api.get(`/services/${sid}`)).json.service.integrations).toEqual([]);
    expect((await api.get("/services")).status).toBe(200);
  });

  test("long keys are shortened in the message", async () => {
    const key = "k".repeat(10_000);
    const raw = `{"service":{"${key}":${nested(40)}}}`;
    const res = await post(e, "/services", raw);
    expect(res.status).toBe(400);
    expect(res.json.error.errors[0].length).toBeLessThan(200);
    expect(res.json.error.errors[0]).toContain(`"${"k".repeat(40)}….a.a.a.a.a.a.a…"`);
  });
});

describe("with --data", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pd-emulator-hostile-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("after a refused deep body, later writes anywhere succeed and survive a restart", async () => {
    const dataFile = join(dir, "state.json");
    const first = await start({ dataFile });
    let sid: string, other: string, rule: Awaited<ReturnType<Client["post"]>>;
    try {
      const api = client(first, `Token token=${first.seed.apiKey}`);
      sid = await createService(first, api);
      expect((await post(first, `/services/${sid}/rules`, ruleBody(10_000))).status).toBe(400);
      rule = await api.post(`/services/${sid}/rules`, { rule: { actions: { annotate: { value: "kept" } } } });
      expect(rule.status).toBe(201);
      other = await createService(first, api);
    } finally {
      await first.close();
    }

    const second = await start({ dataFile });
    try {
      const again = client(second, `Token token=${second.seed.apiKey}`);
      expect((await again.get(`/services/${other}`)).status).toBe(200);
      expect((await again.get(`/services/${sid}/rules`)).json.rules.map((r: { id: string }) => r.id)).toEqual([rule.json.rule.id]);
    } finally {
      await second.close();
    }
  });

  test("a seed file nested too deeply is refused at start, naming the levels", async () => {
    const seed = join(dir, "seed.json");
    writeFileSync(seed, `{"accounts":[{"subdomain":"x","region":"us","name":${nested(100)}}]}`);
    await expect(start({ seed })).rejects.toThrow(`Seed file ${seed}: "accounts[0].name.a.a.a.a.a…" nests more than ${MAX_DEPTH} levels`);
  });
});

describe("pagination numbers", () => {
  let e: Emu;
  let api: Client;
  let sid: string;
  beforeAll(async () => {
    ({ e, api } = await startWithClient());
    sid = await createService(e, api);
  });
  afterAll(() => e.close());

  const huge = "9".repeat(5_000);
  const routes = () => ["/services", `/services/${sid}/rules`, "/vendors", "/priorities", "/escalation_policies"];

  test("an offset or limit of 5,000 digits is a 400 naming the parameter, on every paginated listing", async () => {
    for (const path of routes()) {
      for (const param of ["offset", "limit"]) {
        const res = await api.get(`${path}?${param}=${huge}`);
        expect({ path, param, status: res.status }).toEqual({ path, param, status: 400 });
        expect(res.json.error.errors).toEqual([
          `"${param}" must be an integer from ${param === "limit" ? 1 : 0} to 9007199254740991, got 99999999999999999999… (5000 characters)`,
        ]);
      }
    }
    const audit = await api.get(`/services/${sid}/audit/records?limit=${huge}`);
    expect(audit.status).toBe(400);
    expect(audit.json.error.errors[0]).toMatch(/^"limit" must be an integer/);
  });

  test("the largest safe integer is served exactly (an empty page); one more is refused", async () => {
    const max = await api.get(`/services?offset=${Number.MAX_SAFE_INTEGER}`);
    expect(max.status).toBe(200);
    expect(max.json).toMatchObject({ services: [], offset: Number.MAX_SAFE_INTEGER, more: false });
    const over = await api.get("/services?offset=9007199254740992");
    expect(over.status).toBe(400);
    expect(over.json.error.errors[0]).toBe('"offset" must be an integer from 0 to 9007199254740991, got "9007199254740992"');
    // A large limit within range is capped at 100, as before.
    expect((await api.get("/services?limit=1000000")).json.limit).toBe(100);
    expect((await admin(e, "GET", "/stats")).json.byRoute["GET /services"]).not.toHaveProperty("500");
  });
});

// An id taken from a path is looked up in the state's tables; a table with Object's prototype
// answered "__proto__" with the prototype itself, and an admin route then wrote the app's OAuth
// fields onto every object of the process (a fast-check string hit POST /_emulator/apps/__proto__/oauth
// in bad-input.test.ts; later test files in that jest worker failed to compile).
describe("ids named like Object's own properties", () => {
  const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
  let e: Emu;
  let token: string;
  beforeAll(async () => {
    e = await start();
    token = `Token token=${e.seed.apiKey}`;
  });
  afterAll(() => e.close());

  async function sweep(): Promise<string[]> {
    const found: string[] = [];
    for (const r of e.core.routes.filter((x) => x.url.includes(":"))) {
      for (const name of NAMES) {
        const path = r.url.replace(/:([a-z_]+)/g, encodeURIComponent(name));
        const isAdmin = path.startsWith("/_emulator");
        const res = await send(`${e.url}${path}`, {
          method: r.method,
          headers: { ...(isAdmin ? { [ADMIN_HEADER]: e.adminToken } : { authorization: token }), "content-type": "application/json" },
          body: r.method === "GET" || r.method === "HEAD" ? undefined : "{}",
        });
        if (res.status >= 500 || (res.status < 300 && r.method !== "GET")) found.push(`${r.method} ${path} → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    return found;
  }

  test("every route with such an id in its path answers 4xx and no object of the process gains a field", async () => {
    const before = prototypeFields();
    const res = await admin(e, "POST", "/apps/__proto__/oauth");
    expect([res.status, Object.getOwnPropertyNames(Object.prototype).includes("clientSecret")]).toEqual([404, false]);
    expect(await sweep()).toEqual([]);
    // A seed applied through the admin route replaces the state with a structured clone (the outer realm's objects).
    expect((await admin(e, "POST", "/seed", {})).status).toBe(201);
    expect(await sweep()).toEqual([]);
    expect((await admin(e, "POST", "/reset")).status).toBe(200);
    expect(await sweep()).toEqual([]);
    expect(prototypeFields()).toEqual(before);
    // Three sweeps of every route with a parameter: 11 to 13 s on a busy machine, past jest's 5 s default.
  }, 60_000);

  test("loaded from --data, the state's tables have no prototype either", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-proto-"));
    const dataFile = join(dir, "state.json");
    try {
      await (await start({ dataFile })).close();
      const again = await start({ dataFile });
      try {
        const withPrototype = Object.entries(again.core.state).filter(
          // signingKey is a JWK, not a table.
          ([k, v]) => k !== "signingKey" && typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) !== null,
        );
        expect(withPrototype.map(([k]) => k)).toEqual([]);
        expect((await admin(again, "POST", "/apps/__proto__/oauth")).status).toBe(404);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

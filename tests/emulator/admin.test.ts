// Admin controls (/_emulator): admin-token only, reset, statistics, clock, faults, rate limit.
import { ADMIN_HEADER } from "../../emulator/src";
import { admin, appToken, bearer, client, createService, type Emu, registry, send, serviceBody, serviceWithKey, start } from "./helpers";

let e: Emu;
beforeAll(async () => {
  e = await start();
});
afterAll(() => e.close());
beforeEach(async () => {
  await admin(e, "POST", "/reset");
});

describe("admin authentication", () => {
  test("admin controls need the admin token in x-emulator-admin-token; API and OAuth credentials are refused", async () => {
    const tok = await appToken(e);
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${tok}` },
      { authorization: `Token token=${e.seed.apiKey}` },
      { authorization: `Bearer ${e.adminToken}` },
      { [ADMIN_HEADER]: tok },
      { [ADMIN_HEADER]: e.seed.apiKey },
    ];
    for (const headers of attempts) {
      const res = await send(`${e.url}/_emulator/stats`, { headers });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe(9001);
    }
    expect((await admin(e, "GET", "/stats")).status).toBe(200);
  });
});

describe("reset", () => {
  test("removes services and tokens, keeps the seeded credentials, never reuses ids", async () => {
    const tok = await appToken(e);
    const api = client(e, `Bearer ${tok}`);
    const id = await createService(e, api);
    const res = await admin(e, "POST", "/reset");
    expect(res.status).toBe(200);
    expect(res.json.summary).toEqual(e.seed);
    expect((await api.get("/services")).status).toBe(401);
    const fresh = await bearer(e);
    expect((await fresh.get(`/services/${id}`)).status).toBe(404);
    expect((await fresh.get("/services")).json.services).toEqual([]);
    expect(await createService(e, fresh)).not.toBe(id);
  });
});

describe("secrets", () => {
  test("lists every secret handed out since start, also after the objects and the state holding them are gone", async () => {
    const tok = await appToken(e);
    const api = client(e, `Bearer ${tok}`);
    const { id, key } = await serviceWithKey(e, api);
    expect((await api.delete(`/services/${id}`)).status).toBe(204);
    const app = (await registry(e)).apps.find((a) => a.clientId === e.seed.oauth.clientId)!;
    const readded = (await admin(e, "POST", `/apps/${app.id}/oauth`)).json.clientSecret as string;
    await admin(e, "POST", "/reset");
    const res = await admin(e, "GET", "/secrets");
    expect(res.status).toBe(200);
    expect(res.json.truncated).toBe(false);
    const kinds = new Map((res.json.secrets as { kind: string; value: string }[]).map((s) => [s.value, s.kind]));
    expect(kinds.get(tok)).toBe("access_token");
    expect(kinds.get(key)).toBe("routing_key");
    expect(kinds.get(readded)).toBe("client_secret");
    expect(kinds.get(e.seed.oauth.clientSecret)).toBe("client_secret");
    expect(kinds.get(e.seed.apiKey)).toBe("api_key");
    expect(kinds.get(e.adminToken)).toBe("admin_token");
    expect([...kinds.values()]).toContain("password");
    expect([...kinds.keys()]).not.toContain("");
  });
});

describe("statistics", () => {
  test("count requests by route pattern and status, and tokens issued by grant", async () => {
    const api = await bearer(e);
    const id = await createService(e, api);
    await api.get(`/services/${id}`);
    await api.get(`/services/${id}`);
    await api.get("/services/PNOPE00");
    await send(`${e.url}/no/such/route`);
    const stats = (await admin(e, "GET", "/stats")).json;
    expect(stats.byRoute["GET /services/:id"]).toEqual({ 200: 2, 404: 1 });
    expect(stats.byRoute["POST /services"]).toEqual({ 201: 1 });
    expect(stats.byRoute["POST /oauth/token"]).toEqual({ 200: 1 });
    expect(stats.byRoute["GET (unmatched)"]).toEqual({ 404: 1 });
    expect(stats.tokensIssued).toEqual({ client_credentials: 1, authorization_code: 0, refresh_token: 0 });
    expect(stats.total).toBe(6);
  });
});

describe("clock", () => {
  test("advances without sleeping and rejects negative steps", async () => {
    const before = Date.parse((await admin(e, "GET", "/clock")).json.now);
    const res = await admin(e, "POST", "/clock", { advanceSeconds: 3600 });
    expect(Date.parse(res.json.now) - before).toBeGreaterThanOrEqual(3600_000);
    expect((await admin(e, "POST", "/clock", { advanceMs: -1 })).status).toBe(400);
  });
});

describe("fault injection", () => {
  test("a status for the next N requests of one route, then normal service", async () => {
    const api = await bearer(e);
    const id = await createService(e, api);
    const f = await admin(e, "POST", "/faults", { route: "GET /services/{id}", status: 503, count: 2 });
    expect(f.status).toBe(201);
    const a = await api.get(`/services/${id}`);
    expect(a.status).toBe(503);
    expect(a.json.error).toMatchObject({ code: 2000, message: "Service Unavailable" });
    expect((await api.get("/services")).status).toBe(200);
    expect((await api.get(`/services/${id}`)).status).toBe(503);
    expect((await api.get(`/services/${id}`)).status).toBe(200);
    expect((await admin(e, "GET", "/faults")).json.faults).toEqual([]);
  });

  test("429 faults carry ratelimit headers; a fraction applies deterministically to that share of requests", async () => {
    const api = await bearer(e);
    await admin(e, "POST", "/faults", { route: "GET /services", status: 429, fraction: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api.get("/services");
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("ratelimit-reset")).toBe("1");
    }
    expect(statuses).toEqual([200, 429, 200, 429, 200, 429]);
    expect((await admin(e, "DELETE", "/faults")).status).toBe(204);
    expect((await api.get("/services")).status).toBe(200);
  });

  test("dropped connections and the token endpoint can be faulted too", async () => {
    await admin(e, "POST", "/faults", { route: "POST /oauth/token", drop: true, count: 1 });
    await expect(appToken(e)).rejects.toThrow();
    expect(await appToken(e)).toEqual(expect.any(String));
    await admin(e, "POST", "/faults", { route: "*", status: 500, count: 1 });
    expect((await send(`${e.url}/oauth/jwks`)).status).toBe(500);
    const stats = (await admin(e, "GET", "/stats")).json;
    expect(stats.byRoute["POST /oauth/token"].dropped).toBe(1);
    expect(stats.faultsInjected).toBe(2);
  });

  test("added latency delays the reply but keeps it correct", async () => {
    const api = await bearer(e);
    await admin(e, "POST", "/faults", { route: "GET /services", latencyMs: 50, count: 1 });
    expect((await api.get("/services")).status).toBe(200);
    expect((await admin(e, "GET", "/stats")).json.faultsInjected).toBe(1);
  });

  test("invalid fault specs → 400 naming the field", async () => {
    const res = await admin(e, "POST", "/faults", { route: "*", status: 418 });
    expect(res.status).toBe(400);
    expect(res.json.error.errors[0]).toMatch(/"status"/);
    expect((await admin(e, "POST", "/faults", { route: "*" })).status).toBe(400);
  });
});

describe("rate limit per app per account", () => {
  test("429 code 2020 with ratelimit-* headers past the limit; a new minute on the clock resets it", async () => {
    await admin(e, "PUT", "/rate-limit", { perMinute: 3 });
    const api = await bearer(e);
    const heads: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get("/services");
      expect(res.status).toBe(200);
      heads.push(res.headers.get("ratelimit-remaining"));
    }
    expect(heads).toEqual(["2", "1", "0"]);
    const limited = await api.get("/services");
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe(2020);
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    expect(Number(limited.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    // Another credential (another app/key) has its own budget.
    expect((await client(e, `Token token=${e.seed.apiKey}`).get("/services")).status).toBe(200);
    // A second token of the same app shares the app's budget.
    expect((await (await bearer(e)).get("/services")).status).toBe(429);
    await admin(e, "POST", "/clock", { advanceSeconds: 60 });
    expect((await api.get("/services")).status).toBe(200);
    await admin(e, "PUT", "/rate-limit", { perMinute: 960 });
  });
});

test("unknown admin routes are 404 with the error body", async () => {
  const res = await admin(e, "GET", "/nothing-here");
  expect(res.status).toBe(404);
  expect(res.json.error.code).toBe(2100);
  expect(serviceBody(e).service.escalation_policy.id).toBe(e.seed.escalationPolicyId);
});

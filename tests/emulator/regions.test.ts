// Service regions: the REST API of EU accounts is served under /eu, that of US accounts at the
// root (PagerDuty's api.eu.pagerduty.com and api.pagerduty.com); identity and admin stay at the
// root. Links, statistics, faults, the id_token's aud and the startup summary follow.
import { decodeJwt } from "jose";
import { buildEmulator, DEFAULT_RATE_LIMIT, fetchAppToken } from "../../emulator/src";
import { ACCEPT, admin, client, type Emu, euAppToken, euClient, form, registry, send, serviceBody, start } from "./helpers";

let e: Emu;
beforeAll(async () => {
  e = await start();
});
afterAll(() => e.close());
beforeEach(async () => {
  await admin(e, "POST", "/reset");
  // A reset keeps the per-minute limit; one test lowers it.
  await admin(e, "PUT", "/rate-limit", { perMinute: DEFAULT_RATE_LIMIT });
});

const eu = () => e.seed.eu!;
const euService = (em: Emu = e) => serviceBody(em, { escalation_policy: { id: em.seed.eu!.escalationPolicyId, type: "escalation_policy_reference" } });
const useEu = (em: Emu) => `This account's data is in the EU service region; use ${em.euApiUrl}`;
const useUs = (em: Emu) => `This account's data is in the US service region; use ${em.apiUrl}`;

describe("the startup summary", () => {
  test("euApiUrl is <url>/eu; `eu` holds Globex's app, account key and policy; the first account stays acme", async () => {
    const reg = await registry(e);
    expect(e.euApiUrl).toBe(`${e.url}/eu`);
    expect(e.apiUrl).toBe(e.url);
    expect(e.seed.account).toEqual({ subdomain: "acme", region: "us" });
    const app = reg.apps.find((a) => a.name === "Globex marketplace app")!;
    expect(eu()).toEqual({
      account: { subdomain: "globex", region: "eu" },
      oauth: { clientId: app.clientId, clientSecret: app.clientSecret, scopes: app.scopes.join(" ") },
      apiKey: reg.apiKeys.find((k) => k.account === "globex" && k.kind === "account")!.token,
      escalationPolicyId: reg.escalationPolicies.find((p) => p.account === "globex")!.id,
    });
  });

  test("`eu` is the first EU account of the seed, absent without one", () => {
    const usOnly = buildEmulator({ seed: { accounts: [{ subdomain: "solo", region: "us" }] } });
    expect(usOnly.seed.account).toEqual({ subdomain: "solo", region: "us" });
    expect(usOnly.seed).not.toHaveProperty("eu");
    const seed = {
      accounts: [
        { subdomain: "first", region: "us" as const },
        { subdomain: "second", region: "eu" as const },
        { subdomain: "third", region: "eu" as const },
      ],
      apps: [
        { account: "third", name: "t", kind: "scoped" as const },
        { account: "second", name: "s", kind: "scoped" as const, clientId: "second-app" },
      ],
      apiKeys: [{ account: "second", token: "second-key" }],
      escalationPolicies: [{ account: "second", name: "Ops", id: "PSECOND" }],
    };
    const two = buildEmulator({ seed });
    expect(two.seed.eu).toMatchObject({
      account: { subdomain: "second", region: "eu" },
      oauth: { clientId: "second-app" },
      apiKey: "second-key",
      escalationPolicyId: "PSECOND",
    });
  });
});

describe("EU credentials work through /eu", () => {
  test("account key: create, read and list a service; its links carry the /eu base", async () => {
    const api = euClient(e, `Token token=${eu().apiKey}`);
    const created = await api.post("/services", euService());
    expect(created.status).toBe(201);
    const s = created.json.service;
    expect(s.self).toBe(`${e.euApiUrl}/services/${s.id}`);
    expect(s.html_url).toBe(`${e.euApiUrl}/service-directory/${s.id}`);
    expect(s.escalation_policy.self).toBe(`${e.euApiUrl}/escalation_policies/${eu().escalationPolicyId}`);
    const shown = await api.get(`/services/${s.id}`);
    expect(shown.status).toBe(200);
    expect(shown.json.service.self).toBe(s.self);
    const listed = await api.get("/services");
    expect(listed.json.services.map((x: { id: string; self: string }) => [x.id, x.self])).toEqual([[s.id, s.self]]);
  });

  test("app token of the `eu` summary's app: create and list", async () => {
    const api = euClient(e, `Bearer ${await euAppToken(e)}`);
    const created = await api.post("/services", euService());
    expect(created.status).toBe(201);
    expect(created.json.service.self).toBe(`${e.euApiUrl}/services/${created.json.service.id}`);
    expect((await api.get("/services")).json.services.map((x: { id: string }) => x.id)).toEqual([created.json.service.id]);
  });

  test("links of the catalogue carry /eu; static assets stay at the root", async () => {
    const vendor = (await euClient(e, `Token token=${eu().apiKey}`).get("/vendors/PZQ6AUS")).json.vendor;
    expect(vendor.self).toBe(`${e.euApiUrl}/vendors/PZQ6AUS`);
    expect(vendor.logo_url).toMatch(new RegExp(`^${e.url}/_emulator/static/`));
  });
});

describe("the wrong base is refused with 401, naming the base to use", () => {
  test("EU key and EU app token at the root", async () => {
    for (const auth of [`Token token=${eu().apiKey}`, `Bearer ${await euAppToken(e)}`]) {
      const res = await client(e, auth).get("/services");
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { message: "Authentication failed", code: 2006, errors: [useEu(e)] } });
      const write = await client(e, auth).post("/services", euService());
      expect(write.status).toBe(401);
    }
    // Nothing was created by the refused write.
    expect((await euClient(e, `Token token=${eu().apiKey}`).get("/services")).json.services).toEqual([]);
  });

  test("US key and US app token at /eu", async () => {
    const usToken = await fetchAppToken({ authUrl: e.authUrl, ...e.seed });
    for (const auth of [`Token token=${e.seed.apiKey}`, `Bearer ${usToken}`]) {
      const res = await euClient(e, auth).get("/services");
      expect(res.status).toBe(401);
      expect(res.json.error).toMatchObject({ message: "Authentication failed", code: 2006, errors: [useUs(e)] });
    }
    expect(useUs(e)).not.toContain("/eu");
  });

  test("refused requests spend none of the rate budget; the budget stays per key per account", async () => {
    expect((await admin(e, "PUT", "/rate-limit", { perMinute: 2 })).status).toBe(200);
    const wrong = client(e, `Token token=${eu().apiKey}`);
    for (let i = 0; i < 3; i++) {
      const res = await wrong.get("/services");
      expect(res.status).toBe(401);
      expect(res.headers.get("ratelimit-remaining")).toBeNull();
    }
    const right = euClient(e, `Token token=${eu().apiKey}`);
    expect((await right.get("/services")).headers.get("ratelimit-remaining")).toBe("1");
    expect((await right.get("/services")).headers.get("ratelimit-remaining")).toBe("0");
    expect((await right.get("/services")).status).toBe(429);
    // The US key's budget is its own.
    expect((await client(e, `Token token=${e.seed.apiKey}`).get("/services")).status).toBe(200);
  });
});

describe("one route table for both bases", () => {
  test("statistics count /eu/services under the route key of /services; the route table has no /eu routes", async () => {
    const us = client(e, `Token token=${e.seed.apiKey}`);
    const api = euClient(e, `Token token=${eu().apiKey}`);
    expect((await us.get("/services")).status).toBe(200);
    expect((await api.get("/services")).status).toBe(200);
    const id = (await api.post("/services", euService())).json.service.id;
    expect((await api.get(`/services/${id}`)).status).toBe(200);
    expect((await client(e, `Token token=${eu().apiKey}`).get("/services")).status).toBe(401);
    const byRoute = (await admin(e, "GET", "/stats")).json.byRoute;
    expect(byRoute["GET /services"]).toEqual({ 200: 2, 401: 1 });
    expect(byRoute["POST /services"]).toEqual({ 201: 1 });
    expect(byRoute["GET /services/:id"]).toEqual({ 200: 1 });
    expect(Object.keys(byRoute).filter((k) => k.includes("/eu"))).toEqual([]);
    expect(e.core.routes.filter((r) => r.url.startsWith("/eu"))).toEqual([]);
  });

  test("a fault on a route applies through /eu too", async () => {
    const api = euClient(e, `Token token=${eu().apiKey}`);
    const id = (await api.post("/services", euService())).json.service.id;
    expect((await admin(e, "POST", "/faults", { route: "GET /services/:id", status: 503, count: 1 })).status).toBe(201);
    expect((await api.get(`/services/${id}`)).status).toBe(503);
    expect((await api.get(`/services/${id}`)).status).toBe(200);
  });

  test("identity and admin are served at the root only; /eu is a whole path segment", async () => {
    const notFound = async (path: string, init: RequestInit = {}) => {
      const res = await send(`${e.url}${path}`, init);
      expect({ path, status: res.status, errors: res.json?.error?.errors }).toEqual({
        path,
        status: 404,
        errors: [`No route ${init.method ?? "GET"} ${path.split("?")[0]}`],
      });
    };
    await notFound("/eu/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    await notFound("/eu/.well-known/openid-configuration");
    await notFound("/eu/oauth/jwks");
    await notFound("/eu/_emulator/health");
    await notFound("/eu/_emulator/registry", { headers: { "x-emulator-admin-token": e.adminToken } });
    await notFound("/europe/services", { headers: { authorization: `Token token=${eu().apiKey}`, accept: ACCEPT } });
    await notFound("/eu/nope?x=1", { headers: { authorization: `Token token=${eu().apiKey}` } });
    await notFound("/eu");
    // At the root they work.
    expect((await send(`${e.url}/_emulator/health`)).status).toBe(200);
    expect(
      (
        await form(e, "/oauth/token", {
          grant_type: "client_credentials",
          client_id: eu().oauth.clientId,
          client_secret: eu().oauth.clientSecret,
          scope: "as_account-eu.globex services.read",
        })
      ).status,
    ).toBe(200);
    // A refused identity path is no call of the token route.
    const byRoute = (await admin(e, "GET", "/stats")).json.byRoute;
    expect(byRoute["POST /oauth/token"]).toEqual({ 200: 1 });
    expect(byRoute["POST (unmatched)"]).toEqual({ 404: 1 });
  });

  test("/eu with a query string is the EU base's root: not found, named as sent", async () => {
    const res = await send(`${e.url}/eu?limit=1`);
    expect(res.status).toBe(404);
    expect(res.json.error.errors).toEqual(["No route GET /eu"]);
  });
});

/** The authorization-code flow by hand (the server's `publicUrl` differs from where it listens). */
async function idTokenOf(em: Emu, email: string): Promise<Record<string, unknown>> {
  const reg = await registry(em);
  const app = reg.apps.find((a) => a.name === "Classic web app")!;
  const user = reg.users.find((u) => u.email === email)!;
  const redirectUri = app.redirectUris[0];
  const q = new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: redirectUri, scope: "read" });
  const page = await send(`${em.url}/oauth/authorize?${q}`);
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)![1];
  const consent = await form(em, "/oauth/authorize", { request_id: requestId, email, password: user.password, decision: "approve" });
  const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
  const tokens = await form(em, "/oauth/token", {
    grant_type: "authorization_code",
    client_id: app.clientId,
    client_secret: app.clientSecret,
    code,
    redirect_uri: redirectUri,
  });
  expect(tokens.status).toBe(200);
  return { ...decodeJwt(tokens.json.id_token), clientId: app.clientId };
}

describe("with publicUrl", () => {
  let p: Emu;
  const PUBLIC = "https://pd.example";
  beforeAll(async () => {
    p = await start({ publicUrl: PUBLIC });
  });
  afterAll(() => p.close());

  test("links and refusals name <publicUrl>/eu and <publicUrl>", async () => {
    const created = await euClient(p, `Token token=${p.seed.eu!.apiKey}`).post("/services", euService(p));
    expect(created.json.service.self).toBe(`${PUBLIC}/eu/services/${created.json.service.id}`);
    expect((await client(p, `Token token=${p.seed.eu!.apiKey}`).get("/services")).json.error.errors).toEqual([
      `This account's data is in the EU service region; use ${PUBLIC}/eu`,
    ]);
    expect((await euClient(p, `Token token=${p.seed.apiKey}`).get("/services")).json.error.errors).toEqual([
      `This account's data is in the US service region; use ${PUBLIC}`,
    ]);
  });

  test("id_token: aud names the REST base of the user's region, iss the identity origin", async () => {
    const globex = await idTokenOf(p, "admin@globex.example");
    expect(globex).toMatchObject({ iss: PUBLIC, aud: [`${PUBLIC}/eu`, globex.clientId], region: "eu", account: { subdomain: "globex" } });
    const acme = await idTokenOf(p, "admin@acme.example");
    expect(acme).toMatchObject({ iss: PUBLIC, aud: [PUBLIC, acme.clientId], region: "us" });
    expect((await send(`${p.url}/.well-known/openid-configuration`)).json.issuer).toBe(PUBLIC);
  });
});

// The contract's OAuth rules through a standard OAuth client library (openid-client 5): the
// authorization-code + PKCE flow through the HTML consent form, the client-type/PKCE table,
// refresh rotation, lifetimes, revocation and effective access.
import { type Client as OidcClient, generators, Issuer, type TokenSet } from "openid-client";
import { admin, client, createService, type Emu, euClient, form, type Registry, registry, send, serviceBody, start } from "./helpers";

const REDIRECT = "http://localhost:8765/callback";
const DAY = 86_400;

let e: Emu;
let reg: Registry;
let issuer: Issuer;

type AppName = "Pulumi provider" | "Classic web app" | "Classic single-page app" | "Globex marketplace app";
const app = (name: AppName) => reg.apps.find((a) => a.name === name)!;
const user = (email: string) => reg.users.find((u) => u.email === email)!;

beforeAll(async () => {
  e = await start();
  reg = await registry(e);
  // Built by hand (no discovery), as a client of the real service would configure it.
  issuer = new Issuer({
    issuer: e.authUrl,
    authorization_endpoint: `${e.authUrl}/oauth/authorize`,
    token_endpoint: `${e.authUrl}/oauth/token`,
    jwks_uri: `${e.authUrl}/oauth/jwks`,
  });
});
afterAll(() => e.close());
beforeEach(async () => {
  await admin(e, "POST", "/reset");
});

function oidc(name: AppName, method: "client_secret_post" | "none" = "client_secret_post"): OidcClient {
  const a = app(name);
  return new issuer.Client({
    client_id: a.clientId,
    ...(method === "none" ? {} : { client_secret: a.clientSecret }),
    redirect_uris: [REDIRECT],
    response_types: ["code"],
    token_endpoint_auth_method: method,
  });
}

/** Open the authorization URL, log in on the HTML form and submit a decision. */
async function consent(url: string, email: string, decision: "approve" | "deny" = "approve", password = user(email).password) {
  const page = await send(url);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1];
  expect(requestId).toBeDefined();
  return form(e, "/oauth/authorize", { request_id: requestId, email, password, decision });
}

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
  location: string;
}

async function authorize(c: OidcClient, scope: string, email: string, pkce = true): Promise<Flow> {
  const verifier = generators.codeVerifier();
  const state = generators.state();
  const nonce = generators.nonce();
  const url = c.authorizationUrl({
    scope,
    redirect_uri: REDIRECT,
    state,
    nonce,
    ...(pkce ? { code_challenge: generators.codeChallenge(verifier), code_challenge_method: "S256" } : {}),
  });
  const res = await consent(url, email);
  expect(res.status).toBe(302);
  return { verifier, state, nonce, location: res.headers.get("location")! };
}

async function login(c: OidcClient, scope: string, email: string, pkce = true): Promise<TokenSet> {
  const f = await authorize(c, scope, email, pkce);
  return c.callback(REDIRECT, c.callbackParams(f.location), { state: f.state, nonce: f.nonce, ...(pkce ? { code_verifier: f.verifier } : {}) });
}

const codeOf = (location: string) => new URL(location).searchParams.get("code")!;

describe("authorization code flow (contract: credential lifecycle, token endpoint response)", () => {
  test("Scoped app: PKCE flow through the consent form yields the contract's token response", async () => {
    const c = oidc("Pulumi provider");
    const tokens = await login(c, "services.read services.write", "admin@acme.example");
    expect(Object.keys(tokens).sort()).toEqual(["access_token", "client_info", "expires_at", "id_token", "refresh_token", "scope", "token_type"].sort());
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope!.split(" ").sort()).toEqual(["openid", "services.read", "services.write"]);
    // The library verified the id_token's signature (JWKS), issuer, audience and nonce.
    const claims = tokens.claims();
    const acme = reg.accounts.find((a) => a.subdomain === "acme")!;
    expect(claims).toMatchObject({
      sub: user("admin@acme.example").id,
      region: "us",
      email: "admin@acme.example",
      account: { id: acme.id, subdomain: "acme" },
    });
    // `aud`: the REST base of the account's region (acme is US: the root) and the client.
    expect(claims.aud).toEqual([e.apiUrl, app("Pulumi provider").clientId]);
    expect(claims.iss).toBe(e.authUrl);
    expect(JSON.parse(Buffer.from(tokens.client_info as string, "base64url").toString())).toEqual({ uid: claims.sub, utid: acme.id });
    const api = client(e, `Bearer ${tokens.access_token}`);
    expect((await api.post("/services", serviceBody(e))).status).toBe(201);
  });

  test("Scoped user tokens live one day; Classic user tokens 30 days", async () => {
    const scoped = await login(oidc("Pulumi provider"), "services.read", "admin@acme.example");
    const classic = await login(oidc("Classic web app"), "read", "admin@acme.example");
    const now = Math.floor(Date.now() / 1000);
    expect(scoped.expires_at! - now).toBeGreaterThan(DAY - 60);
    expect(scoped.expires_at! - now).toBeLessThanOrEqual(DAY);
    expect(classic.expires_at! - now).toBeGreaterThan(30 * DAY - 60);
    const api = client(e, `Bearer ${classic.access_token}`);
    await admin(e, "POST", "/clock", { advanceSeconds: 30 * DAY - 10 });
    expect((await api.get("/services")).status).toBe(200);
    await admin(e, "POST", "/clock", { advanceSeconds: 10 });
    expect((await api.get("/services")).status).toBe(401);
  });

  test("the user denies → redirect with error=access_denied, error_description and state; no code", async () => {
    const c = oidc("Classic web app");
    const url = c.authorizationUrl({ scope: "read", redirect_uri: REDIRECT, state: "st-1" });
    const res = await consent(url, "admin@acme.example", "deny");
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get("location")!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get("error")).toBe("access_denied");
    expect(loc.searchParams.get("error_description")).toBeTruthy();
    expect(loc.searchParams.get("state")).toBe("st-1");
    expect(loc.searchParams.has("code")).toBe(false);
  });

  test("the user cannot log in → flow ends: no code, no redirect", async () => {
    const c = oidc("Classic web app");
    const url = c.authorizationUrl({ scope: "read", redirect_uri: REDIRECT });
    const res = await consent(url, "admin@acme.example", "approve", "wrong password");
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    expect(res.text).toMatch(/Wrong email or password/);
    expect((await admin(e, "GET", "/stats")).json.tokensIssued.authorization_code).toBe(0);
  });

  test("invalid client_id or unregistered redirect_uri → error page, never a redirect", async () => {
    const bad = [
      `client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=read`,
      `client_id=${app("Classic web app").clientId}&redirect_uri=${encodeURIComponent("http://evil.example/cb")}&response_type=code&scope=read`,
      `client_id=${app("Classic web app").clientId}&redirect_uri=${encodeURIComponent(`${REDIRECT}/`)}&response_type=code&scope=read`,
    ];
    for (const q of bad) {
      const res = await send(`${e.authUrl}/oauth/authorize?${q}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  test("response_type other than code and code_challenge_method other than S256 → redirect with an error", async () => {
    const a = app("Classic web app");
    const base = `client_id=${a.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=read`;
    const token = await send(`${e.authUrl}/oauth/authorize?${base}&response_type=token`);
    expect(new URL(token.headers.get("location")!).searchParams.get("error")).toBe("unsupported_response_type");
    const plain = await send(`${e.authUrl}/oauth/authorize?${base}&response_type=code&code_challenge=${"a".repeat(43)}&code_challenge_method=plain`);
    expect(new URL(plain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  test("client rule 3: a client_secret in the authorization request's query string is refused", async () => {
    const a = app("Classic web app");
    const res = await send(
      `${e.authUrl}/oauth/authorize?client_id=${a.clientId}&client_secret=${a.clientSecret}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=read`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });
});

describe("client types and PKCE (contract table and rules 1-2)", () => {
  const exchange = (name: AppName, code: string, extra: Record<string, string | undefined>) =>
    form(e, "/oauth/token", { grant_type: "authorization_code", client_id: app(name).clientId, code, redirect_uri: REDIRECT, ...extra });

  test("rule 1: a Scoped app must use PKCE at the authorization endpoint", async () => {
    const f = await send(oidc("Pulumi provider").authorizationUrl({ scope: "services.read", redirect_uri: REDIRECT }));
    expect(f.status).toBe(302);
    expect(new URL(f.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  test("rule 1: a Scoped app must send client_secret and the verifier on the token request", async () => {
    const c = oidc("Pulumi provider");
    const f = await authorize(c, "services.read", "admin@acme.example");
    const code = codeOf(f.location);
    expect((await exchange("Pulumi provider", code, { code_verifier: f.verifier })).json.error).toBe("invalid_client");
    expect((await exchange("Pulumi provider", code, { client_secret: app("Pulumi provider").clientSecret })).json.error).toBe("invalid_grant");
    const ok = await exchange("Pulumi provider", code, { client_secret: app("Pulumi provider").clientSecret, code_verifier: f.verifier });
    expect(ok.status).toBe(200);
  });

  test("Classic confidential: client_secret required, PKCE optional", async () => {
    const c = oidc("Classic web app");
    const f = await authorize(c, "write", "admin@acme.example", false);
    const code = codeOf(f.location);
    expect((await exchange("Classic web app", code, {})).json.error).toBe("invalid_client");
    const ok = await exchange("Classic web app", code, { client_secret: app("Classic web app").clientSecret });
    expect(ok.status).toBe(200);
    expect(ok.json.scope).toBe("write openid");
    // With PKCE (recommended) the verifier must then match.
    const g = await authorize(c, "write", "admin@acme.example", true);
    const wrong = await exchange("Classic web app", codeOf(g.location), {
      client_secret: app("Classic web app").clientSecret,
      code_verifier: generators.codeVerifier(),
    });
    expect(wrong.json.error).toBe("invalid_grant");
    expect(wrong.json.error_description).toMatch(/does not match/);
  });

  test("Classic non-confidential: omits client_secret, PKCE required (rule 2)", async () => {
    const spa = oidc("Classic single-page app", "none");
    const noPkce = await send(spa.authorizationUrl({ scope: "read", redirect_uri: REDIRECT }));
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    const tokens = await login(spa, "read", "user@acme.example");
    expect(tokens.access_token).toBeDefined();
    expect(tokens.scope).toBe("read openid");
  });

  test("the verifier must be 43-128 characters", async () => {
    const c = oidc("Classic single-page app", "none");
    for (const [length, ok] of [
      [42, false],
      [43, true],
      [128, true],
      [129, false],
    ] as const) {
      const verifier = "v".repeat(length);
      const url = c.authorizationUrl({
        scope: "read",
        redirect_uri: REDIRECT,
        code_challenge: generators.codeChallenge(verifier),
        code_challenge_method: "S256",
      });
      const res = await consent(url, "user@acme.example");
      const out = await exchange("Classic single-page app", codeOf(res.headers.get("location")!), { code_verifier: verifier });
      expect([length, out.status]).toEqual([length, ok ? 200 : 400]);
      if (!ok) expect(out.json.error).toBe("invalid_request");
    }
  });

  test("the code is valid 30 seconds, single use, and bound to its redirect_uri", async () => {
    const c = oidc("Classic web app");
    const secret = app("Classic web app").clientSecret;
    const late = await authorize(c, "read", "admin@acme.example", false);
    await admin(e, "POST", "/clock", { advanceSeconds: 31 });
    const expired = await exchange("Classic web app", codeOf(late.location), { client_secret: secret });
    expect(expired.json).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });

    const f = await authorize(c, "read", "admin@acme.example", false);
    const code = codeOf(f.location);
    expect((await exchange("Classic web app", code, { client_secret: secret, redirect_uri: "http://127.0.0.1:8765/callback" })).json.error).toBe(
      "invalid_grant",
    );
    const first = await exchange("Classic web app", code, { client_secret: secret });
    expect(first.status).toBe(200);
    const replay = await exchange("Classic web app", code, { client_secret: secret });
    expect(replay.json.error).toBe("invalid_grant");
    // A replayed code revokes what it issued.
    expect((await client(e, `Bearer ${first.json.access_token}`).get("/services")).status).toBe(401);
  });
});

describe("scopes (authentication rules 6-7) and effective access", () => {
  test("invalid or differently-cased scopes are dropped; openid is always granted", async () => {
    const tokens = await login(oidc("Pulumi provider"), "services.read Services.Write bogus users.read", "admin@acme.example");
    expect(tokens.scope!.split(" ").sort()).toEqual(["openid", "services.read"]);
    const classic = await login(oidc("Classic web app"), "Read write", "admin@acme.example");
    expect(classic.scope).toBe("write openid");
    const none = await login(oidc("Classic web app"), "nothing", "admin@acme.example");
    expect(none.scope).toBe("openid");
  });

  test("a `read` token gets 403 on writes", async () => {
    const tokens = await login(oidc("Classic web app"), "read", "admin@acme.example");
    const api = client(e, `Bearer ${tokens.access_token}`);
    expect((await api.get("/services")).status).toBe(200);
    const res = await api.post("/services", serviceBody(e));
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe(2010);
  });

  test("effective access = granted scopes ∩ user permissions (read-only user, full user)", async () => {
    const viewer = await login(oidc("Classic web app"), "write", "viewer@acme.example");
    const viewerApi = client(e, `Bearer ${viewer.access_token}`);
    expect((await viewerApi.get("/services")).status).toBe(200);
    const denied = await viewerApi.post("/services", serviceBody(e));
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toBe("Access Denied");
    const member = await login(oidc("Pulumi provider"), "services.write custom_fields.write", "user@acme.example");
    const memberApi = client(e, `Bearer ${member.access_token}`);
    expect((await memberApi.post("/services", serviceBody(e))).status).toBe(201);
    const field = await memberApi.post("/services/custom_fields", { field: { name: "x", display_name: "X", data_type: "string" } });
    expect(field.status).toBe(403);
  });
});

describe("refresh (authentication rule 5, limits)", () => {
  test("returns a new access and refresh token; the used refresh token stops working", async () => {
    const c = oidc("Classic web app");
    const first = await login(c, "read", "admin@acme.example");
    const second = await c.refresh(first.refresh_token!);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe("read openid");
    expect(second.id_token).toBeUndefined();
    expect((second as unknown as Record<string, unknown>).client_info).toBeUndefined();
    await expect(c.refresh(first.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await client(e, `Bearer ${second.access_token}`).get("/services")).status).toBe(200);
  });

  test("client_secret is required on refresh, also for non-confidential clients", async () => {
    const tokens = await login(oidc("Classic single-page app", "none"), "read", "user@acme.example");
    await expect(oidc("Classic single-page app", "none").refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_client" });
    const withSecret = await oidc("Classic single-page app").refresh(tokens.refresh_token!);
    expect(withSecret.access_token).toBeDefined();
  });

  test("refresh tokens expire after 210 days without use; continuous use ends after 3 years", async () => {
    const c = oidc("Classic web app");
    const idle = await login(c, "read", "admin@acme.example");
    await admin(e, "POST", "/clock", { advanceSeconds: 210 * DAY });
    await expect(c.refresh(idle.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });

    let current = await login(c, "read", "admin@acme.example");
    for (let i = 0; i < 5; i++) {
      await admin(e, "POST", "/clock", { advanceSeconds: 200 * DAY });
      current = await c.refresh(current.refresh_token!);
    }
    // Day 1000 of the chain: still inside the rolling window, which ends at 3 years (1095 days).
    await admin(e, "POST", "/clock", { advanceSeconds: 96 * DAY });
    await expect(c.refresh(current.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});

describe("revocation and app lifecycle (credential lifecycle table)", () => {
  test('"Revoke All Tokens" invalidates every token of that app only', async () => {
    const c = oidc("Classic web app");
    const user1 = await login(c, "read", "admin@acme.example");
    const other = await login(oidc("Pulumi provider"), "services.read", "admin@acme.example");
    const res = await admin(e, "POST", `/apps/${app("Classic web app").id}/revoke-tokens`);
    expect(res.json.revoked).toBe(2);
    expect((await client(e, `Bearer ${user1.access_token}`).get("/services")).status).toBe(401);
    await expect(c.refresh(user1.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await client(e, `Bearer ${other.access_token}`).get("/services")).status).toBe(200);
  });

  test("deleting the OAuth functionality leaves existing tokens working but issues no new ones; re-adding gives new credentials", async () => {
    const a = app("Pulumi provider");
    const grantForm = (clientId: string, clientSecret: string) =>
      form(e, "/oauth/token", {
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: clientSecret,
        scope: "as_account-us.acme services.read",
      });
    const before = await grantForm(a.clientId, a.clientSecret);
    expect((await admin(e, "DELETE", `/apps/${a.id}/oauth`)).status).toBe(204);
    expect((await client(e, `Bearer ${before.json.access_token}`).get("/services")).status).toBe(200);
    expect((await grantForm(a.clientId, a.clientSecret)).json.error).toBe("invalid_client");
    const authorizePage = await send(oidc("Pulumi provider").authorizationUrl({ scope: "services.read", redirect_uri: REDIRECT }));
    expect(authorizePage.status).toBe(401);
    const again = (await admin(e, "POST", `/apps/${a.id}/oauth`)).json;
    expect(again.clientSecret).not.toBe(a.clientSecret);
    expect((await grantForm(again.clientId, again.clientSecret)).status).toBe(200);
    expect((await grantForm(a.clientId, a.clientSecret)).status).toBe(401);
  });

  test("a user who leaves the account: their user API key and user tokens stop working", async () => {
    const member = await login(oidc("Classic web app"), "read", "user@acme.example");
    const key = reg.apiKeys.find((k) => k.kind === "user" && k.account === "acme")!;
    const keyApi = client(e, `Token token=${key.token}`);
    expect((await keyApi.get("/services")).status).toBe(200);
    expect((await admin(e, "DELETE", "/users/user@acme.example")).status).toBe(204);
    const res = await keyApi.get("/services");
    expect(res.status).toBe(401);
    expect(res.json.error.errors[0]).toMatch(/left the account/);
    expect((await client(e, `Bearer ${member.access_token}`).get("/services")).status).toBe(401);
    await expect(oidc("Classic web app").refresh(member.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    // Account keys do not depend on a user.
    expect((await client(e, `Token token=${e.seed.apiKey}`).get("/services")).status).toBe(200);
  });
});

describe("use on other accounts (OAuth kinds table)", () => {
  test("a Classic app works for users of any account as soon as it exists", async () => {
    const tokens = await login(oidc("Classic web app"), "write", "admin@globex.example");
    expect(tokens.claims()).toMatchObject({ region: "eu", account: { subdomain: "globex" } });
    // Globex is an EU account: its user's token works through the EU base.
    const api = euClient(e, `Bearer ${tokens.access_token}`);
    expect((await api.get("/services")).status).toBe(200);
    const acmeService = await createService(e, client(e, `Token token=${e.seed.apiKey}`));
    expect((await api.get(`/services/${acmeService}`)).status).toBe(404);
  });

  test("a Scoped app of another account needs publishing and an admin install; there only user tokens", async () => {
    const g = app("Globex marketplace app");
    const c = oidc("Globex marketplace app");
    const verifier = generators.codeVerifier();
    const url = c.authorizationUrl({
      scope: "services.read",
      redirect_uri: REDIRECT,
      code_challenge: generators.codeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const refused = await consent(url, "admin@acme.example");
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("unauthorized_client");

    expect((await admin(e, "POST", `/apps/${g.id}/installs`, { account: "acme" })).status).toBe(201);
    const tokens = await login(c, "services.read", "admin@acme.example");
    const api = client(e, `Bearer ${tokens.access_token}`);
    const acmeService = await createService(e, client(e, `Token token=${e.seed.apiKey}`));
    expect((await api.get(`/services/${acmeService}`)).status).toBe(200);

    const appToken = await form(e, "/oauth/token", {
      grant_type: "client_credentials",
      client_id: g.clientId,
      client_secret: g.clientSecret,
      scope: "as_account-us.acme services.read",
    });
    expect(appToken.json.error).toBe("unauthorized_client");
    expect(
      (
        await form(e, "/oauth/token", {
          grant_type: "client_credentials",
          client_id: g.clientId,
          client_secret: g.clientSecret,
          scope: "as_account-eu.globex services.read",
        })
      ).status,
    ).toBe(200);
  });

  test("an unpublished Scoped app cannot be installed on another account", async () => {
    const res = await admin(e, "POST", `/apps/${app("Pulumi provider").id}/installs`, { account: "globex" });
    expect(res.status).toBe(400);
  });
});

describe("id_token aud names the REST base of the user's region", () => {
  test("a Globex (EU) user: aud is <origin>/eu and the client; iss stays the identity origin", async () => {
    const tokens = await login(oidc("Classic web app"), "read", "admin@globex.example");
    const claims = tokens.claims();
    expect(claims.aud).toEqual([e.euApiUrl, app("Classic web app").clientId]);
    expect(claims.iss).toBe(e.authUrl);
    expect(claims).toMatchObject({ region: "eu", account: { subdomain: "globex" } });
    // That base is where the user's token works; the root refuses it, naming the base.
    expect((await client(e, `Bearer ${tokens.access_token}`, (claims.aud as string[])[0]).get("/services")).status).toBe(200);
    const refused = await client(e, `Bearer ${tokens.access_token}`).get("/services");
    expect(refused.status).toBe(401);
    expect(refused.json.error.errors).toEqual([`This account's data is in the EU service region; use ${e.euApiUrl}`]);
  });

  test("an Acme (US) user of the same app: aud is the origin", async () => {
    const tokens = await login(oidc("Classic web app"), "read", "admin@acme.example");
    expect(tokens.claims().aud).toEqual([e.apiUrl, app("Classic web app").clientId]);
  });
});

test("discovery and JWKS are served for id_token verification", async () => {
  const meta = (await send(`${e.authUrl}/.well-known/openid-configuration`)).json;
  expect(meta).toMatchObject({ issuer: e.authUrl, token_endpoint: `${e.authUrl}/oauth/token`, code_challenge_methods_supported: ["S256"] });
  const jwks = (await send(`${e.authUrl}/oauth/jwks`)).json;
  expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
  expect(jwks.keys[0]).not.toHaveProperty("d");
});

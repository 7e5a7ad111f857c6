// Token endpoint, client_credentials grant (API-NOTES §1): Scoped app tokens on the creating account.
import { admin, client, type Emu, form, registry, selector, send, start } from "./helpers";

let e: Emu;
beforeAll(async () => {
  e = await start();
});
afterAll(() => e.close());

const grant = (fields: Record<string, string | undefined>) =>
  form(e, "/oauth/token", {
    grant_type: "client_credentials",
    client_id: e.seed.oauth.clientId,
    client_secret: e.seed.oauth.clientSecret,
    scope: `${selector(e.seed.account)} services.read services.write`,
    ...fields,
  });

test("reply: access_token, token_type bearer, expires_in one day, scope granted without the account selector", async () => {
  const res = await grant({});
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.json).toEqual({ access_token: expect.any(String), token_type: "bearer", expires_in: 86400, scope: "services.read services.write openid" });
  expect(res.json).not.toHaveProperty("refresh_token");
  const api = client(e, `Bearer ${res.json.access_token}`);
  expect((await api.get("/services")).status).toBe(200);
});

test("authentication rule 6: invalid scopes are dropped from the grant, not an error; names are case sensitive", async () => {
  const res = await grant({ scope: `${selector(e.seed.account)} services.read bogus.scope Services.Write audit_records.read` });
  expect(res.status).toBe(200);
  expect(res.json.scope).toBe("services.read audit_records.read openid");
  const api = client(e, `Bearer ${res.json.access_token}`);
  const write = await api.post("/services", { service: { name: "x", escalation_policy: { id: e.seed.escalationPolicyId } } });
  expect(write.status).toBe(403);
});

test("contract: every token's scope includes openid; with no valid scope requested the grant is openid alone, never empty", async () => {
  for (const scope of [`${selector(e.seed.account)} bogus.scope Services.Read`, selector(e.seed.account), `${selector(e.seed.account)} openid services.read`]) {
    const res = await grant({ scope });
    expect(res.status).toBe(200);
    const granted = res.json.scope.split(" ");
    expect(granted).toContain("openid");
    expect(granted.filter((s: string) => s === "openid")).toHaveLength(1);
  }
  const none = await grant({ scope: `${selector(e.seed.account)} bogus.scope` });
  expect(none.json.scope).toBe("openid");
  // A token for openid alone reaches no REST route.
  expect((await client(e, `Bearer ${none.json.access_token}`).get("/services")).status).toBe(403);
});

test("the scope must start with the account selector as_account-<region>.<subdomain>", async () => {
  for (const scope of ["services.read", "services.read as_account-us.acme", "as_account-eu.acme services.read", "as_account-us.nowhere services.read"]) {
    const res = await grant({ scope });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_scope");
    expect(typeof res.json.error_description).toBe("string");
  }
});

test("contract (OAuth kinds): client credentials work only on the creating account", async () => {
  const res = await grant({ scope: "as_account-eu.globex services.read" });
  expect(res.status).toBe(400);
  expect(res.json.error).toBe("unauthorized_client");
});

test("Classic User OAuth apps cannot use client_credentials", async () => {
  const classic = (await registry(e)).apps.find((a) => a.kind === "classic" && a.confidential)!;
  const res = await grant({ client_id: classic.clientId, client_secret: classic.clientSecret });
  expect(res.status).toBe(400);
  expect(res.json.error).toBe("unauthorized_client");
});

test("wrong or missing client_secret, unknown client → 401 invalid_client", async () => {
  expect((await grant({ client_secret: "wrong" })).json.error).toBe("invalid_client");
  expect((await grant({ client_secret: undefined })).status).toBe(401);
  expect((await grant({ client_id: "nobody" })).status).toBe(401);
});

test("client rule 3: a client_secret in the query string is refused", async () => {
  const body = new URLSearchParams({ grant_type: "client_credentials", client_id: e.seed.oauth.clientId, scope: `${selector(e.seed.account)} services.read` });
  const res = await send(`${e.url}/oauth/token?client_secret=${encodeURIComponent(e.seed.oauth.clientSecret)}`, {
    method: "POST",
    body: body.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(res.status).toBe(400);
  expect(res.json.error).toBe("invalid_request");
  expect(res.json.error_description).toMatch(/query string/);
});

test("the token request must be form-encoded; JSON bodies and unknown grant types are refused", async () => {
  const json = await send(`${e.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: e.seed.oauth.clientId, client_secret: e.seed.oauth.clientSecret }),
  });
  expect(json.status).toBe(400);
  expect(json.json.error).toBe("invalid_request");
  expect((await grant({ grant_type: "password" })).json.error).toBe("unsupported_grant_type");
  expect((await grant({ grant_type: undefined })).json.error).toBe("invalid_request");
});

test("app tokens live one day: after the clock passes 86400 s the token gets 401", async () => {
  const res = await grant({});
  const api = client(e, `Bearer ${res.json.access_token}`);
  await admin(e, "POST", "/clock", { advanceSeconds: 86399 });
  expect((await api.get("/services")).status).toBe(200);
  await admin(e, "POST", "/clock", { advanceSeconds: 1 });
  const expired = await api.get("/services");
  expect(expired.status).toBe(401);
  expect(expired.json.error.errors[0]).toMatch(/expired/);
});

import { clientSecretPost, none } from "../../../../provider/auth/client-auth";
import { codeChallenge, createCodeVerifier } from "../../../../provider/auth/pkce";
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  processTokenResponse,
  refreshTokenGrant,
  type TokenEndpoint,
} from "../../../../provider/auth/token-endpoint";
import { NetworkError, TokenError } from "../../../../provider/errors";
import { DEFAULT_RETRY } from "../../../../provider/http/retry";
import { Transport, type HttpResponse } from "../../../../provider/http/transport";
import { useMockAgent } from "../../support/http-mock";

const reply = (status: number, body: unknown): HttpResponse => ({
  status,
  headers: { "content-type": "application/json" },
  text: typeof body === "string" ? body : JSON.stringify(body),
});

describe("processTokenResponse (no network)", () => {
  it("turns a reply into a TokenSet with expiry and granted scopes", () => {
    const set = processTokenResponse(reply(200, { access_token: "at", token_type: "bearer", expires_in: 86400, scope: "as_account-us.acme services.read" }), {
      now: 1_000,
    });
    expect(set).toEqual({ accessToken: "at", expiresAt: 1_000 + 86_400_000, scopes: ["as_account-us.acme", "services.read"] });
  });

  it("keeps a rotated refresh token", () => {
    expect(processTokenResponse(reply(200, { access_token: "at", token_type: "Bearer", expires_in: 60, refresh_token: "rt2" })).refreshToken).toBe("rt2");
  });

  it.each([
    ["no access_token", reply(200, { token_type: "bearer" }), /lacks "access_token"/],
    ["another token type", reply(200, { access_token: "x", token_type: "mac" }), /"token_type" "mac", expected "bearer"/],
    ["a bad expires_in", reply(200, { access_token: "x", expires_in: -5 }), /invalid "expires_in"/],
    ["a non-JSON 200", reply(200, "<html>ok</html>"), /without a JSON object/],
    [
      "an OAuth error",
      reply(401, { error: "invalid_client", error_description: "Client authentication failed" }),
      /token request failed: 401 invalid_client: Client authentication failed/,
    ],
    ["an API-style error", reply(400, { error: { message: "Bad scope", code: 2001 } }), /token request failed: 400: Bad scope/],
    ["a non-JSON error", reply(502, "<html><body>Bad Gateway</body></html>"), /token request failed: 502: Bad Gateway/],
  ])("rejects %s with a TokenError", (_label, response, message) => {
    expect(() => processTokenResponse(response)).toThrow(TokenError);
    expect(() => processTokenResponse(response)).toThrow(message);
  });

  it("records the OAuth error code and scrubs echoed secrets", () => {
    let err: TokenError | undefined;
    try {
      processTokenResponse(reply(400, { error: "invalid_grant", error_description: "token rt-SECRET-1 is expired" }), { secrets: ["rt-SECRET-1"] });
    } catch (e) {
      err = e as TokenError;
    }
    expect(err).toMatchObject({ code: "ERR_TOKEN", oauthError: "invalid_grant", status: 400 });
    expect(err!.message).not.toContain("rt-SECRET-1");
    expect(JSON.stringify(err)).not.toContain("rt-SECRET-1");
  });
});

describe("token requests (MockAgent)", () => {
  const mock = useMockAgent();
  let endpoint: TokenEndpoint;
  const origin = "https://identity.example.com";

  beforeEach(() => {
    endpoint = {
      url: `${origin}/oauth/token`,
      transport: new Transport({}, mock()),
      retry: { ...DEFAULT_RETRY, timeScale: 0.001 },
      userAgent: "test-agent",
      setting: "pagerduty-dynamic:authUrl or PAGERDUTY_AUTH_URL",
    };
  });

  it("sends client credentials in a form body, never in the URL", async () => {
    let seen: { path: string; headers: Record<string, string>; body: string } | undefined;
    mock()
      .get(origin)
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply((opts) => {
        seen = { path: opts.path, headers: opts.headers as Record<string, string>, body: String(opts.body) };
        return { statusCode: 200, data: { access_token: "at", token_type: "bearer", expires_in: 86400, scope: "services.read" } };
      });
    const res = await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s3cret"), "as_account-us.acme services.read");
    expect(processTokenResponse(res).accessToken).toBe("at");
    expect(seen!.path).toBe("/oauth/token");
    expect(seen!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(seen!.body))).toEqual({
      grant_type: "client_credentials",
      scope: "as_account-us.acme services.read",
      client_id: "cid",
      client_secret: "s3cret",
    });
  });

  it("sends the refresh grant with the client secret", async () => {
    mock()
      .get(origin)
      .intercept({ path: "/oauth/token", method: "POST", body: "grant_type=refresh_token&refresh_token=rt1&client_id=cid&client_secret=s" })
      .reply(200, { access_token: "at", refresh_token: "rt2", expires_in: 60 });
    expect(processTokenResponse(await refreshTokenGrant(endpoint, clientSecretPost("cid", "s"), "rt1")).refreshToken).toBe("rt2");
  });

  it("sends the authorization code with the PKCE verifier for a public client", async () => {
    const verifier = createCodeVerifier();
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code: "c1",
      redirect_uri: "http://127.0.0.1/cb",
      code_verifier: verifier,
      client_id: "cid",
    });
    mock().get(origin).intercept({ path: "/oauth/token", method: "POST", body: body.toString() }).reply(200, { access_token: "at", expires_in: 60 });
    await authorizationCodeGrant(endpoint, none("cid"), { code: "c1", redirectUri: "http://127.0.0.1/cb", codeVerifier: verifier });
  });

  it("waits out 429s (bounded by time, honouring ratelimit-reset), unlike other statuses", async () => {
    const pool = mock().get(origin);
    pool
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply(429, { error: "rate_limited" }, { headers: { "ratelimit-reset": "2" } })
      .times(5);
    pool.intercept({ path: "/oauth/token", method: "POST" }).reply(200, { access_token: "at", expires_in: 60 });
    const res = await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "as_account-us.acme");
    expect(processTokenResponse(res).accessToken).toBe("at");
  });

  it("retries network failures, 429 and 5xx of the client-credentials grant; an OAuth error is an answer", async () => {
    const pool = mock().get(origin);
    pool.intercept({ path: "/oauth/token", method: "POST" }).replyWithError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    pool.intercept({ path: "/oauth/token", method: "POST" }).reply(503, "busy");
    pool.intercept({ path: "/oauth/token", method: "POST" }).reply(400, { error: "invalid_client" });
    const res = await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "as_account-us.acme");
    expect(res.status).toBe(400);
  });

  it("gives up after the attempt cap with a NetworkError naming the setting it was given", async () => {
    mock()
      .get(origin)
      .intercept({ path: "/oauth/token", method: "POST" })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))
      .times(DEFAULT_RETRY.maxAttempts);
    const failure = clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "x");
    await expect(failure).rejects.toBeInstanceOf(NetworkError);
    await expect(failure).rejects.toMatchObject({
      code: "ERR_NETWORK",
      reason: "ECONNRESET",
      message: expect.stringMatching(/^POST https:\/\/[^ ]+\/oauth\/token failed: ECONNRESET \(pagerduty-dynamic:authUrl or PAGERDUTY_AUTH_URL\)$/),
    });
  });
});

describe("PKCE", () => {
  it("derives the S256 challenge (RFC 7636 appendix B)", () => {
    expect(codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("makes verifiers of 43 URL-safe characters", () => {
    const v = createCodeVerifier();
    expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createCodeVerifier()).not.toBe(v);
  });
});

// Outages: refused connections are waited out for a window of time (every method, POST included:
// nothing reached the server), the client-credentials grant is asked again after a 5xx or a dropped
// connection, and grants that spend what they send are never repeated once it may have arrived.
import { clientSecretPost, none } from "../../../../provider/auth/client-auth";
import { clientCredentialsSource } from "../../../../provider/auth/client-credentials";
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  processTokenResponse,
  refreshTokenGrant,
  type TokenEndpoint,
} from "../../../../provider/auth/token-endpoint";
import { apiKeySource } from "../../../../provider/auth/token-source";
import { NetworkError, TokenError } from "../../../../provider/errors";
import { ApiClient } from "../../../../provider/http/client";
import { DEFAULT_RETRY, outageDelay, withRetry, type RetryOptions } from "../../../../provider/http/retry";
import { Transport, type Method } from "../../../../provider/http/transport";
import { useMockAgent } from "../../support/http-mock";

const api = "https://api.example.com";
const idp = "https://identity.example.com";
const mock = useMockAgent();
const socketError = (code: string) => Object.assign(new Error(code), { code });
const SCALE = 0.0001;

/** Sends through the retry policy alone and records every wait, unscaled. */
async function retried(kind: Method, retry: RetryOptions = {}) {
  const transport = new Transport({}, mock());
  const waits: number[] = [];
  const options = { ...DEFAULT_RETRY, timeScale: SCALE, ...retry };
  const send = () => transport.send({ method: kind, url: new URL(`${api}/x`), headers: {}, ...(kind === "GET" ? {} : { body: "{}" }) });
  try {
    const outcome = await withRetry(kind, options, send, { onWait: (ms) => waits.push(Math.round(ms / SCALE)) });
    return { outcome, waits };
  } catch (error) {
    return { error: error as NetworkError, waits };
  }
}

const pool = () => mock().get(api);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("refused connections: a window of time, not a count", () => {
  it.each(["POST", "GET", "PUT", "DELETE"] as const)("%s waits out 12 refusals (a restart) and then succeeds", async (method) => {
    pool().intercept({ path: "/x", method }).replyWithError(socketError("ECONNREFUSED")).times(12);
    pool().intercept({ path: "/x", method }).reply(201, { ok: true });
    const { outcome, waits } = await retried(method);
    expect(outcome).toMatchObject({ attempts: 13, response: { status: 201 } });
    expect(waits).toHaveLength(12);
  });

  it("gives up once the next wait would pass 30 s: 17 attempts at the longest backoff, with the ECONNREFUSED", async () => {
    // Waits of 0.5, 1, 2, 2, ... s (jitter at its top): 16 of them sum to 29.5 s, a 17th would pass 30 s.
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError("ECONNREFUSED")).times(17);
    const { error, waits } = await retried("POST", { random: () => 1 });
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "ERR_NETWORK", reason: "ECONNREFUSED", sent: false });
    expect(waits).toEqual([500, 1000, ...Array(14).fill(2000)]);
    expect(sum(waits)).toBe(29_500);
  });

  it("at the shortest backoff (0.25, 0.5, 1, 1, ... s) tries more often within the same 30 s", async () => {
    pool().intercept({ path: "/x", method: "GET" }).replyWithError(socketError("ECONNREFUSED")).times(32);
    const { error, waits } = await retried("GET", { random: () => 0 });
    expect(error).toMatchObject({ reason: "ECONNREFUSED" });
    expect(waits).toHaveLength(31);
    expect(sum(waits)).toBeLessThanOrEqual(30_000);
    expect(sum(waits) + 1000).toBeGreaterThan(30_000);
  });

  it("the window is a setting: outageWindowMs 3 s allows 0.5 + 1 + 1.5 s", async () => {
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError("EHOSTUNREACH")).times(4);
    const { error, waits } = await retried("POST", { random: () => 1, outageWindowMs: 3000, outageMaxDelayMs: 1500 });
    expect(error).toMatchObject({ reason: "EHOSTUNREACH" });
    expect(waits).toEqual([500, 1000, 1500]);
  });

  it.each(["EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "EADDRNOTAVAIL"])("%s is an outage too (POST retried past maxAttempts)", async (code) => {
    pool()
      .intercept({ path: "/x", method: "POST" })
      .replyWithError(socketError(code))
      .times(DEFAULT_RETRY.maxAttempts + 2);
    pool().intercept({ path: "/x", method: "POST" }).reply(201, {});
    expect((await retried("POST")).outcome?.attempts).toBe(DEFAULT_RETRY.maxAttempts + 3);
  });

  it.each(["ENOTFOUND", "UND_ERR_CONNECT_TIMEOUT"])("%s keeps the attempt count (a typo in the URL; a connect timeout already waited)", async (code) => {
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError(code)).times(DEFAULT_RETRY.maxAttempts);
    const { error, waits } = await retried("POST");
    expect(error).toMatchObject({ reason: code, sent: false });
    expect(waits).toHaveLength(DEFAULT_RETRY.maxAttempts - 1);
  });

  it("a POST whose request may have arrived is still never repeated", async () => {
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError("ECONNRESET"));
    const { error, waits } = await retried("POST");
    expect(error).toMatchObject({ reason: "ECONNRESET", sent: true });
    expect(waits).toEqual([]);
  });

  it("refusals do not spend the 5xx attempts: 2 refusals, then 4 × 503 is the 5xx budget, as without them", async () => {
    pool().intercept({ path: "/x", method: "GET" }).replyWithError(socketError("ECONNREFUSED")).times(2);
    pool().intercept({ path: "/x", method: "GET" }).reply(503, "down").times(DEFAULT_RETRY.maxAttempts);
    const { outcome, waits } = await retried("GET", { random: () => 0 });
    expect(outcome).toMatchObject({ attempts: DEFAULT_RETRY.maxAttempts + 2, response: { status: 503 } });
    // Outage waits 0.25, 0.5 s; then the 5xx backoff starts at its first step (0.25, 0.5, 1 s).
    expect(waits).toEqual([250, 500, 250, 500, 1000]);
    // The outage waits are not reported as waiting for the service's answer.
    expect(outcome?.waitedMs).toBe(1750);
  });

  it("a 429 between refusals is waited out as before, and a refusal after it backs off from the start", async () => {
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError("ECONNREFUSED")).times(2);
    pool()
      .intercept({ path: "/x", method: "POST" })
      .reply(429, {}, { headers: { "ratelimit-reset": "3" } });
    pool().intercept({ path: "/x", method: "POST" }).replyWithError(socketError("ECONNREFUSED"));
    pool().intercept({ path: "/x", method: "POST" }).reply(201, {});
    const { outcome, waits } = await retried("POST", { random: () => 0 });
    expect(outcome).toMatchObject({ attempts: 5, response: { status: 201 } });
    expect(waits).toEqual([250, 500, 3000, 250]);
  });

  it("through the client: a POST answered after a 20-refusal restart creates once", async () => {
    pool().intercept({ path: "/services", method: "POST" }).replyWithError(socketError("ECONNREFUSED")).times(20);
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(201, { service: { id: "P1" } });
    // Jitter at its middle: 20 waits then sum to 28.1 s, inside the 30 s window (random jitter crossed it about once in 16 runs).
    const client = new ApiClient(
      { apiUrl: api, tokens: apiKeySource("k"), transport: new Transport({}, mock()) },
      { retry: { timeScale: SCALE, random: () => 0.5 } },
    );
    expect(await client.request("POST", "/services", { body: {} })).toEqual({ service: { id: "P1" } });
  });

  it("outageDelay: equal jitter on a doubling step, capped at outageMaxDelayMs", () => {
    const o = (r: number) => ({ ...DEFAULT_RETRY, random: () => r });
    expect([1, 2, 3, 4, 10].map((k) => outageDelay(k, o(0)))).toEqual([250, 500, 1000, 1000, 1000]);
    expect([1, 2, 3, 4, 10].map((k) => outageDelay(k, o(1)))).toEqual([500, 1000, 2000, 2000, 2000]);
  });
});

describe("the token endpoint", () => {
  let endpoint: TokenEndpoint;
  const token = () => mock().get(idp).intercept({ path: "/oauth/token", method: "POST" });
  const ok = { access_token: "at", token_type: "bearer", expires_in: 3600 };

  beforeEach(() => {
    endpoint = { url: `${idp}/oauth/token`, transport: new Transport({}, mock()), retry: { ...DEFAULT_RETRY, timeScale: SCALE }, userAgent: "t" };
  });

  it.each([500, 502, 503, 504])("client credentials: a %s is asked again", async (status) => {
    token().reply(status, "<html>Bad Gateway</html>");
    token().reply(200, ok);
    expect(processTokenResponse(await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "x")).accessToken).toBe("at");
  });

  it("client credentials: a dropped connection is asked again", async () => {
    token().replyWithError(socketError("ECONNRESET"));
    token().replyWithError(socketError("UND_ERR_SOCKET"));
    token().reply(200, ok);
    expect(processTokenResponse(await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "x")).accessToken).toBe("at");
  });

  it("client credentials: bounded by maxAttempts (4 attempts, at most 3.5 s of waiting); the last 5xx is the TokenError", async () => {
    token().reply(502, "<html>Bad Gateway</html>").times(DEFAULT_RETRY.maxAttempts);
    const waits: number[] = [];
    const { response, attempts } = await withRetry(
      "TOKEN",
      { ...endpoint.retry, random: () => 1 },
      () => endpoint.transport.send({ method: "POST", url: new URL(endpoint.url), headers: {}, body: "" }),
      { onWait: (ms) => waits.push(Math.round(ms / SCALE)) },
    );
    expect([response.status, attempts]).toEqual([502, 4]);
    expect(waits).toEqual([500, 1000, 2000]);
    token().reply(502, "<html>Bad Gateway</html>").times(DEFAULT_RETRY.maxAttempts);
    const reply = await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "x");
    expect(() => processTokenResponse(reply)).toThrow("token request failed: 502: Bad Gateway");
  });

  it.each([
    [400, "invalid_client"],
    [401, "invalid_client"],
    [400, "invalid_scope"],
  ])("client credentials: an OAuth error (%s %s) is never asked again", async (status, error) => {
    token().reply(status, { error });
    const reply = await clientCredentialsGrant(endpoint, clientSecretPost("cid", "s"), "x");
    expect(() => processTokenResponse(reply)).toThrow(TokenError);
    expect(reply.status).toBe(status);
  });

  it("the token source of an app rides out a 503 and a reset connection", async () => {
    token().reply(503, "busy");
    token().replyWithError(socketError("ECONNRESET"));
    token().reply(200, { ...ok, scope: "as_account-us.acme services.read" });
    const source = clientCredentialsSource(endpoint, { clientId: "cid", clientSecret: "s", region: "us", subdomain: "acme", scopes: ["services.read"] });
    expect((await source.get()).authorization).toBe("Bearer at");
  });

  describe.each([
    ["refresh token", () => refreshTokenGrant(endpoint, clientSecretPost("cid", "s"), "rt-1")],
    ["authorization code", () => authorizationCodeGrant(endpoint, none("cid"), { code: "c1", redirectUri: "http://127.0.0.1/cb" })],
  ])("%s grant: spends what it sends", (_label, grant) => {
    it("a 502 is not asked again (the code or token may be spent)", async () => {
      token().reply(502, "Bad Gateway");
      expect((await grant()).status).toBe(502);
    });

    it("a dropped connection is not asked again", async () => {
      token().replyWithError(socketError("ECONNRESET"));
      await expect(grant()).rejects.toMatchObject({ code: "ERR_NETWORK", reason: "ECONNRESET", sent: true });
    });

    it("a refused connection (nothing sent) and a 429 are", async () => {
      token().replyWithError(socketError("ECONNREFUSED")).times(6);
      token().reply(429, { error: "rate_limited" }, { headers: { "ratelimit-reset": "1" } });
      token().reply(200, ok);
      expect((await grant()).status).toBe(200);
    });
  });
});

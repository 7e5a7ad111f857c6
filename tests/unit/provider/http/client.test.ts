import { apiKeySource, RenewingTokenSource, type TokenSource } from "../../../../provider/auth/token-source";
import { ScopeError } from "../../../../provider/errors";
import { ApiClient, ApiError, isNotFound } from "../../../../provider/http/client";
import { useMockAgent } from "../../support/http-mock";
import { Agent, dispatcherRequest, Transport } from "../../../../provider/http/transport";

const api = "https://api.example.com";
const mock = useMockAgent();

/** A token source whose n-th token is `t<n>` with the given granted scopes. */
function oauth(scopes?: string[]) {
  let n = 0;
  const fetchToken = jest.fn(async () => ({ accessToken: `t${++n}`, expiresAt: Date.now() + 86_400_000, ...(scopes ? { scopes } : {}) }));
  return { tokens: new RenewingTokenSource(fetchToken), fetchToken };
}

const client = (tokens: TokenSource = oauth().tokens, vendor?: string) =>
  new ApiClient({ apiUrl: `${api}/`, tokens, transport: new Transport({}, mock()) }, { vendor, retry: { timeScale: 0.001 } });

describe("ApiClient requests", () => {
  it("sends the auth, Accept, Content-Type and User-Agent headers and parses JSON", async () => {
    let headers: Record<string, string> = {};
    let body = "";
    mock()
      .get(api)
      .intercept({ path: "/services", method: "POST" })
      .reply((opts) => {
        headers = opts.headers as Record<string, string>;
        body = String(opts.body);
        return { statusCode: 201, data: { service: { id: "P1" } } };
      });
    const created = await client(undefined, "acme").request<{ service: { id: string } }>("POST", "/services", { body: { service: { name: "a" } } });
    expect(created.service.id).toBe("P1");
    expect(headers).toMatchObject({
      authorization: "Bearer t1",
      accept: "application/vnd.acme+json;version=2",
      "content-type": "application/json",
      "user-agent": "pulumi-pagerduty-dynamic",
    });
    expect(JSON.parse(body)).toEqual({ service: { name: "a" } });
  });

  it("sends API keys as `Token token=` without a scope check", async () => {
    mock()
      .get(api)
      .intercept({ path: "/services/P1", method: "GET", headers: { authorization: "Token token=k-123" } })
      .reply(200, { service: {} });
    await client(apiKeySource("k-123")).request("GET", "/services/P1", { scopes: ["services.read"] });
  });

  it("encodes query values and arrays as key[]", async () => {
    mock()
      .get(api)
      .intercept({ path: "/services?limit=100&total=true&include%5B%5D=teams&include%5B%5D=integrations", method: "GET" })
      .reply(200, { services: [] });
    await client().request("GET", "/services", { query: { limit: 100, total: true, include: ["teams", "integrations"], query: undefined } });
  });

  it("returns undefined for 204 and omits Content-Type without a body", async () => {
    let headers: Record<string, string> = {};
    mock()
      .get(api)
      .intercept({ path: "/services/P1", method: "DELETE" })
      .reply((opts) => {
        headers = opts.headers as Record<string, string>;
        return { statusCode: 204, data: "" };
      });
    expect(await client().request("DELETE", "/services/P1")).toBeUndefined();
    expect(headers["content-type"]).toBeUndefined();
  });

  it("fails before sending when the grant lacks a required scope", async () => {
    const err = await client(oauth(["openid", "services.read"]).tokens)
      .request("PUT", "/services/P1", { scopes: ["services.read", "services.write"], body: {} })
      .then(
        () => undefined,
        (e: ScopeError) => e,
      );
    expect(err).toBeInstanceOf(ScopeError);
    if (!err) return;
    expect(err.code).toBe("ERR_SCOPE");
    expect(err.missing).toEqual(["services.write"]);
    expect(err.message).toBe(
      `the token's granted "scope" lacks "services.write" (granted: "openid services.read"); add the scope to the app or to "pagerduty:scopes"`,
    );
  });

  it("maps 404 to ERR_NOT_FOUND", async () => {
    mock()
      .get(api)
      .intercept({ path: "/services/PGONE", method: "GET" })
      .reply(404, { error: { message: "Not Found", code: 2100 } });
    const err = await client()
      .request("GET", "/services/PGONE")
      .then(undefined, (e: unknown) => e);
    expect(isNotFound(err)).toBe(true);
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toBe("ApiError: GET /services/PGONE failed: 404 Not Found (2100)");
  });
});

describe("ApiClient on 401", () => {
  it("fetches a new token once and retries the request once", async () => {
    const { tokens, fetchToken } = oauth();
    const pool = mock().get(api);
    pool
      .intercept({ path: "/services", method: "GET", headers: { authorization: "Bearer t1" } })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } });
    pool.intercept({ path: "/services", method: "GET", headers: { authorization: "Bearer t2" } }).reply(200, { services: [] });
    expect(await client(tokens).request("GET", "/services")).toEqual({ services: [] });
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("gives up after the second 401", async () => {
    const { tokens, fetchToken } = oauth();
    mock()
      .get(api)
      .intercept({ path: "/services", method: "POST" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } })
      .times(2);
    await expect(client(tokens).request("POST", "/services", { body: {} })).rejects.toMatchObject({ status: 401, code: "ERR_API" });
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("does not retry an API key", async () => {
    mock()
      .get(api)
      .intercept({ path: "/services", method: "GET" })
      .reply(401, { error: { message: "Unauthorized", code: 2006 } });
    await expect(client(apiKeySource("bad-key")).request("GET", "/services")).rejects.toMatchObject({ status: 401 });
  });

  it("lets concurrent requests share one token", async () => {
    const { tokens, fetchToken } = oauth();
    mock().get(api).intercept({ path: "/services", method: "GET" }).reply(200, { services: [] }).times(10);
    const c = client(tokens);
    await Promise.all(Array.from({ length: 10 }, () => c.request("GET", "/services")));
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });
});

describe("ApiClient concurrency", () => {
  it("keeps at most maxConcurrency requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    mock()
      .get(api)
      .intercept({ path: "/services", method: "GET" })
      .reply(() => {
        peak = Math.max(peak, ++inFlight);
        setTimeout(() => inFlight--, 3); // before the delayed reply arrives, so peak never overcounts
        return { statusCode: 200, data: {} };
      })
      .delay(10)
      .times(12);
    const c = new ApiClient({ apiUrl: api, tokens: oauth().tokens, transport: new Transport({}, mock()) }, { maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => c.request("GET", "/services")));
    expect(peak).toBeLessThanOrEqual(3);
  });
});

describe("Transport", () => {
  it("pools connections with undici's own Agent, loaded without the rest of undici", () => {
    const undici = require("undici");
    expect(Agent).toBe(undici.Agent);
    expect(dispatcherRequest).toBe(undici.Dispatcher.prototype.request);
  });
});

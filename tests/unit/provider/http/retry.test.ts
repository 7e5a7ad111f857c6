import { apiKeySource } from "../../../../provider/auth/token-source";
import { ApiError, NetworkError } from "../../../../provider/errors";
import { ApiClient } from "../../../../provider/http/client";
import { DEFAULT_RETRY, retryDelay, type RetryOptions } from "../../../../provider/http/retry";
import { useMockAgent } from "../../support/http-mock";
import { Transport, type HttpResponse } from "../../../../provider/http/transport";

const api = "https://api.example.com";
const mock = useMockAgent();

const client = (retry: RetryOptions = {}) =>
  new ApiClient({ apiUrl: api, tokens: apiKeySource("k"), transport: new Transport({}, mock()) }, { retry: { timeScale: 0.001, ...retry } });
const pool = () => mock().get(api);
const socketError = (code: string) => Object.assign(new Error(code), { code });

describe("retry policy by method", () => {
  it.each(["GET", "PUT", "DELETE"] as const)("%s retries 5xx, 429 and socket errors", async (method) => {
    pool().intercept({ path: "/x", method }).reply(500, "oops");
    pool().intercept({ path: "/x", method }).reply(429, {});
    pool().intercept({ path: "/x", method }).replyWithError(socketError("UND_ERR_SOCKET"));
    pool().intercept({ path: "/x", method }).reply(200, { ok: true });
    expect(await client().request(method, "/x")).toEqual({ ok: true });
  });

  it("does not retry POST on 500: the object may exist", async () => {
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(500, { error: { message: "Internal", code: 5000 } });
    await expect(client().request("POST", "/services", { body: {} })).rejects.toMatchObject({ status: 500, code: "ERR_API" });
  });

  it("does not retry POST after a socket error once the request may have been sent", async () => {
    pool().intercept({ path: "/services", method: "POST" }).replyWithError(socketError("ECONNRESET"));
    const err = await client()
      .request("POST", "/services", { body: {} })
      .then(
        () => undefined,
        (e: NetworkError) => e,
      );
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: "ERR_NETWORK", reason: "ECONNRESET", sent: true });
  });

  it("retries POST when the connection was refused (nothing was sent)", async () => {
    pool().intercept({ path: "/services", method: "POST" }).replyWithError(socketError("ECONNREFUSED"));
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(201, { service: { id: "P1" } });
    expect(await client().request("POST", "/services", { body: {} })).toEqual({ service: { id: "P1" } });
  });

  it("retries POST on 429, waiting the ratelimit-reset seconds (scaled)", async () => {
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(429, { error: { message: "Rate Limit Exceeded", code: 2020 } }, { headers: { "ratelimit-reset": "20" } });
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(201, { service: { id: "P1" } });
    const started = Date.now();
    await client({ random: () => 0 }).request("POST", "/services", { body: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 * 1000 * 0.001 - 1);
  });

  it("never retries a 4xx other than 429", async () => {
    pool()
      .intercept({ path: "/x", method: "PUT" })
      .reply(400, { error: { message: "Invalid Input Provided", code: 2001, errors: ["Name can't be blank"] } });
    await expect(client().request("PUT", "/x", { body: {} })).rejects.toThrow("PUT /x failed: 400 Invalid Input Provided (2001): Name can't be blank");
  });
});

describe("retry budget", () => {
  it("stops after maxAttempts and reports the last status", async () => {
    pool().intercept({ path: "/x", method: "GET" }).reply(503, "down").times(DEFAULT_RETRY.maxAttempts);
    await expect(client().request("GET", "/x")).rejects.toMatchObject({ status: 503, code: "ERR_API" });
  });

  it("reports ERR_RATE_LIMITED, with the attempts and the time waited, when 429 outlasts the wait budget", async () => {
    pool()
      .intercept({ path: "/x", method: "GET" })
      .reply(429, {}, { headers: { "ratelimit-reset": "1" } })
      .times(3);
    const err = await client({ random: () => 0, maxTotalDelayMs: 2500 })
      .request("GET", "/x")
      .then(
        () => undefined,
        (e: ApiError) => e,
      );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "ERR_RATE_LIMITED", status: 429 });
    expect(err?.message).toBe("GET /x failed: 429 (gave up after 3 attempts and 2 s of waiting for the rate limit)");
  });

  it("waits out a storm of 429s longer than maxAttempts: 429 is bounded by time, not attempts", async () => {
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(429, {}, { headers: { "ratelimit-reset": "1" } })
      .times(7);
    pool()
      .intercept({ path: "/services", method: "POST" })
      .reply(201, { service: { id: "P1" } });
    expect(await client({ maxAttempts: 4 }).request("POST", "/services", { body: {} })).toEqual({ service: { id: "P1" } });
  });

  it("fails instead of waiting past the total wait budget", async () => {
    pool()
      .intercept({ path: "/x", method: "GET" })
      .reply(429, {}, { headers: { "ratelimit-reset": "45" } })
      .times(2);
    // 30 s (capped) + 30 s fits the 60 s budget; a third wait would not.
    pool()
      .intercept({ path: "/x", method: "GET" })
      .reply(429, {}, { headers: { "ratelimit-reset": "45" } });
    await expect(client({ random: () => 0, maxAttempts: 10 }).request("GET", "/x")).rejects.toMatchObject({ code: "ERR_RATE_LIMITED" });
  });

  it("gives up on a persistent network failure with the NetworkError", async () => {
    pool().intercept({ path: "/x", method: "GET" }).replyWithError(socketError("UND_ERR_HEADERS_TIMEOUT")).times(DEFAULT_RETRY.maxAttempts);
    await expect(client().request("GET", "/x")).rejects.toMatchObject({ code: "ERR_NETWORK", reason: "UND_ERR_HEADERS_TIMEOUT" });
  });

  it("does not retry errors that are not transient", async () => {
    pool().intercept({ path: "/x", method: "GET" }).replyWithError(socketError("CERT_HAS_EXPIRED"));
    await expect(client().request("GET", "/x")).rejects.toMatchObject({ reason: "CERT_HAS_EXPIRED" });
  });
});

describe("retryDelay", () => {
  const res = (headers: HttpResponse["headers"]): HttpResponse => ({ status: 429, headers, text: "" });
  const o = (random: number) => ({ ...DEFAULT_RETRY, random: () => random });

  it("backs off exponentially with equal jitter, capped", () => {
    expect([1, 2, 3].map((n) => retryDelay(n, undefined, o(0)))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((n) => retryDelay(n, undefined, o(0.999999)))).toEqual([1, 2, 3].map((n) => expect.closeTo(500 * 2 ** (n - 1), 0)));
    expect(retryDelay(20, undefined, o(1))).toBe(30_000);
  });

  it("honours ratelimit-reset and retry-after, plus up to 0.5 s of jitter, within the cap", () => {
    expect(retryDelay(1, res({ "ratelimit-reset": "3" }), o(0))).toBe(3000);
    expect(retryDelay(1, res({ "ratelimit-reset": "3" }), o(0.5))).toBe(3250);
    expect(retryDelay(1, res({ "retry-after": "2" }), o(0))).toBe(2000);
    expect(retryDelay(1, res({ "ratelimit-reset": "600" }), o(0))).toBe(30_000);
    expect(retryDelay(1, res({ "ratelimit-reset": "soon" }), o(0))).toBe(250);
  });
});

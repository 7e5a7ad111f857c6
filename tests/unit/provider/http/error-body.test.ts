import { inspect } from "node:util";
import { clientCredentialsSource } from "../../../../provider/auth/client-credentials";
import { RenewingTokenSource } from "../../../../provider/auth/token-source";
import { ApiError, NetworkError, redactDeep, TokenError } from "../../../../provider/errors";
import { ApiClient } from "../../../../provider/http/client";
import { parseErrorBody } from "../../../../provider/http/error-body";
import { DEFAULT_RETRY } from "../../../../provider/http/retry";
import { Transport } from "../../../../provider/http/transport";
import { useMockAgent } from "../../support/http-mock";

describe("parseErrorBody", () => {
  it("reads the documented envelope", () => {
    expect(parseErrorBody(JSON.stringify({ error: { message: "Invalid Input Provided", code: 2001, errors: ["Name can't be blank"] } }))).toMatchObject({
      apiCode: 2001,
      apiMessage: "Invalid Input Provided",
      errors: ["Name can't be blank"],
    });
  });

  it.each([
    ["a string", "Name can't be blank", ["Name can't be blank"]],
    [
      "a map",
      { name: ["can't be blank", "is too long"], escalation_policy: "is required" },
      ["name can't be blank", "name is too long", "escalation_policy is required"],
    ],
    ["an array of maps", [{ name: "is taken" }, 42], ["name is taken", "42"]],
  ])("tolerates errors as %s", (_label, errors, expected) => {
    expect(parseErrorBody(JSON.stringify({ error: { message: "Invalid", code: 2001, errors } })).errors).toEqual(expected);
  });

  it("reads a bare error string and required scopes", () => {
    expect(parseErrorBody(JSON.stringify({ error: "Token missing required scopes", required_scopes: ["services.write"] }))).toMatchObject({
      apiMessage: "Token missing required scopes",
      errors: ["required scopes: services.write"],
    });
  });

  it("tolerates bodies that are not JSON", () => {
    expect(parseErrorBody("<html><body><h1>502 Bad Gateway</h1></body></html>")).toEqual({
      apiMessage: "502 Bad Gateway",
      errors: [],
      body: "502 Bad Gateway",
    });
    expect(parseErrorBody("")).toEqual({ errors: [], body: "" });
  });

  it("truncates long text", () => {
    expect(parseErrorBody("x".repeat(5000)).apiMessage).toHaveLength(301);
  });
});

describe("redactDeep", () => {
  it("masks credential fields at any depth but keeps numeric API codes", () => {
    expect(
      redactDeep({
        error: { code: 2001 },
        a: [{ access_token: "x", refresh_token: "y" }],
        headers: { authorization: "Bearer z" },
        client_secret: "s",
        name: "n",
      }),
    ).toEqual({
      error: { code: 2001 },
      a: [{ access_token: "REDACTED", refresh_token: "REDACTED" }],
      headers: { authorization: "REDACTED" },
      client_secret: "REDACTED",
      name: "n",
    });
  });
});

/** Every way Pulumi or a user might print an error. */
function renderings(err: unknown): string[] {
  return [String(err), (err as Error).message, JSON.stringify(err), inspect(err, { depth: null }), inspect(err, { depth: null, showHidden: true })];
}

describe("secrets never reach an error", () => {
  const api = "https://api.example.com";
  const identity = "https://identity.example.com";
  const mock = useMockAgent();

  it("ApiError masks the access token wherever the service echoes it", async () => {
    const token = "at-VERY-SECRET-0123456789";
    const tokens = new RenewingTokenSource(async () => ({ accessToken: token, expiresAt: Date.now() + 3_600_000 }));
    mock()
      .get(api)
      .intercept({ path: "/services/P1", method: "PUT" })
      .reply(
        400,
        { error: { message: `Invalid token ${token}`, code: 2001, errors: { token: [token], name: "can't be blank" } }, access_token: token },
        { headers: { authorization: `Bearer ${token}`, "x-echo": token } },
      );
    const client = new ApiClient({ apiUrl: api, tokens, transport: new Transport({}, mock()) }, { retry: { timeScale: 0.001 } });
    const err = await client.request("PUT", "/services/P1", { body: { service: { name: "" } } }).then(
      () => undefined,
      (e: ApiError) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err?.message).toBe("PUT /services/P1 failed: 400 Invalid token REDACTED (2001): token REDACTED; name can't be blank");
    for (const text of renderings(err)) expect(text).not.toContain(token);
    expect(Object.keys(err!)).not.toContain("response");
    expect(err?.response.status).toBe(400);
  });

  it("TokenError masks the client secret the identity service echoes", async () => {
    const secret = "cs-VERY-SECRET-0123456789";
    mock()
      .get(identity)
      .intercept({ path: "/oauth/token", method: "POST" })
      .reply(401, { error: "invalid_client", error_description: `client_secret ${secret} does not match`, client_secret: secret });
    const endpoint = { url: `${identity}/oauth/token`, transport: new Transport({}, mock()), retry: DEFAULT_RETRY, userAgent: "t" };
    const source = clientCredentialsSource(endpoint, { clientId: "cid", clientSecret: secret, region: "us", subdomain: "acme", scopes: ["services.read"] });
    const err = await source.get().then(
      () => undefined,
      (e: TokenError) => e,
    );
    expect(err).toBeInstanceOf(TokenError);
    expect(err?.message).toBe("token request failed: 401 invalid_client: client_secret REDACTED does not match");
    for (const text of renderings(err)) expect(text).not.toContain(secret);
  });
});

describe("failures below HTTP name the URL, the setting and the way out", () => {
  const setting = "pagerduty:authUrl or PAGERDUTY_AUTH_URL";
  const err = (reason: string) =>
    new NetworkError({ method: "POST", origin: "https://127.0.0.1:8443", path: "/oauth/token", setting, reason, sent: false, cause: undefined }).message;
  const mock = useMockAgent();

  test("a self-signed chain points at NODE_EXTRA_CA_CERTS and the emulator's caFile", () => {
    expect(err("SELF_SIGNED_CERT_IN_CHAIN")).toBe(
      `POST https://127.0.0.1:8443/oauth/token failed: SELF_SIGNED_CERT_IN_CHAIN: the certificate of https://127.0.0.1:8443 (${setting}) is not signed by a CA this process trusts. ` +
        "For a private CA (the emulator's --tls: the `caFile` of its ready line) set NODE_EXTRA_CA_CERTS=<CA file> in the environment of `pulumi`",
    );
  });
  test("an https URL at a plain-HTTP server says so", () => {
    expect(err("ERR_SSL_WRONG_VERSION_NUMBER")).toMatch(
      /https:\/\/127\.0\.0\.1:8443 \(pagerduty:authUrl or PAGERDUTY_AUTH_URL\) does not answer in TLS; if it serves plain HTTP, give it an http:\/\/ URL/,
    );
  });

  test("a REST call names the API URL and its setting, never the query", async () => {
    const api = "https://api.example.com:8443";
    mock()
      .get(api)
      .intercept({ path: "/services?query=secret-ish", method: "GET" })
      .replyWithError(Object.assign(new Error("self-signed certificate in certificate chain"), { code: "SELF_SIGNED_CERT_IN_CHAIN" })); // once: a certificate does not get better on retry
    const tokens = new RenewingTokenSource(async () => ({ accessToken: "at", expiresAt: Date.now() + 3_600_000 }));
    const client = new ApiClient({ apiUrl: api, tokens, transport: new Transport({}, mock()) }, { retry: { timeScale: 0.001 } });
    const e = await client.request("GET", "/services", { query: { query: "secret-ish" } }).then(
      () => undefined,
      (x: NetworkError) => x,
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(e?.message).toMatch(
      /^GET https:\/\/api\.example\.com:8443\/services failed: SELF_SIGNED_CERT_IN_CHAIN: the certificate of https:\/\/api\.example\.com:8443 \(pagerduty:apiUrl or PAGERDUTY_API_URL\) is not signed by a CA this process trusts\. .*NODE_EXTRA_CA_CERTS/,
    );
    expect(e?.message).not.toContain("secret-ish");
  });
});

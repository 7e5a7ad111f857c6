// The auth and HTTP layer against a live emulator over real HTTP: client credentials, API keys,
// refresh-token rotation (after a real authorization-code + PKCE login), 401 recovery, scope
// checks and the retry policy under scripted faults.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/src";
import { clientSecretPost } from "../../provider/auth/client-auth";
import { processTokenResponse, refreshTokenGrant, type TokenEndpoint } from "../../provider/auth/token-endpoint";
import { resolveSettings, type ProviderSettings } from "../../provider/config";
import { ScopeError, TokenError } from "../../provider/errors";
import { type ApiClient, isNotFound } from "../../provider/http/client";
import { DEFAULT_RETRY } from "../../provider/http/retry";
import { Transport } from "../../provider/http/transport";
import { createClient } from "../../provider/account/client";
import { loginForRefreshToken } from "../support/oauth-login";

let emu: RunningEmulator;
let cacheHome: string;
const clients: ApiClient[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
beforeEach(() => {
  cacheHome = mkdtempSync(join(tmpdir(), "pd-live-"));
});
afterEach(async () => {
  emu.core.faults.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  rmSync(cacheHome, { recursive: true, force: true });
});
afterAll(async () => {
  await emu?.close();
});

/** Settings as Pulumi would resolve them, with waits scaled down for the test. */
function settings(extra: Record<string, string> = {}): ProviderSettings {
  const config: Record<string, string> = {
    "pagerduty:apiUrl": emu.apiUrl,
    "pagerduty:authUrl": emu.authUrl,
    "pagerduty:subdomain": emu.seed.account.subdomain,
    "pagerduty:serviceRegion": emu.seed.account.region,
    ...(extra["pagerduty:token"] ? {} : { "pagerduty:clientId": emu.seed.oauth.clientId, "pagerduty:clientSecret": emu.seed.oauth.clientSecret }),
    ...extra,
  };
  const resolved = resolveSettings((k) => config[k], { XDG_CACHE_HOME: cacheHome });
  return { ...resolved, retry: { ...DEFAULT_RETRY, timeScale: 0.001 } };
}

function client(s = settings()): ApiClient {
  const c = createClient(s);
  clients.push(c);
  return c;
}

const READ = ["services.read"];
const WRITE = ["services.write"];
const service = (name: string) => ({
  service: { name, type: "service", escalation_policy: { id: emu.seed.escalationPolicyId, type: "escalation_policy_reference" } },
});
const issued = () => ({ ...emu.core.stats.tokensIssued });

describe("client credentials", () => {
  it("creates, reads and deletes with one shared token", async () => {
    const before = issued();
    const c = client();
    const created = await c.request<{ service: { id: string } }>("POST", "/services", { body: service("live-1"), scopes: WRITE });
    const lists = await Promise.all(
      Array.from({ length: 8 }, () => c.request<{ services: unknown[] }>("GET", "/services", { query: { limit: 100 }, scopes: READ })),
    );
    expect(lists.every((l) => Array.isArray(l.services))).toBe(true);
    expect(await c.request("DELETE", `/services/${created.service.id}`, { scopes: WRITE })).toBeUndefined();
    const gone = await c.request("GET", `/services/${created.service.id}`, { scopes: READ }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isNotFound(gone)).toBe(true);
    expect(issued().client_credentials - before.client_credentials).toBe(1);
  });

  it("fails before sending when the service granted less than asked", async () => {
    const c = client(settings({ "pagerduty:scopes": "services.read teams.write" }));
    await c.request("GET", "/services", { scopes: READ }); // the reduced grant still covers reads
    const err = await c.request("POST", "/teams", { body: {}, scopes: ["teams.write"] }).then(
      () => undefined,
      (e: ScopeError) => e,
    );
    expect(err).toBeInstanceOf(ScopeError);
    expect(err?.missing).toEqual(["teams.write"]);
  });

  it("fetches a new token once when the service rejects the old one", async () => {
    const c = client();
    await c.request("GET", "/services", { scopes: READ });
    const before = issued();
    emu.core.clock.advance(2 * 86_400_000); // the service now sees the cached token as expired
    await c.request("GET", "/services", { scopes: READ });
    expect(issued().client_credentials - before.client_credentials).toBe(1);
  });
});

describe("API key", () => {
  it("authenticates with `Token token=`", async () => {
    const c = client(settings({ "pagerduty:token": emu.seed.apiKey }));
    await expect(c.request("GET", "/services", { scopes: READ })).resolves.toHaveProperty("services");
  });
});

describe("retry policy against scripted faults", () => {
  it("retries GET through 503s and dropped connections", async () => {
    emu.core.faults.add({ route: "GET /services", status: 503, count: 2 });
    emu.core.faults.add({ route: "GET /services", drop: true, count: 1 });
    await expect(client().request("GET", "/services", { scopes: READ })).resolves.toHaveProperty("services");
  });

  it("times out slow responses and gives up after the attempt budget", async () => {
    const s = settings();
    // undici checks headers timeouts on a ~0.5 s tick, so the reply must be later than that.
    emu.core.faults.add({ route: "GET /services", latencyMs: 2500, count: 2 });
    const c = client({ ...s, timeouts: { ...s.timeouts, headersMs: 100 }, retry: { ...s.retry, maxAttempts: 2 } });
    await expect(c.request("GET", "/services", { scopes: READ })).rejects.toMatchObject({ code: "ERR_NETWORK", reason: "UND_ERR_HEADERS_TIMEOUT" });
  });

  it("does not retry a POST that failed with 500", async () => {
    const c = client();
    await c.request("GET", "/services", { scopes: READ }); // token first, so only the POST meets the fault
    const before = emu.core.stats.faultsInjected;
    emu.core.faults.add({ route: "POST /services", status: 500, count: 2 });
    await expect(c.request("POST", "/services", { body: service("live-500"), scopes: WRITE })).rejects.toMatchObject({ status: 500, code: "ERR_API" });
    expect(emu.core.stats.faultsInjected - before).toBe(1);
  });

  it("retries a POST rejected with 429 after ratelimit-reset", async () => {
    const c = client();
    await c.request("GET", "/services", { scopes: READ }); // token first, so only the POST meets the fault
    const before = emu.core.stats.faultsInjected;
    emu.core.faults.add({ route: "POST /services", status: 429, count: 1 });
    const created = await c.request<{ service: { id: string } }>("POST", "/services", { body: service("live-429"), scopes: WRITE });
    // The 429 was served (once) and the retry made the one service, which the API now holds.
    expect(emu.core.stats.faultsInjected - before).toBe(1);
    expect(
      Object.values(emu.core.state.services)
        .filter((s) => s.name === "live-429")
        .map((s) => s.id),
    ).toEqual([created.service.id]);
    await c.request("DELETE", `/services/${created.service.id}`, { scopes: WRITE });
  });
});

describe("refresh tokens", () => {
  const tokenEndpoint = (): TokenEndpoint => ({ url: `${emu.authUrl}/oauth/token`, transport: new Transport(), retry: DEFAULT_RETRY, userAgent: "test" });

  const login = () => {
    const user = Object.values(emu.core.state.users).find((u) => u.email === "admin@acme.example")!;
    const { clientId, clientSecret } = emu.seed.oauth;
    return loginForRefreshToken({
      authUrl: emu.authUrl,
      clientId,
      clientSecret,
      email: user.email,
      password: user.password,
      scope: "services.read services.write",
    });
  };

  it("keeps the rotated token, so the next process works after the configured one is spent", async () => {
    const configured = await login();
    const s = settings({ "pagerduty:refreshToken": configured });

    await client(s).request("GET", "/services", { scopes: READ });
    const dir = join(cacheHome, "pulumi-pagerduty-dynamic-tokens");
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);

    // The configured token was spent by the first process...
    const endpoint = tokenEndpoint();
    const auth = clientSecretPost(emu.seed.oauth.clientId, emu.seed.oauth.clientSecret);
    const spent = await refreshTokenGrant(endpoint, auth, configured);
    expect(() => processTokenResponse(spent)).toThrow(TokenError);
    await endpoint.transport.close();

    // ...and a second process starts from the cached rotation instead.
    await expect(client(s).request("GET", "/services", { scopes: READ })).resolves.toHaveProperty("services");
    expect(emu.core.stats.tokensIssued.refresh_token).toBeGreaterThanOrEqual(2);
  });
});

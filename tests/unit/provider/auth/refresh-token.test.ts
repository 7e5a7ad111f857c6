import { mkdtempSync, readdirSync, readFileSync, statSync, chmodSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { refreshTokenSource } from "../../../../provider/auth/refresh-token";
import { RefreshTokenCache } from "../../../../provider/auth/token-cache";
import type { TokenEndpoint } from "../../../../provider/auth/token-endpoint";
import { resolveSettings } from "../../../../provider/config";
import { ConfigError, TokenError } from "../../../../provider/errors";
import { DEFAULT_RETRY } from "../../../../provider/http/retry";
import { Transport } from "../../../../provider/http/transport";
import { createClient } from "../../../../provider/account/client";
import { useMockAgent } from "../../support/http-mock";

const origin = "https://identity.example.com";
const creds = { clientId: "cid", clientSecret: "csecret", refreshToken: "rt-0" };

const mock = useMockAgent();
let endpoint: TokenEndpoint;
let cacheHome: string;
let dir: string;
let warnings: string[];

beforeEach(() => {
  endpoint = { url: `${origin}/oauth/token`, transport: new Transport({}, mock()), retry: { ...DEFAULT_RETRY, timeScale: 0.001 }, userAgent: "t" };
  cacheHome = mkdtempSync(join(tmpdir(), "pd-cache-"));
  dir = join(cacheHome, "pulumi-pagerduty-dynamic-tokens");
  warnings = [];
});
afterEach(async () => {
  rmSync(cacheHome, { recursive: true, force: true });
});

/** A "process": a fresh source over the same cache directory. */
function start(config = creds) {
  const warn = (m: string) => warnings.push(m);
  return refreshTokenSource(endpoint, config, new RefreshTokenCache({ dir, warn }), warn);
}

/** Expects one refresh grant spending `spent` and rotates it to `next`. */
function expectRefresh(spent: string, next: string, access = `at-${next}`) {
  const body = `grant_type=refresh_token&refresh_token=${spent}&client_id=cid&client_secret=csecret`;
  mock().get(origin).intercept({ path: "/oauth/token", method: "POST", body }).reply(200, {
    access_token: access,
    token_type: "bearer",
    expires_in: 86400,
    refresh_token: next,
    scope: "openid services.read",
  });
}

function rejectRefresh(spent: string) {
  mock()
    .get(origin)
    .intercept({ path: "/oauth/token", method: "POST", body: (b) => b.includes(`refresh_token=${spent}&`) })
    .reply(400, { error: "invalid_grant", error_description: `refresh token ${spent} is invalid` });
}

const cacheFile = () => join(dir, readdirSync(dir).find((f) => f.endsWith(".json"))!);
const mode = (path: string) => statSync(path).mode & 0o777;

describe("refresh-token source", () => {
  it("persists the rotated token in a private file named by a hash", async () => {
    expectRefresh("rt-0", "rt-1");
    expect((await start().get()).authorization).toBe("Bearer at-rt-1");
    const file = cacheFile();
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(file).not.toMatch(/rt-0|rt-1/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ version: 1, refreshToken: "rt-1" });
    expect(readdirSync(dir).filter((f) => !f.endsWith(".json"))).toEqual([]); // no temp or lock left
  });

  it("starts the next process from the cached token, not the spent one in config", async () => {
    expectRefresh("rt-0", "rt-1");
    await start().get();
    expectRefresh("rt-1", "rt-2");
    expect((await start().get()).authorization).toBe("Bearer at-rt-2");
    expect(JSON.parse(readFileSync(cacheFile(), "utf8")).refreshToken).toBe("rt-2");
  });

  it("uses the latest rotated token when renewing inside one process", async () => {
    let now = Date.now();
    const warn = (m: string) => warnings.push(m);
    const source = refreshTokenSource(endpoint, creds, new RefreshTokenCache({ dir, warn }), warn, { now: () => now });
    expectRefresh("rt-0", "rt-1");
    await source.get();
    now += 86_400_000;
    expectRefresh("rt-1", "rt-2");
    expect((await source.get()).authorization).toBe("Bearer at-rt-2");
  });

  it("lets concurrent processes take turns instead of spending the same token twice", async () => {
    expectRefresh("rt-0", "rt-1");
    expectRefresh("rt-1", "rt-2");
    const grants = await Promise.all([start().get(), start().get()]);
    expect(grants.map((g) => g.authorization).sort()).toEqual(["Bearer at-rt-1", "Bearer at-rt-2"]);
  });

  it("starts a new lineage when config holds a new token", async () => {
    expectRefresh("rt-0", "rt-1");
    await start().get();
    expectRefresh("fresh0", "fresh1");
    expect((await start({ ...creds, refreshToken: "fresh0" }).get()).authorization).toBe("Bearer at-fresh1");
    expect(readdirSync(dir).filter((f) => f.endsWith(".json"))).toHaveLength(2);
  });

  it("ignores a cache file other users could read, with a warning, and replaces it", async () => {
    expectRefresh("rt-0", "rt-1");
    await start().get();
    const file = cacheFile();
    chmodSync(file, 0o644);
    expectRefresh("rt-0", "rt-9"); // the service would refuse rt-0; what matters is that rt-1 was not used
    await start().get();
    expect(warnings.join("\n")).toMatch(/ignoring token cache file .* mode 0600 \(found 0644\)/);
    expect(mode(file)).toBe(0o600);
  });

  it("tightens a cache directory that others could enter", async () => {
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expectRefresh("rt-0", "rt-1");
    await start().get();
    expect(mode(dir)).toBe(0o700);
    expect(warnings.join("\n")).toMatch(/accessible to other users \(mode 0755\); restricting it to 0700/);
  });

  it("refuses to spend the token when the cache cannot be created", async () => {
    writeFileSync(join(cacheHome, "pulumi-pagerduty-dynamic-tokens"), "not a directory");
    await expect(start().get()).rejects.toBeInstanceOf(ConfigError); // and no request was made
  });

  it("drops a cached token the service rejects and explains what to do", async () => {
    expectRefresh("rt-0", "rt-1");
    await start().get();
    rejectRefresh("rt-1");
    const err = (await start()
      .get()
      .then(undefined, (e: unknown) => e)) as TokenError;
    expect(err).toBeInstanceOf(TokenError);
    expect(err.message).toMatch(/invalid_grant.*cached for this pagerduty:refreshToken .* was rejected and removed.*Obtain a new refresh token/);
    expect(err.message).not.toMatch(/rt-0|rt-1|csecret/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".json"))).toEqual([]);
  });

  it("explains that a configured token stops working once used", async () => {
    rejectRefresh("rt-0");
    await expect(start().get()).rejects.toThrow(/pagerduty:refreshToken was rejected; each refresh rotates it/);
  });

  it("still serves the process when the rotated token cannot be saved, and warns", async () => {
    const blocker = new RefreshTokenCache({ dir, warn: () => undefined });
    mkdirSync(blocker.path(RefreshTokenCache.key(endpoint.url, "cid", "rt-0")), { recursive: true });
    expectRefresh("rt-0", "rt-1");
    expect((await start().get()).authorization).toBe("Bearer at-rt-1");
    expect(warnings.join("\n")).toMatch(/could not save the rotated refresh token .* kept for this process only/);
  });
});

describe("refresh tokens through the configured client", () => {
  it("keeps the cache under $XDG_CACHE_HOME", async () => {
    const settings = resolveSettings(
      (k) => ({ "pagerduty:clientId": "cid", "pagerduty:clientSecret": "csecret", "pagerduty:refreshToken": "rt-0", "pagerduty:authUrl": origin })[k],
      { XDG_CACHE_HOME: cacheHome },
    );
    const client = createClient(settings, { dispatcher: mock() });
    expectRefresh("rt-0", "rt-1");
    mock()
      .get("https://api.pagerduty.com")
      .intercept({ path: "/services/P1", method: "GET", headers: { authorization: "Bearer at-rt-1" } })
      .reply(200, { service: { id: "P1" } });
    expect(await client.request("GET", "/services/P1", { scopes: ["services.read"] })).toEqual({ service: { id: "P1" } });
    expect(mode(cacheFile())).toBe(0o600);
  });
});

import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RefreshTokenCache } from "../../../provider/auth/token-cache";
import { DEFAULT_ACCOUNT, describeSetting, resolveDriftAllFields, resolveSettings, settingKey, settingSource } from "../../../provider/config";
import { ConfigError, InsecureUrlError } from "../../../provider/errors";

const fromMap = (m: Record<string, string>) => (key: string) => m[key];
const creds = { "pagerduty:clientId": "cid", "pagerduty:clientSecret": "csecret", "pagerduty:subdomain": "acme" };

function configError(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a configuration error");
}

describe("resolveSettings", () => {
  it("defaults to the US hosts, client credentials and the minimum scopes", () => {
    const s = resolveSettings(fromMap(creds), {});
    expect(s).toMatchObject({
      apiUrl: "https://api.pagerduty.com",
      authUrl: "https://identity.pagerduty.com",
      serviceRegion: "us",
      subdomain: "acme",
      credentials: { kind: "client_credentials", clientId: "cid", clientSecret: "csecret" },
      scopes: ["services.read", "services.write", "custom_fields.read", "audit_records.read"],
      vendor: "pagerduty",
      maxConcurrency: 32,
      requestsPerMinute: 0, // no static ceiling: PagerDuty's reported budget paces
    });
  });

  it("with the default scopes app tokens also ask for escalation_policies.read and custom_fields.write, never required; scopes set explicitly are asked for as they are", () => {
    expect(resolveSettings(fromMap(creds), {}).optionalScopes).toEqual(["escalation_policies.read", "custom_fields.write"]);
    const explicit = resolveSettings(fromMap({ ...creds, "pagerduty:scopes": "services.read services.write" }), {});
    expect(explicit).toMatchObject({ scopes: ["services.read", "services.write"], optionalScopes: [] });
  });

  it("takes an optional static ceiling from pagerduty:requestsPerMinute", () => {
    expect(resolveSettings(fromMap({ ...creds, "pagerduty:requestsPerMinute": "300" }), {}).requestsPerMinute).toBe(300);
    expect(resolveSettings(fromMap(creds), { PAGERDUTY_REQUESTS_PER_MINUTE: "120" }).requestsPerMinute).toBe(120);
  });

  it("waits out the service's lag 2 minutes in the US and 5 in the EU unless pagerduty:consistencyWindow (seconds) says otherwise", () => {
    expect(resolveSettings(fromMap(creds), {}).consistencyWindowMs).toBe(120_000);
    expect(resolveSettings(fromMap({ ...creds, "pagerduty:serviceRegion": "eu" }), {}).consistencyWindowMs).toBe(300_000);
    expect(resolveSettings(fromMap({ ...creds, "pagerduty:consistencyWindow": "7.5" }), {}).consistencyWindowMs).toBe(7_500);
    expect(resolveSettings(fromMap(creds), { PAGERDUTY_CONSISTENCY_WINDOW: "0" }).consistencyWindowMs).toBe(0);
    expect(() => resolveSettings(fromMap({ ...creds, "pagerduty:consistencyWindow": "-1" }), {})).toThrow(
      /"pagerduty:consistencyWindow" \(env PAGERDUTY_CONSISTENCY_WINDOW\) must be a number of seconds from 0 to 3600; got "-1"/,
    );
  });

  it("picks the EU REST host by region and keeps identity global", () => {
    const s = resolveSettings(fromMap({ ...creds, "pagerduty:serviceRegion": "EU" }), {});
    expect([s.serviceRegion, s.apiUrl, s.authUrl]).toEqual(["eu", "https://api.eu.pagerduty.com", "https://identity.pagerduty.com"]);
  });

  it("falls back to the environment, with stack config taking precedence per key", () => {
    const env = { PAGERDUTY_CLIENT_ID: "env-id", PAGERDUTY_CLIENT_SECRET: "env-secret", PAGERDUTY_SUBDOMAIN: "envco", PAGERDUTY_SCOPES: "services.read" };
    const s = resolveSettings(fromMap({ "pagerduty:clientId": "cfg-id" }), env);
    expect(s.credentials).toEqual({ kind: "client_credentials", clientId: "cfg-id", clientSecret: "env-secret" });
    expect([s.subdomain, s.scopes]).toEqual(["envco", ["services.read"]]);
  });

  it("selects the API key and refresh token modes", () => {
    expect(resolveSettings(fromMap({ "pagerduty:token": "k" }), {}).credentials).toEqual({ kind: "api_key", token: "k" });
    const refresh = resolveSettings(fromMap({ ...creds, "pagerduty:refreshToken": "rt" }), {});
    expect(refresh.credentials).toEqual({ kind: "refresh_token", clientId: "cid", clientSecret: "csecret", refreshToken: "rt" });
  });

  it.each([
    ["no credentials", {}, /no PagerDuty credentials: set "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/],
    [
      "client id without secret",
      { "pagerduty:clientId": "cid", "pagerduty:subdomain": "acme" },
      /"pagerduty:clientSecret" \(env PAGERDUTY_CLIENT_SECRET\) is required/,
    ],
    [
      "client credentials without subdomain",
      { "pagerduty:clientId": "cid", "pagerduty:clientSecret": "s" },
      /"pagerduty:subdomain" \(env PAGERDUTY_SUBDOMAIN\) is required with client credentials/,
    ],
    [
      "refresh token without client",
      { "pagerduty:refreshToken": "rt" },
      /"pagerduty:clientId" .* and "pagerduty:clientSecret" .* are required with "pagerduty:refreshToken"/,
    ],
    ["API key and OAuth both set", { ...creds, "pagerduty:token": "k" }, /"pagerduty:token" \(env PAGERDUTY_TOKEN\) \(an API key\) and OAuth settings/],
    ["unknown region", { ...creds, "pagerduty:serviceRegion": "ap" }, /"pagerduty:serviceRegion" .* must be "us" or "eu"; got "ap"/],
    ["subdomain given as a host", { ...creds, "pagerduty:subdomain": "acme.pagerduty.com" }, /"pagerduty:subdomain" .* must be the account's subdomain/],
    [
      "account selector in scopes",
      { ...creds, "pagerduty:scopes": "as_account-us.acme services.read" },
      /"pagerduty:scopes" .* must not contain the account selector/,
    ],
    ["zero concurrency", { ...creds, "pagerduty:maxConcurrency": "0" }, /"pagerduty:maxConcurrency" .* must be a positive integer/],
    ["fractional ceiling", { ...creds, "pagerduty:requestsPerMinute": "12.5" }, /"pagerduty:requestsPerMinute" .* must be a positive integer; got "12.5"/],
    ["unparseable URL", { ...creds, "pagerduty:apiUrl": "not a url" }, /"pagerduty:apiUrl" .* is not a URL/],
    ["URL with userinfo", { ...creds, "pagerduty:apiUrl": "https://user:pw@api.example.com" }, /"pagerduty:apiUrl" .* must not carry credentials/],
  ])("names the key that is wrong: %s", (_label, config, message) => {
    const err = configError(() => resolveSettings(fromMap(config as Record<string, string>), {}));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(message);
  });

  it("refuses a stack setting set to an empty or blank string, naming it, where the default would otherwise hide it; an empty environment variable stays unset", () => {
    for (const key of [
      "pagerduty:apiUrl",
      "pagerduty:authUrl",
      "pagerduty:subdomain",
      "pagerduty:scopes",
      "pagerduty:clientSecret",
      "pagerduty:maxConcurrency",
    ]) {
      for (const empty of ["", "  "]) {
        const err = configError(() => resolveSettings(fromMap({ ...creds, [key]: empty }), {}));
        expect(err).toBeInstanceOf(ConfigError);
        expect(err.message).toMatch(new RegExp(`^"${key}" is empty: give it a value, or remove it \\(pulumi config rm ${key}\\)`));
      }
    }
    expect(configError(() => resolveSettings(fromMap({ ...creds, "pagerduty:apiUrl": "" }), {})).message).toContain(
      "to use the default, https://api.pagerduty.com",
    );
    expect(configError(() => resolveDriftAllFields(fromMap({ "pagerduty:driftAllFields": "" }), {})).message).toMatch(/^"pagerduty:driftAllFields" is empty/);
    // A named account's entry, and the package's namespace.
    const accounts = JSON.stringify({ eu: { clientId: "c", clientSecret: "s", subdomain: "acme", authUrl: " " } });
    expect(configError(() => resolveSettings(fromMap({ "pagerduty:accounts": accounts }), {}, "eu")).message).toMatch(
      /^"pagerduty:accounts\.eu\.authUrl" is empty/,
    );
    const pkg = {
      "pagerduty-dynamic:clientId": "c",
      "pagerduty-dynamic:clientSecret": "s",
      "pagerduty-dynamic:subdomain": "acme",
      "pagerduty-dynamic:apiUrl": "",
    };
    expect(configError(() => resolveSettings(fromMap(pkg), {}, DEFAULT_ACCOUNT, "pagerduty-dynamic")).message).toMatch(/^"pagerduty-dynamic:apiUrl" is empty/);
    // CI gives an unset variable as "": the environment's empty values are unset, as before.
    expect(resolveSettings(fromMap(creds), { PAGERDUTY_API_URL: "", PAGERDUTY_SCOPES: "" }).apiUrl).toBe("https://api.pagerduty.com");
  });

  it("never echoes a credential value in its errors", () => {
    const err = configError(() => resolveSettings(fromMap({ ...creds, "pagerduty:token": "SECRET-API-KEY" }), {}));
    expect(err.message).not.toContain("SECRET-API-KEY");
    expect(err.message).not.toContain("csecret");
  });

  it("requires https except for loopback hosts", () => {
    const insecure = configError(() => resolveSettings(fromMap({ ...creds, "pagerduty:authUrl": "http://identity.example.com/" }), {}));
    expect(insecure).toBeInstanceOf(InsecureUrlError);
    expect(insecure.message).toMatch(/"pagerduty:authUrl" must use https/);
    for (const host of ["127.0.0.1:8080", "localhost:3000", "[::1]:9000"]) {
      const s = resolveSettings(fromMap({ ...creds, "pagerduty:apiUrl": `http://${host}/api/`, "pagerduty:authUrl": `http://${host}` }), {});
      expect(s.apiUrl).toBe(`http://${host}/api`);
      expect(s.authUrl).toBe(`http://${host}`);
    }
  });

  it("keeps rotated refresh tokens under XDG_CACHE_HOME or ~/.cache", () => {
    expect(resolveSettings(fromMap(creds), { XDG_CACHE_HOME: "/tmp/xdg" }).tokenCacheDir).toBe("/tmp/xdg/pulumi-pagerduty-dynamic-tokens");
    expect(resolveSettings(fromMap(creds), { HOME: "/home/u" }).tokenCacheDir).toBe("/home/u/.cache/pulumi-pagerduty-dynamic-tokens");
  });

  it("gives the token cache a 0700 directory of its own, leaving the shared cache directory as it was", async () => {
    const home = mkdtempSync(join(tmpdir(), "ppd-cache-"));
    try {
      // Another tool's (e.g. the Pulumi CLI build's) directory next to it, world-readable.
      const shared = join(home, "pulumi-pagerduty-dynamic");
      mkdirSync(shared, { mode: 0o755 });
      chmodSync(shared, 0o755);
      const warnings: string[] = [];
      const cache = new RefreshTokenCache({ dir: resolveSettings(fromMap(creds), { XDG_CACHE_HOME: home }).tokenCacheDir, warn: (m) => warnings.push(m) });
      await cache.ensureDir();
      expect(statSync(cache.dir).mode & 0o777).toBe(0o700);
      expect(statSync(shared).mode & 0o777).toBe(0o755);
      expect(warnings).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("each door's namespace", () => {
  const pkg = { "pagerduty-dynamic:clientId": "cid", "pagerduty-dynamic:clientSecret": "csecret", "pagerduty-dynamic:subdomain": "acme" };

  test("the package's keys are read, and its messages name them; the dynamic providers' keys are not read there", () => {
    const s = resolveSettings(fromMap({ ...pkg, "pagerduty-dynamic:maxConcurrency": "4" }), {}, "default", "pagerduty-dynamic");
    expect(s).toMatchObject({ namespace: "pagerduty-dynamic", maxConcurrency: 4, credentials: { clientId: "cid" } });
    expect(() => resolveSettings(fromMap({ ...pkg, "pagerduty-dynamic:maxConcurrency": "0" }), {}, "default", "pagerduty-dynamic")).toThrow(
      /^"pagerduty-dynamic:maxConcurrency" \(env PAGERDUTY_MAX_CONCURRENCY\) must be a positive integer/,
    );
    expect(() => resolveSettings(fromMap(creds), {}, "default", "pagerduty-dynamic")).toThrow(/set "pagerduty-dynamic:clientId"/);
    const accounts = JSON.stringify({ eu: { token: "t", apiUrl: "https://x", scopes: "as_account-eu.a" } });
    expect(() => resolveSettings(fromMap({ "pagerduty-dynamic:accounts": accounts }), {}, "eu", "pagerduty-dynamic")).toThrow(
      /^"pagerduty-dynamic:accounts\.eu\.scopes" must not contain the account selector "as_account-eu\.a"; it is built from pagerduty-dynamic:accounts\.eu\.serviceRegion/,
    );
  });

  test("a setting's key, its description and where a URL came from, per account and namespace", () => {
    expect(settingKey("apiUrl")).toBe("pagerduty:apiUrl");
    expect(settingKey("apiUrl", "eu", "pagerduty-dynamic")).toBe("pagerduty-dynamic:accounts.eu.apiUrl");
    expect(describeSetting("token", "default", "pagerduty-dynamic")).toBe('"pagerduty-dynamic:token" (env PAGERDUTY_TOKEN)');
    expect(describeSetting("token", "eu")).toBe('"pagerduty:accounts.eu.token"');
    expect(settingSource("authUrl", "default", "pagerduty-dynamic")).toBe("pagerduty-dynamic:authUrl or PAGERDUTY_AUTH_URL");
    expect(settingSource("authUrl", "eu")).toBe("pagerduty:accounts.eu.authUrl");
  });
});

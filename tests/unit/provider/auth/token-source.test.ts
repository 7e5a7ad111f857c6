import { accountScope } from "../../../../provider/auth/scopes";
import { missingScopes } from "../../../../provider/http/credential";
import type { TokenSet } from "../../../../provider/auth/token-endpoint";
import { apiKeySource, RenewingTokenSource } from "../../../../provider/auth/token-source";

function fakeFetcher(lifetimeMs: number, clock: { now: number }) {
  let n = 0;
  const fetchToken = jest.fn(async (): Promise<TokenSet> => {
    n += 1;
    await new Promise((r) => setImmediate(r));
    return { accessToken: `t${n}`, expiresAt: clock.now + lifetimeMs, scopes: ["services.read"] };
  });
  return fetchToken;
}

describe("RenewingTokenSource", () => {
  it("shares one in-flight fetch among concurrent callers", async () => {
    const clock = { now: 0 };
    const fetchToken = fakeFetcher(86_400_000, clock);
    const source = new RenewingTokenSource(fetchToken, { now: () => clock.now });
    const grants = await Promise.all(Array.from({ length: 20 }, () => source.get()));
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(new Set(grants.map((g) => g.authorization))).toEqual(new Set(["Bearer t1"]));
    expect(grants[0]!.scopes).toEqual(["services.read"]);
  });

  it("renews when less than five minutes are left", async () => {
    const clock = { now: 0 };
    const fetchToken = fakeFetcher(3_600_000, clock);
    const source = new RenewingTokenSource(fetchToken, { now: () => clock.now });
    await source.get();
    clock.now = 3_600_000 - 5 * 60_000 - 1;
    expect((await source.get()).authorization).toBe("Bearer t1");
    clock.now += 2;
    expect((await source.get()).authorization).toBe("Bearer t2");
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("renews short-lived tokens at half their lifetime rather than on every call", async () => {
    const clock = { now: 0 };
    const source = new RenewingTokenSource(fakeFetcher(60_000, clock), { now: () => clock.now });
    await source.get();
    clock.now = 29_000;
    expect((await source.get()).authorization).toBe("Bearer t1");
    clock.now = 31_000;
    expect((await source.get()).authorization).toBe("Bearer t2");
  });

  it("keeps using a still-valid token when an early renewal fails", async () => {
    const clock = { now: 0 };
    const fetchToken = jest
      .fn<Promise<TokenSet>, []>()
      .mockResolvedValueOnce({ accessToken: "t1", expiresAt: 3_600_000 })
      .mockRejectedValue(new Error("identity down"));
    const source = new RenewingTokenSource(fetchToken, { now: () => clock.now });
    await source.get();
    clock.now = 3_500_000;
    expect((await source.get()).authorization).toBe("Bearer t1");
    clock.now = 3_600_000;
    await expect(source.get()).rejects.toThrow("identity down");
  });

  it("fetches again after invalidate, but only for the grant that failed", async () => {
    const clock = { now: 0 };
    const fetchToken = fakeFetcher(86_400_000, clock);
    const source = new RenewingTokenSource(fetchToken, { now: () => clock.now });
    const first = await source.get();
    source.invalidate(first);
    const second = await source.get();
    source.invalidate(first); // a late 401 for the old token must not discard the new one
    expect((await source.get()).authorization).toBe(second.authorization);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("passes a failed fetch to every waiting caller and recovers on the next call", async () => {
    const fetchToken = jest
      .fn<Promise<TokenSet>, []>()
      .mockRejectedValueOnce(new Error("refused"))
      .mockResolvedValue({ accessToken: "t2", expiresAt: Date.now() + 3_600_000 });
    const source = new RenewingTokenSource(fetchToken);
    const results = await Promise.allSettled([source.get(), source.get()]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect((await source.get()).authorization).toBe("Bearer t2");
  });
});

describe("apiKeySource", () => {
  it("sends the key as `Token token=` and has no scopes to check", async () => {
    const source = apiKeySource("key123");
    expect(source.renewable).toBe(false);
    expect(await source.get()).toEqual({ authorization: "Token token=key123" });
  });
});

describe("scopes", () => {
  it("prefixes the account selector", () => {
    expect(accountScope("eu", "acme", ["services.read", "services.write"])).toBe("as_account-eu.acme services.read services.write");
  });

  it("lists what the grant lacks, honouring classic read/write tokens", () => {
    expect(missingScopes(["openid", "services.read"], ["services.read", "services.write"])).toEqual(["services.write"]);
    expect(missingScopes(["read"], ["services.read", "services.write"])).toEqual(["services.write"]);
    expect(missingScopes(["openid", "write"], ["services.write", "audit_records.read"])).toEqual([]);
  });
});

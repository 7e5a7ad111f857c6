// account/context.ts: one context per account; nothing of one account is shared with another.
import { AccountContext } from "../../../../provider/account/context";
import { Deployment } from "../../../../provider/account/deployment";
import type { ApiClient } from "../../../../provider/http/client";
import { virtualConsistency } from "../../support/virtual-consistency";

describe("accounts", () => {
  const env = { PAGERDUTY_API_URL: "https://api.test" };
  const keyed = (token: string) => (key: string) => (key === "pagerduty:token" ? token : undefined);

  test("one context per account and credential: its own client, listings, lanes and memory", async () => {
    const deployment = new Deployment({ warn: () => undefined, env });
    deployment.configure(keyed("first"));
    const first = deployment.context();
    deployment.configure(keyed("first"));
    expect(deployment.context()).toBe(first);
    deployment.configure(keyed("second"));
    const second = deployment.context();
    expect(second).not.toBe(first);
    expect(second.client).not.toBe(first.client);
    expect(second.listings).not.toBe(first.listings);
    expect(second.lanes).not.toBe(first.lanes);
    let asked = 0;
    const learn = async () => ++asked;
    await first.once("k", learn);
    await first.once("k", learn);
    await second.once("k", learn);
    expect(asked).toBe(2);
    await deployment.reset();
  });

  test("what an account failed to learn is asked again", async () => {
    const ctx = new AccountContext({ client: { missingScopes: async () => [] } as unknown as ApiClient, consistency: virtualConsistency().consistency });
    await expect(ctx.once("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    await expect(ctx.once("k", async () => 7)).resolves.toBe(7);
  });

  test("the stack named at configure reaches every account's context", async () => {
    const deployment = new Deployment({ warn: () => undefined, env, exporter: async () => ({ version: 3, deployment: {} }) });
    deployment.configure(keyed("first"));
    const ctx = deployment.context();
    expect(ctx.stack).toBeUndefined();
    deployment.configure(keyed("first"), "org/project/dev");
    await expect(ctx.stack?.name()).resolves.toBe("org/project/dev");
    await deployment.reset();
  });
});

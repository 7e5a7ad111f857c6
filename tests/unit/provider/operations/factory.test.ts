// operations/factory.ts: what every resource gets from its definition.
import { z } from "zod";
import { AccountContext } from "../../../../provider/account/context";
import { ApiError } from "../../../../provider/errors";
import type { ApiClient } from "../../../../provider/http/client";
import { defineResource } from "../../../../provider/kernel/define";
import { makeProvider, type Resource } from "../../../../provider/operations/factory";
import { virtualConsistency } from "../../support/virtual-consistency";

describe("factory", () => {
  const notFound = () => new ApiError({ method: "GET", path: "/x", status: 404, errors: [], response: { status: 404, headers: {}, body: null } });
  const calls: string[] = [];
  const fake: Resource = {
    definition: defineResource({
      kind: "Thing",
      description: "a test resource",
      notes: "",
      inputs: z.object({ name: z.string().min(1, "must not be empty"), size: z.number().optional(), adoptId: z.string().optional() }),
      outputs: z.object({ name: z.string(), size: z.number() }),
      replaceOn: ["name"],
      diffIgnore: ["adoptId"],
      creates: false,
    }),
    subject: (id) => `thing ${id}`,
    verify: async (_ctx, news) => (news.size === 13 ? [{ property: "", reason: "size: unlucky" }] : []),
    adopt: async (_ctx, id) => {
      calls.push(`adopt ${id}`);
      return { id, outs: {} };
    },
    create: async () => {
      calls.push("create");
      return { id: "T1", outs: {} };
    },
    read: async () => {
      calls.push("read");
      throw notFound();
    },
    update: async () => {
      throw notFound();
    },
    delete: async () => {
      calls.push("delete");
      throw notFound();
    },
  };
  const lag = virtualConsistency();
  const ctx = new AccountContext({ client: { missingScopes: async () => [] } as unknown as ApiClient, consistency: lag.consistency });
  const p = makeProvider(fake, () => ctx);

  test("check: the schema, then the resource's own verification, naming the field", async () => {
    await expect(p.check({}, { name: "" })).resolves.toMatchObject({ failures: [{ property: "", reason: "name: must not be empty" }] });
    await expect(p.check({}, { name: "a", size: 13 })).resolves.toMatchObject({ failures: [{ reason: "size: unlucky" }] });
    await expect(p.check({}, { name: "a", size: 1 })).resolves.not.toHaveProperty("failures");
    await expect(p.check({}, { name: "a", __conflict: "two resources take this name" })).resolves.toEqual({
      failures: [{ property: "", reason: "two resources take this name" }],
    });
  });

  test("diff: managed fields only, replacing on the definition's fields", async () => {
    await expect(p.diff("T1", { name: "a", size: 3 }, { name: "a" })).resolves.toMatchObject({ changes: false });
    await expect(p.diff("T1", { name: "a", size: 3 }, { name: "b" })).resolves.toMatchObject({ changes: true, replaces: ["name"] });
  });

  test("create: an adoption id takes over the object instead of creating one", async () => {
    calls.length = 0;
    // The outputs record what the program declared (kernel/declared.ts); adoptId, which no output mirrors, by value.
    await expect(p.create({ name: "a", adoptId: "T9" })).resolves.toEqual({ id: "T9", outs: { __declared: "name,adoptId", adoptId: "T9" } });
    await expect(p.create({ name: "a" })).resolves.toEqual({ id: "T1", outs: { __declared: "name" } });
    expect(calls).toEqual(["adopt T9", "create"]);
    calls.length = 0;
  });

  test("404 after a second look: a read is gone, a delete is done, an update names the object and the way out", async () => {
    lag.waits.length = 0;
    await expect(p.read("T1", { name: "a" })).resolves.toEqual({ id: "", props: {} });
    await expect(p.delete("T1", { name: "a" })).resolves.toBeUndefined();
    await expect(p.update("T1", { name: "a" }, { name: "a", size: 2 })).rejects.toThrow(
      /^thing T1 is gone: it was deleted outside Pulumi .*Run "pulumi refresh"/,
    );
    // Of unknown age: two more looks, 1 s and 2 s apart, before a 404 is believed.
    expect(calls).toEqual(["read", "read", "read", "delete", "delete", "delete"]);
    expect(lag.waits).toEqual([1000, 2000, 1000, 2000, 1000, 2000]);
  });

  test("404 of an object made moments ago (its state's stamp) is asked again until the window has passed", async () => {
    calls.length = 0;
    lag.waits.length = 0;
    const made = lag.consistency.now() - 10_000;
    await expect(p.read("T1", { name: "a", __createdAt: made })).resolves.toEqual({ id: "", props: {} });
    const total = lag.waits.reduce((a, b) => a + b, 0);
    // Asked until the 120 s window since its create had passed (110 s from now), then the two second looks.
    expect(total).toBeGreaterThan(110_000 - 100);
    expect(total).toBeLessThanOrEqual(110_000 + 3_000);
    expect(lag.waits[0]).toBe(250);
    expect(Math.max(...lag.waits)).toBe(5_000);
  });
});

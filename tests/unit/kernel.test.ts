// The registry, the provider factory and the account contexts: what every resource gets from its
// definition, and that nothing of one account is shared with another.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { resource as providerOf } from "../../provider";
import { AccountContext } from "../../provider/account/context";
import { Deployment } from "../../provider/account/deployment";
import { RECOVERABLE } from "../../provider/cli/recover";
import { ApiError } from "../../provider/errors";
import type { ApiClient } from "../../provider/http/client";
import { defineResource } from "../../provider/kernel/define";
import { serverMaintained } from "../../provider/kernel/drift";
import { makeProvider, type Resource } from "../../provider/engine/factory";
import { CREATED_KINDS, createdKindOf, DEFINITIONS, RESOURCES } from "../../provider/registry";
import { virtualConsistency } from "./virtual-consistency";

describe("registry", () => {
  test("the kinds that create remote objects are read off the definitions", () => {
    expect(CREATED_KINDS).toEqual(DEFINITIONS.filter((d) => d.origin).map((d) => d.kind));
    expect(CREATED_KINDS).toEqual(["Service", "ServiceIntegration", "ServiceEventRule"]);
    expect(createdKindOf("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration")).toBe("ServiceIntegration");
    expect(createdKindOf("pulumi-nodejs:dynamic/pagerduty:ServiceEnablement")).toBeUndefined();
    expect(Object.values(RECOVERABLE)).toEqual(CREATED_KINDS);
  });

  test("every module in provider/resources is a registered resource (or the lookups, the API's paths and scopes, the audit-record search)", () => {
    const dir = path.join(__dirname, "../../provider/resources");
    const modules = fs.readdirSync(dir).map((f) => f.replace(/\.ts$/, ""));
    const registered = Object.keys(RESOURCES).map((k) => k.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase()));
    expect(modules.filter((m) => !m.startsWith("lookup") && m !== "api-paths" && m !== "audit-records").sort()).toEqual(registered.sort());
  });

  test("resource modules keep no state of their own: no module-level let, Map, Set or WeakMap", () => {
    const dir = path.join(__dirname, "../../provider/resources");
    for (const f of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
      expect({ f, found: text.match(/^(let |(export )?const \w+(: [^=]+)? = new (Map|Set|WeakMap)\b)/m)?.[0] }).toEqual({ f, found: undefined });
    }
  });

  test("server-maintained outputs are the outputs that are not inputs", () => {
    const service = serverMaintained(RESOURCES.Service.definition);
    expect([...service].sort()).toEqual(["createdAt", "htmlUrl", "lastIncidentTimestamp", "summary"]);
    expect(serverMaintained(RESOURCES.ServiceIntegration.definition).has("integrationKey")).toBe(true);
  });

  test("the entry point builds one provider per kind and names an unknown kind", () => {
    expect(providerOf("Service")).toBe(providerOf("Service"));
    expect(providerOf("Lookup")).toBeDefined();
    expect(() => providerOf("Pager")).toThrow(/unknown resource kind "Pager": the installed pulumi-pagerduty-dynamic is older than the program's/);
  });
});

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
      origin: false,
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
  const ctx = new AccountContext({ client: {} as ApiClient, consistency: lag.consistency });
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
    await expect(p.create({ name: "a", adoptId: "T9" })).resolves.toEqual({ id: "T9", outs: { __declared: { name: true, adoptId: true }, adoptId: "T9" } });
    await expect(p.create({ name: "a" })).resolves.toEqual({ id: "T1", outs: { __declared: { name: true } } });
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
    const ctx = new AccountContext({ client: {} as ApiClient, consistency: virtualConsistency().consistency });
    await expect(ctx.once("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    await expect(ctx.once("k", async () => 7)).resolves.toBe(7);
  });

  test("the stack named at configure reaches every account's context", async () => {
    const deployment = new Deployment({ warn: () => undefined, env, exporter: async () => ({ version: 3, deployment: {} }) });
    deployment.configure(keyed("first"));
    const ctx = deployment.context();
    expect(ctx.stack).toBeUndefined();
    deployment.configure(keyed("first"), "org/project/dev");
    expect(ctx.stack?.stack).toBe("org/project/dev");
    await deployment.reset();
  });
});

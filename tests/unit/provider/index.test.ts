// What each resource's `__provider` holds (issues 30 and 38): one line requiring the providers
// module, loaded by the dynamic-provider host's own loader in the two layouts a program meets (the
// package installed under node_modules, and linked from elsewhere: an npm workspace). And the
// stack's name, which the program sends with `__origin` and check takes off.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { deployment, providerOf, resource } from "../../../provider";
import { namingStack, splitOrigin } from "../../../provider/host/origin-stack";
import { upgradingProvider } from "../../../provider/host/provider-upgrade";
import { originOf } from "../../../sdk/origin";
import { RESOURCES } from "../../../provider/registry";
import { moduleOf } from "../../../scripts/generate-sdk";
import { providerSource } from "../../../sdk/provider";
import { ROOT } from "../../../scripts/repo-root";

/** Every registered kind and the lookups, to the file name of its module in sdk/providers. */
const KIND_FILES: Record<string, string> = Object.fromEntries([...Object.keys(RESOURCES), "Lookup"].map((k) => [k, moduleOf(k)]));

/** A project directory whose node_modules holds the built package: copied, or linked to the clone. */
function project(layout: "installed" | "linked"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ppd-entry-${layout}-`));
  const pkg = path.join(dir, "node_modules", "pulumi-pagerduty-dynamic");
  fs.mkdirSync(path.dirname(pkg), { recursive: true });
  if (layout === "linked") fs.symlinkSync(ROOT, pkg);
  else {
    fs.mkdirSync(pkg);
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(pkg, "package.json"));
    fs.cpSync(path.join(ROOT, "dist", "sdk"), path.join(pkg, "dist", "sdk"), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, "node_modules", "@pulumi"), path.join(dir, "node_modules", "@pulumi"));
  return dir;
}

/**
 * In a child process run in `dir`: each kind's `__provider` as the SDK writes it, loaded back the
 * way the dynamic-provider host does (its own loader, from the project directory).
 */
function loadIn(dir: string): Record<string, { text: string; sameObject: boolean; methods: string[] }> {
  const script = `
    const { createRequire } = require("node:module");
    const req = createRequire(process.cwd() + "/");
    const requireFromString = createRequire(req.resolve("@pulumi/pulumi/package.json"))("require-from-string");
    const { providerFor, providerSource } = req("pulumi-pagerduty-dynamic/dist/sdk/provider.js");
    const out = {};
    for (const kind of ${JSON.stringify(Object.keys(KIND_FILES))}) {
      const text = providerSource(kind);
      const loaded = requireFromString(text).handler();
      out[kind] = { text, sameObject: loaded === providerFor(kind), methods: Object.keys(loaded).sort() };
    }
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const METHODS = ["check", "configure", "create", "delete", "diff", "read", "update"];

describe("the written provider", () => {
  test.each(["installed", "linked"] as const)(
    "%s: one require of the providers module per kind, about 100 bytes in state, loading the kind's module",
    (layout) => {
      const found = loadIn(project(layout));
      for (const kind of Object.keys(KIND_FILES)) {
        const { text, sameObject, methods } = found[kind];
        expect(text).toBe(`exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").${kind}`);
        // As the state stores it: a JSON string; 103 bytes for the longest kind name, ServiceOrchestrationCacheVariable.
        expect(JSON.stringify(text).length).toBeLessThanOrEqual(110);
        expect(sameObject).toBe(true);
        expect(methods).toEqual(METHODS);
      }
    },
  );

  test("the kinds' own modules, which earlier state names, still load the same objects", () => {
    const dir = project("installed");
    const script = `
      const req = require("node:module").createRequire(process.cwd() + "/");
      const all = req("pulumi-pagerduty-dynamic/providers");
      const files = ${JSON.stringify(KIND_FILES)};
      console.log(Object.entries(files).every(([k, f]) => req("pulumi-pagerduty-dynamic/dist/sdk/providers/" + f + ".js") === all[k]));`;
    const r = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("true");
  });

  test("an unknown kind is refused", () => {
    expect(() => providerSource("Nope")).toThrow('no provider module for resource kind "Nope"');
  });
});

test("the old name resource(kind), which providers serialized by earlier versions call, still answers as providerOf", async () => {
  // As earlier state calls it: the installed package's entry, loaded from the project directory.
  const script = `
    const entry = require("node:module").createRequire(process.cwd() + "/")("pulumi-pagerduty-dynamic/dist/provider");
    console.log(JSON.stringify([typeof entry.resource, entry.resource === entry.providerOf, entry.resource("Service") === entry.providerOf("Service")]));`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: project("linked"), encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toEqual(["function", true, true]);
  await deployment.reset();
  // Invalid inputs: check answers without any account or request.
  const checked = await resource("ServiceEnablement").check!({}, { service: "", feature: "aiops", enabled: true });
  expect(checked.failures?.map((f) => f.reason)).toEqual([expect.stringMatching(/^service: /)]);
  expect(() => resource("Pager")).toThrow(/unknown resource kind "Pager"/);
  await deployment.reset();
});

test("the installed entry is the bundle's door: one compiled file, no module of the door loaded beside it", () => {
  const script = `
    const entry = require("node:module").createRequire(process.cwd() + "/")("pulumi-pagerduty-dynamic/dist/provider");
    entry.providerOf("Service");
    const loaded = Object.keys(require.cache).map((f) => f.replace(/.*\\/dist\\//, "dist/")).filter((f) => f.startsWith("dist/"));
    console.log(JSON.stringify(loaded.sort()));`;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: project("linked"), encoding: "utf8" });
  expect(r.stderr).toBe("");
  // The entry, its loader, the code cache's, and the bundle: every kind and the door are inside it.
  expect(JSON.parse(r.stdout)).toEqual([
    "dist/bundle/provider.js",
    "dist/provider/bundled.js",
    "dist/provider/fs/durable-file.js",
    "dist/provider/host/code-cache.js",
    "dist/provider/index.js",
  ]);
});

describe("the stack's name, sent with __origin", () => {
  test("splitOrigin takes the name off and leaves the hash", () => {
    const news = { name: "x", __origin: "0123456789abcdef0123456789abcdef@acme/proj/dev" };
    expect(splitOrigin(news)).toEqual({ news: { name: "x", __origin: "0123456789abcdef0123456789abcdef" }, stack: "acme/proj/dev" });
    // Older programs send the hash alone; kinds that create no object send none.
    expect(splitOrigin({ __origin: "0123" })).toEqual({ news: { __origin: "0123" } });
    expect(splitOrigin({ name: "y" })).toEqual({ news: { name: "y" } });
    expect(splitOrigin(undefined)).toEqual({ news: undefined });
  });

  test("namingStack names the stack before check runs, and check sees the hash alone", async () => {
    const named: string[] = [];
    const seen: unknown[] = [];
    const p = namingStack(
      {
        create: async () => ({ id: "x" }),
        check: async (_o: unknown, n: unknown) => {
          seen.push(n);
          return { inputs: n };
        },
      },
      (s) => named.push(s),
    );
    const r = await p.check!({}, { __origin: "ab@o/p/s", a: 1 });
    expect(named).toEqual(["o/p/s"]);
    expect(seen).toEqual([{ __origin: "ab", a: 1 }]);
    expect(r.inputs).toEqual({ __origin: "ab", a: 1 });
  });

  test("the entry point's check names the deployment's stack; the checked inputs keep the hash only", async () => {
    await deployment.reset();
    // Invalid inputs: check answers without any account or request.
    const r = await providerOf("ServiceEnablement").check!({}, { service: "", feature: "aiops", enabled: true, __origin: "ab@acme/proj/dev" });
    expect(r.failures?.length).toBeGreaterThan(0);
    expect(r.inputs?.__origin).toBe("ab");
    await expect(deployment.stack?.name()).resolves.toBe("acme/proj/dev");
    // The first name wins: one process serves one deployment.
    await providerOf("ServiceEnablement").check!({}, { service: "", __origin: "cd@other/proj/dev" });
    await expect(deployment.stack?.name()).resolves.toBe("acme/proj/dev");
    await deployment.reset();
  });

  test("originOf appends the fully qualified stack inside a Pulumi run", async () => {
    await pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs }, "proj", "dev", false, "acme");
    const value = await new Promise<string>((resolve) =>
      originOf("Service", "web").apply((v) => {
        resolve(v);
        return v;
      }),
    );
    expect(value).toMatch(/^[0-9a-f]{32}@acme\/proj\/dev$/);
  });
});

describe("state written with an earlier __provider", () => {
  const OLD = "exports.handler = __f0; /* 2.5 KB of an earlier version */";
  const NEW = 'exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").Service';

  function fake() {
    const calls: string[] = [];
    const inner: dynamic.ResourceProvider = {
      create: async () => ({ id: "x" }),
      diff: async (_id: string, olds: any, news: any) => ({ changes: olds.name !== news.name }),
      update: async (id: string, _olds: any, _news: any) => {
        calls.push(`update ${id}`);
        return { outs: { name: "from the API" } };
      },
    };
    return { calls, p: upgradingProvider(inner) };
  }

  test("a stale __provider alone is an update that returns the outputs as they are, without calling the resource's update", async () => {
    const { calls, p } = fake();
    const olds = { name: "a", htmlUrl: "u", __provider: OLD };
    const news = { name: "a", __provider: NEW };
    expect(await p.diff!("P1", olds, news)).toEqual({ changes: true });
    expect(await p.update!("P1", olds, news)).toEqual({ outs: olds });
    expect(calls).toEqual([]);
    // Reported once: a second update of the same resource is a real one.
    expect(await p.update!("P1", olds, news)).toEqual({ outs: { name: "from the API" } });
    expect(calls).toEqual(["update P1"]);
  });

  test("a user change still goes to the resource's update; an unchanged __provider is no change", async () => {
    const { calls, p } = fake();
    expect(await p.diff!("P1", { name: "a", __provider: OLD }, { name: "b", __provider: NEW })).toEqual({ changes: true });
    await p.update!("P1", { name: "a", __provider: OLD }, { name: "b", __provider: NEW });
    expect(calls).toEqual(["update P1"]);
    expect(await p.diff!("P2", { name: "a", __provider: NEW }, { name: "a", __provider: NEW })).toEqual({ changes: false });
  });

  test("the same id in two accounts is told apart", async () => {
    const { calls, p } = fake();
    await p.diff!("P1", { name: "a", account: "eu", __provider: OLD }, { name: "a", account: "eu", __provider: NEW });
    await p.update!("P1", { name: "a", __provider: OLD }, { name: "a", __provider: NEW });
    expect(calls).toEqual(["update P1"]);
  });
});

import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { codeCacheFile, requireWithCodeCache } from "../../../../provider/host/code-cache";

/** Node's own cache of modules, which the loader uses (jest's `require` keeps its own). */
const modules = (Module as unknown as { _cache: Record<string, { exports: unknown } | undefined> })._cache;

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-code-cache-"));
  env = { HOME: dir, XDG_CACHE_HOME: "" };
});

afterEach(() => {
  for (const file of Object.keys(modules)) if (file.startsWith(dir)) delete modules[file];
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A module with a require of its own (relative to it), a function to run and its own file name. */
function writeModule(name: string, body = "") {
  const file = path.join(dir, name);
  fs.writeFileSync(path.join(dir, "helper.js"), "exports.twice = (n) => n * 2;");
  fs.writeFileSync(file, `const { twice } = require("./helper");\nexports.file = __filename;\nexports.f = (n) => twice(n) + 1;\n${body}`);
  return file;
}

/** Loads `file` as a new process would: nothing of it in require's cache. */
function freshLoad(file: string) {
  delete modules[file];
  return requireWithCodeCache(file, env);
}

test("the first load compiles and writes the cache; the next one runs from it, with the same behaviour", async () => {
  const file = writeModule("bundle.js");
  const first = freshLoad(file);
  expect(first.cacheUsed).toBe(false);
  await first.written;
  const cacheFile = codeCacheFile(file, fs.statSync(file), env);
  expect(cacheFile.startsWith(path.join(dir, ".cache", "pulumi-pagerduty-dynamic", "code-cache"))).toBe(true);
  expect(fs.statSync(cacheFile).size).toBeGreaterThan(0);
  // Private to the user, as the package's other cache files.
  expect(fs.statSync(path.dirname(cacheFile)).mode & 0o777).toBe(0o700);
  expect(fs.statSync(cacheFile).mode & 0o777).toBe(0o600);

  const second = freshLoad(file);
  expect(second.cacheUsed).toBe(true);
  expect(second.written).toBeUndefined();
  const m = second.exports as { file: string; f(n: number): number };
  expect(m.file).toBe(file);
  expect(m.f(20)).toBe(41);
});

test("a module loaded already is the same object, as Node's require gives it", () => {
  const file = writeModule("once.js");
  const a = freshLoad(file);
  const b = requireWithCodeCache(file, env);
  expect(b.exports).toBe(a.exports);
  expect(modules[file]?.exports).toBe(a.exports);
});

test("a changed file gets a cache of its own, which replaces the earlier one", async () => {
  const file = writeModule("changing.js");
  await freshLoad(file).written;
  const before = codeCacheFile(file, fs.statSync(file), env);
  writeModule("changing.js", "exports.more = true;\n");
  const after = codeCacheFile(file, fs.statSync(file), env);
  expect(after).not.toBe(before);
  const changed = freshLoad(file);
  expect(changed.cacheUsed).toBe(false);
  expect((changed.exports as { more?: boolean }).more).toBe(true);
  await changed.written;
  expect(fs.existsSync(after)).toBe(true);
  // The earlier build's cache goes; another file's stays.
  expect(fs.existsSync(before)).toBe(false);
  const other = writeModule("other.js");
  await freshLoad(other).written;
  expect(fs.readdirSync(path.dirname(after)).sort()).toEqual([path.basename(after), path.basename(codeCacheFile(other, fs.statSync(other), env))].sort());
});

// V8 keeps what one process compiled in memory, so whether a cache on disk is taken, or refused,
// shows only in a new process: the built loader, as the plugin and the dynamic providers run it.
describe("in a new process, as each plugin or provider process starts", () => {
  const built = path.join(__dirname, "../../../../dist/provider/host/code-cache.js");
  const load = (file: string, after = "") => {
    const script = `const r = require(${JSON.stringify(built)}).requireWithCodeCache(${JSON.stringify(file)});
      ${after}
      Promise.resolve(r.written).then(() => console.log(JSON.stringify({ cacheUsed: r.cacheUsed, wrote: Boolean(r.written), f: r.exports.f(20) })));`;
    const out = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(out.stderr).toBe("");
    return JSON.parse(out.stdout) as { cacheUsed: boolean; wrote: boolean; f: number };
  };

  test("the first compiles and writes the cache, the next runs from it", () => {
    const file = writeModule("fresh.js");
    expect(load(file)).toEqual({ cacheUsed: false, wrote: true, f: 41 });
    expect(load(file)).toEqual({ cacheUsed: true, wrote: false, f: 41 });
  });

  test("a process that changes a V8 flag once loaded (as the plugin does) still leaves a cache the next one takes", () => {
    const file = writeModule("flags.js");
    expect(load(file, 'require("node:v8").setFlagsFromString("--liftoff-only");')).toEqual({ cacheUsed: false, wrote: true, f: 41 });
    expect(load(file)).toEqual({ cacheUsed: true, wrote: false, f: 41 });
  });

  test("a damaged cache is refused, costs one compile, and is written again", () => {
    const file = writeModule("damaged.js");
    expect(load(file).cacheUsed).toBe(false);
    const cacheFile = codeCacheFile(file, fs.statSync(file), env);
    fs.writeFileSync(cacheFile, "not a code cache");
    expect(load(file)).toEqual({ cacheUsed: false, wrote: true, f: 41 });
    expect(fs.readFileSync(cacheFile, "utf8")).not.toBe("not a code cache");
    expect(load(file)).toEqual({ cacheUsed: true, wrote: false, f: 41 });
  });
});

test("a module that throws is not left in require's cache, and a cache that cannot be written is no failure", async () => {
  const file = path.join(dir, "throws.js");
  fs.writeFileSync(file, "throw new Error('broken module');");
  expect(() => freshLoad(file)).toThrow("broken module");
  expect(modules[file]).toBeUndefined();

  // The cache directory's place is a file: nothing can be written there.
  fs.mkdirSync(path.join(dir, ".cache", "pulumi-pagerduty-dynamic"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".cache", "pulumi-pagerduty-dynamic", "code-cache"), "");
  const ok = writeModule("uncached.js");
  const loaded = freshLoad(ok);
  await expect(loaded.written).resolves.toBeUndefined();
  expect((loaded.exports as { f(n: number): number }).f(2)).toBe(5);
  expect(freshLoad(ok).cacheUsed).toBe(false);
});

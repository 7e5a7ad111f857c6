import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compileCacheDir } from "../../../../provider/host/code-cache";

// Node's compile cache is the process's: whether a module was compiled from it, or its cache
// refused, shows only in a new process. The built helpers, as the plugin and the dynamic providers
// run them; Node says what its cache did with NODE_DEBUG_NATIVE=COMPILE_CACHE.
const built = path.join(__dirname, "../../../../dist/provider/host/code-cache.js");

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-code-cache-"));
  env = { HOME: dir, XDG_CACHE_HOME: "" };
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A module with a require of its own (relative to it) and a function to run. */
function writeModule(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(path.join(dir, "helper.js"), "exports.twice = (n) => n * 2;");
  fs.writeFileSync(file, `const { twice } = require("./helper");\nexports.f = (n) => twice(n) + 1;\n`);
  return file;
}

/** A new process that turns the cache on, loads `file`, runs `after`, and saves the cache. */
function load(file: string, after = "", extraEnv: NodeJS.ProcessEnv = {}) {
  const script = `const c = require(${JSON.stringify(built)});
    const on = c.enableCompileCache();
    const m = require(${JSON.stringify(file)});
    ${after}
    c.saveCompileCache().then(() => console.log(JSON.stringify({ on, f: m.f(20) })));`;
  const { NODE_COMPILE_CACHE: _c, NODE_DISABLE_COMPILE_CACHE: _d, ...inherited } = process.env;
  const out = spawnSync(process.execPath, ["-e", script], { env: { ...inherited, ...env, NODE_DEBUG_NATIVE: "COMPILE_CACHE", ...extraEnv }, encoding: "utf8" });
  expect(out.status).toBe(0);
  const said = (what: string) => out.stderr.split("\n").some((l) => l.includes(file) && l.includes(what));
  return { ...(JSON.parse(out.stdout) as { on: boolean; f: number }), accepted: said("was accepted"), wrote: said("writing cache") };
}

test("the first process compiles and writes the cache, private to the user; the next runs from it", () => {
  const file = writeModule("bundle.js");
  expect(load(file)).toEqual({ on: true, f: 41, accepted: false, wrote: true });
  const root = compileCacheDir(env);
  expect(root).toBe(path.join(dir, ".cache", "pulumi-pagerduty-dynamic", "compile-cache"));
  expect(fs.statSync(root).mode & 0o777).toBe(0o700);
  const entries = fs.readdirSync(root).flatMap((d) => fs.readdirSync(path.join(root, d)).map((f) => path.join(root, d, f)));
  expect(entries.length).toBeGreaterThan(0);
  for (const f of entries) expect(fs.statSync(f).mode & 0o777).toBe(0o600);

  expect(load(file)).toEqual({ on: true, f: 41, accepted: true, wrote: false });
});

test("a process that changes a V8 flag once loaded (as the plugin does) still leaves a cache the next one takes", () => {
  const file = writeModule("flags.js");
  expect(load(file, 'require("node:v8").setFlagsFromString("--liftoff-only");').accepted).toBe(false);
  expect(load(file).accepted).toBe(true);
});

test("a changed module is compiled again, and runs as changed", () => {
  const file = writeModule("changing.js");
  load(file);
  fs.appendFileSync(file, "exports.f = (n) => n;\n");
  expect(load(file)).toEqual({ on: true, f: 20, accepted: false, wrote: true });
  expect(load(file)).toEqual({ on: true, f: 20, accepted: true, wrote: false });
});

test("the user's own cache directory (NODE_COMPILE_CACHE) stays theirs", () => {
  const file = writeModule("theirs.js");
  const theirs = path.join(dir, "theirs");
  expect(load(file, "", { NODE_COMPILE_CACHE: theirs }).on).toBe(true);
  expect(fs.readdirSync(theirs).length).toBeGreaterThan(0);
  expect(fs.existsSync(compileCacheDir(env))).toBe(false);
});

test("a cache directory that cannot be made leaves the process uncached and working", () => {
  const file = writeModule("uncached.js");
  // The package's cache directory is a file: nothing can be made under it.
  fs.mkdirSync(path.join(dir, ".cache"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".cache", "pulumi-pagerduty-dynamic"), "");
  expect(load(file)).toEqual({ on: false, f: 41, accepted: false, wrote: false });
});

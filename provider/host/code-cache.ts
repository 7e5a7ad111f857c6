// Loads one large CommonJS file (the bundle of the provider's modules, dist/bundle/provider.js) with
// a V8 code cache, so a process compiles it once per machine instead of at every start. Node 20 has
// no module compile cache of its own (module.enableCompileCache came with 22.1), and a plugin or a
// dynamic-provider process starts at every `pulumi` command: compiling the provider was most of the
// time its first call took (docs/benchmarks.md, "Small stacks").
// The cache lives in the package's cache directory, one file per Node version, architecture and
// bundle (path, size, modification time), a new build's replacing the last one's. V8 checks the
// rest itself (its version, its flags, the source's length) and rejects a cache that does not fit,
// which then costs one compile and is written again. Nothing in it is secret: it is the compiled
// code, made before any call runs.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { cacheRoot, writeFileDurably } from "../fs/durable-file";

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * Where the code cache of `file` (with its stat) is kept: `<where>-<which>.bin`, where names the
 * file and the Node that compiled it, which its size and modification time. One per place and Node:
 * writing a new one removes the ones an earlier build of the same file left.
 */
export function codeCacheFile(file: string, stat: fs.Stats, env: NodeJS.ProcessEnv = process.env): string {
  const where = hash(`${process.version}\0${process.arch}\0${file}`);
  return path.join(cacheRoot(env), "code-cache", `${where}-${hash(`${stat.size}\0${stat.mtimeMs}`)}.bin`);
}

/** Removes the caches earlier builds of the same file left beside `cacheFile`. */
async function removeOlder(cacheFile: string): Promise<void> {
  const dir = path.dirname(cacheFile);
  const where = path.basename(cacheFile).split("-")[0];
  for (const name of await fs.promises.readdir(dir))
    if (name.startsWith(`${where}-`) && name.endsWith(".bin") && name !== path.basename(cacheFile)) await fs.promises.rm(path.join(dir, name), { force: true });
}

/** What loading found: whether the cache was used, and the write of a new one when it was not (tests await it). */
export interface CachedLoad {
  exports: unknown;
  cacheUsed: boolean;
  written?: Promise<void>;
}

/**
 * Requires `file` as Node would (its own module object, registered in require's cache, `require`
 * relative to it), compiled from the code cache when there is one that fits. A missing, unreadable or
 * rejected cache only costs the compile; the new cache is made once the file has run and written
 * off the caller's path, and a failure to write it is ignored (a read-only home keeps working, uncached).
 */
export function requireWithCodeCache(file: string, env: NodeJS.ProcessEnv = process.env): CachedLoad {
  // Node's own cache of modules (a test runner's `require.cache` may be its own).
  const modules = (Module as unknown as { _cache: Record<string, Module | undefined> })._cache;
  const cached = modules[file];
  if (cached) return { exports: cached.exports, cacheUsed: true };
  const source = fs.readFileSync(file, "utf8");
  const cacheFile = codeCacheFile(file, fs.statSync(file), env);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  modules[file] = mod;
  try {
    (script.runInThisContext() as (...a: unknown[]) => void).call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    delete modules[file];
    throw e;
  }
  mod.loaded = true;
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheUsed) return { exports: mod.exports, cacheUsed };
  // Made now, not when written: V8 stamps a cache with its flags, and the process may change one
  // later (the plugin does), which would make every next process refuse it.
  const data = script.createCachedData();
  const written = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    try {
      await fs.promises.mkdir(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      await writeFileDurably(cacheFile, data, 0o600, { flush: false });
      await removeOlder(cacheFile);
    } catch {
      // uncached next time too; nothing else depends on it
    }
  });
  return { exports: mod.exports, cacheUsed, written };
}

// Node's module compile cache (module.enableCompileCache, Node >= 22.1) for the processes the
// package's code runs in: a plugin or a dynamic-provider process starts at every `pulumi` command,
// and compiling its modules (the plugin's gRPC server and the SDK's protos before its port, the
// provider's bundle at its first call) was most of that start (docs/benchmarks.md, "Small stacks").
// Node checks each entry against its source and V8 against its version and flags, so a changed file
// or another Node costs one compile. The cache is the compiled code, made before any call runs:
// nothing in it is secret; it is kept private to the user all the same, as the package's other caches.
import * as fs from "node:fs";
import { constants, enableCompileCache as enableNodeCompileCache, flushCompileCache, getCompileCacheDir } from "node:module";
import * as path from "node:path";
import { cacheRoot } from "../fs/durable-file";

/** Where the compile cache is kept: `<cache root>/compile-cache`, which Node divides by its version and architecture. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), "compile-cache");
}

/**
 * Turns Node's compile cache on for every module the process loads from now on, in the package's
 * cache directory, unless it has one already (NODE_COMPILE_CACHE: the user's stays) or cannot
 * (NODE_DISABLE_COMPILE_CACHE, a directory it cannot make: it runs uncached). Whether a cache is on.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): boolean {
  if (getCompileCacheDir()) return true;
  const dir = compileCacheDir(env);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  const { status } = enableNodeCompileCache(dir);
  return status === constants.compileCacheStatus.ENABLED;
}

/**
 * Writes what the process compiled so far, once the caller's turn of the event loop is done (the
 * write is synchronous). Node writes it only at a normal exit, and the engine ends these processes
 * with a signal. Entries already on disk are not written again. A failure leaves the next process
 * uncached, nothing else.
 */
export function saveCompileCache(): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      try {
        flushCompileCache();
      } catch {
        // uncached next time; nothing else depends on it
      }
      resolve();
    }),
  );
}

// Both doors' entries as a process loads them: from the bundle (dist/bundle/provider.js, whose entry
// is plugin/bundle-entry.ts), compiled from this machine's compile cache (host/code-cache.ts), where
// the package was built; from the modules themselves where it was not (the sources under ts-jest).
// One file instead of about 150 spares the resolving, reading and compiling of each at every start
// of a plugin or a dynamic-provider process: the time a small stack's commands spend before their
// first call (docs/benchmarks.md, "Small stacks"). A process takes a door from one or the other,
// never both: their classes are not the same objects.
import * as fs from "node:fs";
import * as path from "node:path";
import { enableCompileCache, saveCompileCache } from "./host/code-cache";

/** dist/provider/bundled.js -> dist/bundle/provider.js. */
export const BUNDLE = path.join(__dirname, "..", "bundle", "provider.js");

let bundle: { doors: Record<string, unknown> } | null | undefined;

/**
 * The bundle, compiled from the cache. In the dynamic-provider process (Pulumi's, shared with other
 * dynamic providers) the cache is turned on here, for what loads from now on; the plugin turned it
 * on at its start (plugin/main.ts), and Node keeps the first.
 */
function loadBundle(): { doors: Record<string, unknown> } | null {
  if (!fs.existsSync(BUNDLE)) return null;
  const cached = enableCompileCache();
  const loaded = require(BUNDLE) as { doors: Record<string, unknown> };
  if (cached) void saveCompileCache();
  return loaded;
}

/** What the bundle's entry exports as `name` ("dynamic", "plugin", "errors"), or `unbundled()` where there is no bundle. */
export function fromBundle<T>(name: string, unbundled: () => T): T {
  bundle ??= loadBundle();
  return bundle ? (bundle.doors[name] as T) : unbundled();
}

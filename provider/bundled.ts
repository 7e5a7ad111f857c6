// Both doors' entries as a process loads them: from the bundle (dist/bundle/provider.js, whose entry
// is plugin/bundle-entry.ts), compiled from this machine's code cache, where the package was built;
// from the modules themselves where it was not (the sources under ts-jest). One file instead of
// about 150 spares the resolving, reading and compiling of each at every start of a plugin or a
// dynamic-provider process: the time a small stack's commands spend before their first call
// (docs/benchmarks.md, "Small stacks"). A process takes a door from one or the other, never both:
// their classes are not the same objects.
import * as fs from "node:fs";
import * as path from "node:path";
import { requireWithCodeCache } from "./host/code-cache";

/** dist/provider/bundled.js -> dist/bundle/provider.js. */
export const BUNDLE = path.join(__dirname, "..", "bundle", "provider.js");

let bundle: { doors: Record<string, unknown> } | null | undefined;

/** What the bundle's entry exports as `name` ("dynamic", "plugin", "errors"), or `unbundled()` where there is no bundle. */
export function fromBundle<T>(name: string, unbundled: () => T): T {
  bundle ??= fs.existsSync(BUNDLE) ? (requireWithCodeCache(BUNDLE).exports as { doors: Record<string, unknown> }) : null;
  return bundle ? (bundle.doors[name] as T) : unbundled();
}

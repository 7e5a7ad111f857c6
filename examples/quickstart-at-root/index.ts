// The program of the repository root's Pulumi.yaml: examples/quickstart, run from a clone of this
// repository after `npm install` and `npm run build`. The quickstart is a package of its own that
// imports "pulumi-pagerduty-dynamic" and "@pulumi/pulumi" by name; from here those names resolve as
// at the root: this package through its own `exports` (self-reference) and the root's node_modules,
// never a copy installed into examples/quickstart (the demo installs one there). For type checking,
// this directory's tsconfig.json maps the package name to the sources.
import Module = require("node:module");
import path = require("node:path");

const quickstart = path.join(__dirname, "..", "quickstart") + path.sep;
type Resolve = (this: unknown, request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolveFilename = loader._resolveFilename;

// Package names required by the quickstart's files are resolved from this file instead.
loader._resolveFilename = function (request, parent, ...rest) {
  const bare = !request.startsWith(".") && !path.isAbsolute(request) && !Module.isBuiltin(request);
  if (bare && parent?.filename?.startsWith(quickstart)) return require.resolve(request);
  return resolveFilename.call(this, request, parent, ...rest);
};

// The quickstart's exports are the stack outputs.
export = require("../quickstart/index");

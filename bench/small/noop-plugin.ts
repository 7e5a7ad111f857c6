// The package door's floor: a do-nothing plugin on the same provider server a plugin written with
// Pulumi's Node.js SDK uses (@pulumi/pulumi/provider), under this package's plugin name, serving
// this package's schema: check passes the inputs, create returns them as outputs with a made-up id,
// diff reports a change of any user input, read returns the state, update the new inputs, delete
// nothing. It makes no request. The same YAML program runs against it and against the package's plugin.
import * as fs from "node:fs";
import * as path from "node:path";

const PLUGIN = `#!/usr/bin/env node
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { main } = require("@pulumi/pulumi/provider");
const pkg = path.join(__dirname, "node_modules", "pulumi-pagerduty-dynamic");
const version = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;
// Changed user inputs are an update, as the package's diff reports them.
const changed = (olds, news) => Object.keys({ ...olds, ...news }).some((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
main(
  {
    version,
    getSchema: async () => fs.readFileSync(path.join(pkg, "plugin", "schema.json"), "utf8"),
    check: async (_urn, _olds, news) => ({ inputs: news }),
    diff: async (_id, _urn, olds, news) => ({ changes: changed(olds, news) }),
    create: async (_urn, inputs) => ({ id: Math.random().toString(36).slice(2, 12), outs: inputs }),
    read: async (id, _urn, props) => ({ id, props }),
    update: async (_id, _urn, _olds, news) => ({ outs: news }),
    delete: async () => {},
  },
  process.argv.slice(2),
);
`;

/**
 * Writes the do-nothing plugin into `dir` (created), beside the node_modules of a plugin install
 * (`modules`: the SDK and this package, for its version and schema); the directory to put on PATH.
 */
export function writeNoopPlugin(dir: string, modules: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const bin = path.join(dir, "pulumi-resource-pagerduty-dynamic");
  fs.writeFileSync(bin, PLUGIN, { mode: 0o755 });
  fs.symlinkSync(modules, path.join(dir, "node_modules"));
  return dir;
}

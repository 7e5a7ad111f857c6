#!/usr/bin/env node
// The plugin's entry: `pulumi-resource-pagerduty-dynamic`, the executable the engine starts for the
// package "pagerduty-dynamic" (found on PATH, or installed with `pulumi plugin install resource`).
// It serves the package's provider (provider.ts) with @pulumi/pulumi's provider server.
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { main } from "@pulumi/pulumi/provider";
import { Deployment } from "../provider/account/deployment";
import { warn } from "./engine-log";
import { PackageProvider } from "./provider";
import { installServerShims } from "./server-shims";

// dist/plugin/main.js -> the package root, which holds plugin/schema.json and package.json.
const root = path.join(__dirname, "..", "..");
const version: string = require(path.join(root, "package.json")).version;

const provider = new PackageProvider({
  deployment: new Deployment({ warn }),
  version,
  schema: () => readFile(path.join(root, "plugin", "schema.json"), "utf8"),
});
installServerShims((variables) => provider.configure(variables));
main(provider, process.argv.slice(2)).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

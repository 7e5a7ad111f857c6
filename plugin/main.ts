#!/usr/bin/env node
// The plugin's entry: `pulumi-resource-pagerduty-dynamic`, the executable the engine starts for the
// package "pagerduty-dynamic" (found on PATH, or installed with `pulumi plugin install resource`).
// It serves the package's provider (provider.ts) with its gRPC server (server.ts). The provider's
// modules load on the first call that needs them, from the bundle (provider/bundled.ts): the engine
// waits for the port before it calls anything, and some of its starts only ask for the plugin's
// version or schema.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { setFlagsFromString } from "node:v8";
import { enableCompileCache, saveCompileCache } from "../provider/host/code-cache";

// Before anything else loads: the server's modules (grpc-js, google-protobuf and the SDK's protos,
// about 80 files) are most of the time to the port, and the engine starts the plugin two or three
// times a command (docs/benchmarks.md, "Small stacks").
const cached = enableCompileCache();

const { fromBundle }: typeof import("../provider/bundled") = require("../provider/bundled");
const { warn }: typeof import("./engine-log") = require("./engine-log");
const { serve }: typeof import("./server") = require("./server");
type PackageProvider = import("./provider").PackageProvider;

// dist/plugin/main.js -> the package root, which holds plugin/schema.json and package.json.
const root = path.join(__dirname, "..", "..");
const version: string = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;

let provider: PackageProvider | undefined;
const providerModule = () => fromBundle<typeof import("./provider")>("plugin", () => require("./provider"));
const errors = () => fromBundle<typeof import("../provider/errors")>("errors", () => require("../provider/errors"));

/**
 * The provider, its modules loaded. Then, before its first request: undici parses HTTP with llhttp
 * compiled to WebAssembly, which V8 compiles at once with its baseline compiler and then again, on
 * a thread of its own, with its optimizing one: about 60 ms of CPU after the first few requests,
 * which on a small machine the engine and the language host wait for (the plugin used 3 to 4 times
 * the do-nothing plugin's CPU per command; docs/benchmarks.md, "Small stacks"). Parsing a few
 * replies does not need the faster code. The process is this plugin's own, and nothing else in it
 * compiles WebAssembly. Set only now: a changed flag makes V8 refuse the code cache of every module
 * compiled after it, Node's own included (about 10 ms at the plugin's start when set there).
 */
function makeProvider(): PackageProvider {
  const { PackageProvider } = providerModule();
  setFlagsFromString("--liftoff-only");
  return new PackageProvider({ deployment: { warn, rememberAccepted: true }, version });
}

// An error nothing awaited is a bug: said on stderr, and the process ends failed, but it keeps
// answering the engine until then (as @pulumi/pulumi/provider's server does).
for (const event of ["uncaughtException", "unhandledRejection"] as const)
  process.on(event, (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exitCode = 1;
  });

serve({
  version,
  schema: () => readFileSync(path.join(root, "plugin", "schema.json"), "utf8"),
  provider: () => (provider ??= makeProvider()),
  // Only the provider's code throws these, so no error before it loaded is one.
  expected: (e) => provider !== undefined && e instanceof errors().PagerDutyError,
})
  // Once the port is out: the engine ends the plugin with a signal, and Node writes only at an exit.
  .then(() => (cached ? saveCompileCache() : undefined))
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });

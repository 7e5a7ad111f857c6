// Warnings from the plugin as engine diagnostics. Pulumi's `log.warn` needs the engine's address,
// which the provider server of @pulumi/pulumi takes from the command line but never hands the
// runtime; without it a warning goes to stderr, which the CLI does not count as one.
import type * as pulumi from "@pulumi/pulumi";

type Runtime = typeof pulumi.runtime;

let connected: boolean | undefined;

function connect(runtime: Runtime): boolean {
  if (connected !== undefined) return connected;
  const address = engineAddress(process.argv.slice(2));
  connected = false;
  if (!address) return false;
  runtime.resetOptions("", "", -1, address, "", false, "");
  connected = runtime.getEngine() !== undefined;
  return connected;
}

/** The engine's address: the first argument that is no flag (`--tracing` takes a value). */
export function engineAddress(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

/** Emits a warning (never fails the operation that raised it). */
export async function warn(message: string): Promise<void> {
  try {
    const sdk = require("@pulumi/pulumi") as typeof pulumi;
    if (connect(sdk.runtime)) {
      await sdk.log.warn(message);
      return;
    }
  } catch {
    // fall through to stderr: a warning must never turn into a failure
  }
  process.stderr.write(`warning: ${message}\n`);
}

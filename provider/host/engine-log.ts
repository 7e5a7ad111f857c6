// Warnings from inside the dynamic-provider process. Pulumi's `log.warn` needs a connection to the
// engine, which that process never sets up: the host only receives the engine's address as its
// first argument. Without it `log.warn` falls back to stderr, which the CLI prints as plain text
// (no "warning" severity, not counted). So, once, the SDK's runtime is pointed at that address;
// then warnings arrive as real engine diagnostics ("1 warning" in `pulumi up`).
type Runtime = typeof import("@pulumi/pulumi").runtime;
type Log = typeof import("@pulumi/pulumi").log;

const ADDRESS = /^(\[[0-9a-f:]+\]|[\w.-]+):\d{1,5}$/i;

/** The engine's address in the dynamic-provider host: its first argument. */
function hostAddress(): string | undefined {
  const [, script = "", address = ""] = process.argv;
  return /dynamic-provider/.test(script) && ADDRESS.test(address) ? address : undefined;
}

/** Points the SDK's runtime at the engine (once); true when the connection is usable. */
function connectEngine(runtime: Runtime, address: string | undefined): boolean {
  if (runtime.getEngine()) return true;
  if (!address) return false;
  let organization = "";
  try {
    organization = runtime.getOrganization();
  } catch {
    // not set in the provider process; the engine does not need it for logging
  }
  // Keeps project, stack and preview as they are; only the engine address is new.
  runtime.resetOptions(runtime.getProject(), runtime.getStack(), -1, address, "", runtime.isDryRun(), organization);
  return runtime.getEngine() !== undefined;
}

/**
 * A warn that emits Pulumi warnings (never failing the operation that raised it), connecting to
 * the engine at `address()` on first use: the dynamic-provider host's by default; the package's
 * plugin passes its own (plugin/engine-log.ts).
 */
export function engineWarner(address: () => string | undefined = hostAddress): (message: string) => Promise<void> {
  let attempted = false;
  let connected = false;
  return async (message) => {
    try {
      const pulumi = require("@pulumi/pulumi") as { runtime: Runtime; log: Log };
      if (!attempted) {
        attempted = true;
        connected = connectEngine(pulumi.runtime, address());
      }
      if (connected || pulumi.runtime.getEngine()) {
        await pulumi.log.warn(message);
        return;
      }
    } catch {
      // fall through to stderr: a warning must never turn into a failure
    }
    process.stderr.write(`warning: ${message}\n`);
  };
}

/** Warnings from the dynamic-provider process. */
export const warn = engineWarner();

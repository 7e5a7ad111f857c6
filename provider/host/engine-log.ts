// Warnings from inside the dynamic-provider process. Pulumi's `log.warn` needs a connection to the
// engine, which that process never sets up: the host only receives the engine's address as its
// first argument. Without it `log.warn` falls back to stderr, which the CLI prints as plain text
// (no "warning" severity, not counted). So, once, the SDK's runtime is pointed at that address;
// then warnings arrive as real engine diagnostics ("1 warning" in `pulumi up`).
type Runtime = typeof import("@pulumi/pulumi").runtime;
type Log = typeof import("@pulumi/pulumi").log;

const ADDRESS = /^(\[[0-9a-f:]+\]|[\w.-]+):\d{1,5}$/i;

let attempted = false;

/** True when running in Pulumi's dynamic-provider host and its engine connection is usable. */
function connectEngine(runtime: Runtime): boolean {
  if (runtime.getEngine()) return true;
  if (attempted) return false;
  attempted = true;
  const [, script = "", address = ""] = process.argv;
  if (!/dynamic-provider/.test(script) || !ADDRESS.test(address)) return false;
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

/** Emits a Pulumi warning (never fails the operation that raised it). */
export async function warn(message: string): Promise<void> {
  try {
    const pulumi = require("@pulumi/pulumi") as { runtime: Runtime; log: Log };
    if (connectEngine(pulumi.runtime)) {
      await pulumi.log.warn(message);
      return;
    }
  } catch {
    // fall through to stderr: a warning must never turn into a failure
  }
  process.stderr.write(`warning: ${message}\n`);
}

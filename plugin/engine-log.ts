// Warnings from the plugin as engine diagnostics. Pulumi's `log.warn` needs the engine's address,
// which the engine gives the plugin on its command line; without it a warning goes to stderr, which
// the CLI does not count as one. The SDK is loaded for it only when a warning is said.
import { engineWarner } from "../provider/host/engine-log";

/** The engine's address: the first argument that is no flag (`--tracing` takes a value). */
export function engineAddress(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return undefined;
}

/** Warnings from the plugin, through the engine whose address the plugin was started with. */
export const warn = engineWarner(() => engineAddress(process.argv.slice(2)));

// Our errors, said once. The dynamic-provider host of @pulumi/pulumi (cmd/dynamic-provider) logs
// every error thrown from check, diff, read and delete with `console.error(`${e}: ${e.stack}`)`
// before handing `e.message` to the engine, which prints that message again as the resource's
// error: the user saw `ConfigError: X: ConfigError: X`, the provider's stack trace, then `X`.
// Errors of this package are expected outcomes whose messages say what to fix, so the host's line
// for them is dropped and the engine's `error: X` stays the only report. Anything else (a bug)
// keeps the host's full line with its stack.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { PagerDutyError } from "../errors";

/** The exact lines the host is about to log for our errors. */
const expected = new Set<string>();
let installed = false;

/** The line the host builds for `e` (cmd/dynamic-provider/index.js, 3.x). */
export const hostLine = (e: Error): string => `${e}: ${e.stack}`;

/**
 * Wraps console.error once per process: a call whose only argument is a line announced by
 * `announce` is dropped (once); every other call passes through unchanged.
 */
export function installHostErrorFilter(): void {
  if (installed) return;
  installed = true;
  const original = console.error;
  console.error = function (this: Console, ...args: unknown[]) {
    if (args.length === 1 && typeof args[0] === "string" && expected.delete(args[0])) return;
    return original.apply(this, args);
  } as typeof console.error;
}

/** Records the host's line for an error of ours; create and update never log it, so it expires. */
function announce(e: unknown): void {
  if (!(e instanceof PagerDutyError)) return;
  const line = hostLine(e);
  expected.add(line);
  setTimeout(() => expected.delete(line), 5_000).unref();
}

/** Runs `f`, announcing an error of ours before it propagates to the host. */
export async function reported<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    announce(e);
    throw e;
  }
}

/** The provider with each method's errors announced. */
export function reportedProvider(provider: dynamic.ResourceProvider): dynamic.ResourceProvider {
  installHostErrorFilter();
  const out: dynamic.ResourceProvider = { ...provider };
  for (const name of ["check", "diff", "create", "read", "update", "delete"] as const) {
    const method = provider[name] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (method) (out as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => reported(() => method.apply(provider, args));
  }
  return out;
}

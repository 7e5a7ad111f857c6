// Entry point the serialized providers call into. The SDK's provider objects only name a resource
// kind and require this module at run time, so the code that runs is always the installed one.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { PagerDutyError } from "./errors";
import { installHostErrorFilter, reported, reportedProvider } from "./host/error-report";
import { UNKNOWN, withUnmanagedDrift } from "./resources/fields";
import { setStack } from "./resources/deployment";
import { journal } from "./resources/journal";
import { configure as configureRuntime, driftAllFields, verifyCredentials } from "./runtime";

/** Kind "ServiceEventRule" lives in ./resources/service-event-rule (one module per resource). */
const moduleOf = (kind: string) => kind.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

export function resource(kind: string): dynamic.ResourceProvider {
  if (!/^[A-Z][A-Za-z]+$/.test(kind)) throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}"`);
  try {
    const provider: dynamic.ResourceProvider = require(`./resources/${moduleOf(kind)}`).provider;
    // Lookups write nothing and are compared by their own diff.
    return reportedProvider(kind === "Lookup" ? provider : withUnmanagedDrift(kind, settling(kind, unique(provider)), driftAllFields));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw e;
    throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}": the installed pulumi-pagerduty-dynamic is older than the program's`);
  }
}

/**
 * The SDK passes `__conflict` when another resource of the program claims the same unique value (a
 * service's name; sdk/unique-names.ts): the check fails with it, so the preview does and nothing is
 * created. No property is named, so the engine prints the message without dumping the inputs.
 */
function unique(p: dynamic.ResourceProvider): dynamic.ResourceProvider {
  if (!p.check) return p;
  return {
    ...p,
    check: async (olds, news) =>
      typeof news?.__conflict === "string" ? { failures: [{ property: "", reason: news.__conflict }] } : p.check!.call(p, olds, news),
  };
}

/** Kinds whose creates are journaled (resources/recovery.ts). */
const JOURNALED = new Set(["Service", "ServiceIntegration", "ServiceEventRule"]);

/**
 * Once the engine shows it knows an id (it diffs, reads, updates or deletes it), the state, not the
 * intent journal, says which resource owns it: the journal forgets it. Without this a destroyed
 * stack's entries outlived it, and its next `up` checked each recorded id again (one GET each).
 */
function settling(kind: string, p: dynamic.ResourceProvider): dynamic.ResourceProvider {
  if (!JOURNALED.has(kind)) return p;
  const settle = (id: string) => journal().settle(kind, id);
  return {
    ...p,
    ...(p.diff && { diff: (id, olds, news) => (settle(id), p.diff!.call(p, id, olds, news)) }),
    ...(p.read && { read: (id, props) => (settle(id), p.read!.call(p, id, props)) }),
    ...(p.update && { update: (id, olds, news) => (settle(id), p.update!.call(p, id, olds, news)) }),
    ...(p.delete && { delete: (id, props) => (settle(id), p.delete!.call(p, id, props)) }),
  };
}

/**
 * Called from every provider object's configure; the settings are process-wide. `stack` is the
 * program's fully qualified stack name (absent from providers serialized by older versions).
 */
export async function configure(req: dynamic.ConfigureRequest, stack?: string): Promise<void> {
  installHostErrorFilter();
  setStack(stack);
  return reported(() => configureFrom(req));
}

async function configureFrom(req: dynamic.ConfigureRequest): Promise<void> {
  let unknown = false;
  configureRuntime((key) => {
    const value = req.config.get(key);
    if (value === UNKNOWN) unknown = true;
    return value;
  });
  // Credentials are proven here, so nothing (not even a preview that makes no other call) passes
  // with missing or refused ones. A setting not known until apply is not judged.
  if (!unknown) await verifyCredentials();
}

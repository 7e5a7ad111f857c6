// Entry point the serialized providers call into. The SDK's provider objects (sdk/providers) only
// name a resource kind and require this module at run time, so the code that runs is always the
// installed one. Providers serialized by earlier versions (one object per kind that captured the
// stack) call the same two functions and pass the stack's name to configure; newer ones name it in
// check (host/origin-stack.ts).
// This module holds the process's one Deployment (account/deployment.ts): every operation gets the
// account context it runs against from it.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { Deployment } from "./account/deployment";
import { PagerDutyError } from "./errors";
import { warn } from "./host/engine-log";
import { installHostErrorFilter, reported, reportedProvider } from "./host/error-report";
import { namingStack } from "./host/origin-stack";
import { upgradingProvider } from "./host/provider-upgrade";
import { UNKNOWN } from "./kernel/check";
import { makeProvider } from "./engine/factory";
import { lookupProvider } from "./engine/lookup-resource";
import { isResourceKind, LOOKUPS, RESOURCES } from "./registry";

// Engine warnings inside the dynamic-provider host (counted in `pulumi up`), stderr elsewhere.
const deployment = new Deployment({ warn });
const contextOf = (account: string) => deployment.context(account);
const providers = new Map<string, dynamic.ResourceProvider>();

/** The provider of a resource kind ("Lookup" for the SDK's get* functions). */
export function resource(kind: string): dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (provider) return provider;
  if (kind === "Lookup") provider = lookupProvider(LOOKUPS, contextOf);
  else if (isResourceKind(kind)) provider = makeProvider(RESOURCES[kind], contextOf);
  else throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}": the installed pulumi-pagerduty-dynamic is older than the program's`);
  provider = reportedProvider(upgradingProvider(namingStack(provider, (stack) => deployment.nameStack(stack))));
  providers.set(kind, provider);
  return provider;
}

/**
 * Called from every provider object's configure; the settings are process-wide. `stack` is the
 * program's fully qualified stack name, which providers serialized by older versions pass (newer
 * ones name it in check, with `__origin`).
 */
export async function configure(req: dynamic.ConfigureRequest, stack?: string): Promise<void> {
  installHostErrorFilter();
  return reported(async () => {
    let unknown = false;
    deployment.configure((key) => {
      const value = req.config.get(key);
      if (value === UNKNOWN) unknown = true;
      return value;
    }, stack);
    // Credentials are proven here, so nothing (not even a preview that makes no other call) passes
    // with missing or refused ones. A setting not known until apply is not judged.
    if (!unknown) await deployment.verifyCredentials();
  });
}

/** The process's deployment (tests: reset between cases). */
export { deployment };

// The dynamic providers' door, which the serialized providers call into through index.ts. The SDK's
// provider objects (sdk/providers) only name a resource kind and require the entry at run time, so the
// code that runs is always the installed one. Providers serialized by earlier versions (one object
// per kind that captured the stack) call the same two functions and pass the stack's name to
// configure; newer ones name it in check (host/origin-stack.ts).
// What both doors share is door.ts (the process's one Deployment, its settings under `pagerduty:*`,
// each kind's provider, the lookups' path); what is this door's own is the dynamic-provider host's
// side: the Lookup resource of the SDK's get* functions, the stack's name from `__origin`, a stale
// serialized provider updated in place, and errors said once.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ProviderDoor, isResourceKind } from "./door";
import { PagerDutyError } from "./errors";
import { warn } from "./host/engine-log";
import { installHostErrorFilter, reported, reportedProvider } from "./host/error-report";
import { namingStack } from "./host/origin-stack";
import { upgradingProvider } from "./host/provider-upgrade";
import { lookupProvider } from "./operations/lookup-resource";
import { lookupByQuery, lookupQueries } from "./registry";

// Engine warnings inside the dynamic-provider host (counted in `pulumi up`), stderr elsewhere.
// Which credentials the REST API took is kept for the next process (the region check once per machine).
const door = new ProviderDoor("dynamic", { warn, rememberAccepted: true });
const providers = new Map<string, dynamic.ResourceProvider>();

/** The provider of a resource kind ("Lookup" for the SDK's get* functions). */
export function providerOf(kind: string): dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (provider) return provider;
  if (kind === "Lookup") provider = door.afterCredentials(lookupProvider({ byQuery: lookupByQuery, queries: lookupQueries }, door.context));
  else if (isResourceKind(kind)) provider = door.providerOf(kind);
  else throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}": the installed pulumi-pagerduty-dynamic is older than the program's`);
  provider = reportedProvider(upgradingProvider(namingStack(provider, (stack) => door.nameStack(stack))));
  providers.set(kind, provider);
  return provider;
}

/**
 * @deprecated `providerOf`. Providers serialized by earlier versions call `resource(kind)` of the
 * installed package (tests/e2e/upgrade.test.ts), and a resource's `__provider` stays as written until
 * an `up` updates it (a refresh or a destroy runs it as it is), so the old name stays exported.
 */
export const resource = providerOf;

/**
 * Called from every provider object's configure; the settings are process-wide. `stack` is the
 * program's fully qualified stack name, which providers serialized by older versions pass (newer
 * ones name it in check, with `__origin`).
 */
export async function configure(req: dynamic.ConfigureRequest, stack?: string): Promise<void> {
  installHostErrorFilter();
  return reported(() => door.configure((key) => req.config.get(key), stack));
}

/** The process's deployment (tests: reset between cases). */
export const deployment = door.deployment;

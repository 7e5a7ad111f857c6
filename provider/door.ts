// What both doors share, behind the one entry each calls: the dynamic providers' entry point
// (index.ts, which the SDK's serialized providers require) and the package's plugin
// (plugin/provider.ts). A door holds the process's Deployment, with its settings read under the
// door's own namespace (`pagerduty:*`, `pagerduty-dynamic:*`), so every message that names a setting
// names the key its users set; configure records them and proves the credentials; each resource
// kind's provider (operations/factory.ts) is made on first use; a lookup runs by the one path
// (operations/lookup.ts). What stays at each door is its side of the wire: the dynamic host's
// provider objects and their upgrades, or the plugin's type tokens, secrets and import ids.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { AccountContext } from "./account/context";
import { Deployment, type DeploymentOptions } from "./account/deployment";
import { qualifiedStack, type StackLookup, stackOfUrn } from "./account/stack-name";
import type { StackName } from "./account/stack-state";
import { makeProvider } from "./operations/factory";
import { type LookupCall, type LookupOutcome, performLookup } from "./operations/lookup";
import { ACCOUNT_INPUT } from "./kernel/account-input";
import { UNKNOWN } from "./kernel/check";
import { originKey } from "./kernel/origin";
import type { ResourceDefinition } from "./kernel/define";
import { isResourceKind, lookupByFunction, RESOURCES, type ResourceKind } from "./registry";
import { type Door, NAMESPACES } from "./settings";

export type { Door, LookupOutcome, ResourceKind, StackLookup };
export { ACCOUNT_INPUT, isResourceKind, originKey };
export { PagerDutyError } from "./errors";

/** A kind's provider as both doors call it (configure is the door's). */
export type KindProvider = Required<Omit<dynamic.ResourceProvider, "configure">>;

export interface DoorOptions extends Omit<DeploymentOptions, "namespace"> {}

export class ProviderDoor {
  readonly deployment: Deployment;
  private readonly kinds = new Map<ResourceKind, KindProvider>();

  /** `deployment`: how to make the door's deployment, or one made already (tests share one between doors). */
  constructor(
    readonly door: Door,
    deployment: DoorOptions | Deployment,
  ) {
    this.deployment = deployment instanceof Deployment ? deployment : new Deployment({ ...deployment, namespace: NAMESPACES[door] });
  }

  /** The context of an account (what a lookup or a kind's provider runs against). */
  readonly context = (account: string): AccountContext => this.deployment.context(account);

  /**
   * Records the settings (`get` answers the door's keys) and the stack's name when the door knows
   * it, and proves the credentials, so nothing (not even a preview that makes no other call) passes
   * with missing or refused ones. A setting not known until apply (a provider resource's input made
   * by another resource) is not judged.
   */
  async configure(get: (key: string) => string | undefined, stack?: string): Promise<void> {
    let unknown = false;
    this.deployment.configure((key) => {
      const value = get(key);
      if (value?.includes(UNKNOWN)) unknown = true;
      return value;
    }, stack);
    if (!unknown) await this.deployment.verifyCredentials();
  }

  /** Names the stack the door serves, or how to find it (the first name wins). */
  nameStack(stack: StackName): void {
    this.deployment.nameStack(stack);
  }

  /**
   * Names the stack from a resource's URN, as a program names it to the dynamic providers: recovery
   * reads the stack's state by that name. Its organization is looked up (account/stack-name.ts) only
   * when a create first reads the state, never on a preview's or a refresh's way.
   */
  nameStackOfUrn(urn: string, lookup?: StackLookup): void {
    const at = stackOfUrn(urn);
    if (at) this.nameStack(() => qualifiedStack(at, lookup));
  }

  /**
   * The provider of a kind, made on first use. Each method first waits for the REST API's answer to
   * a token configure fetched (Deployment.accepted), so no operation runs on a refused one.
   */
  providerOf(kind: ResourceKind): KindProvider {
    let found = this.kinds.get(kind);
    if (!found) this.kinds.set(kind, (found = this.afterCredentials(makeProvider(RESOURCES[kind], this.context))));
    return found;
  }

  /** `p` whose every method first waits for the REST API's answer to a new token (the Lookup resource's too). */
  afterCredentials<P extends dynamic.ResourceProvider>(p: P): P {
    const out: P = { ...p };
    for (const name of ["check", "diff", "create", "read", "update", "delete"] as const) {
      const method = p[name] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (!method) continue;
      (out as Record<string, unknown>)[name] = async (...a: unknown[]) => {
        await this.deployment.accepted();
        return method.apply(p, a);
      };
    }
    return out;
  }

  /** A kind's definition: what a door's side of the wire reads (secret outputs, whether it creates an object, its import id). */
  definition(kind: ResourceKind): ResourceDefinition {
    return RESOURCES[kind].definition;
  }

  /**
   * Runs the lookup behind a function (`getService`) by the path the Lookup resource runs it
   * (operations/lookup.ts); `at` is where its arguments sit in the failures. Undefined: no such function.
   */
  invoke(functionName: string, call: LookupCall, at: readonly string[] = []): Promise<LookupOutcome> | undefined {
    const lookup = lookupByFunction(functionName);
    return lookup && this.deployment.accepted().then(() => performLookup(lookup, call, this.context, at));
  }
}

// The package's provider: what the plugin's gRPC server (@pulumi/pulumi/provider) calls. Every
// method hands the work to the very provider the dynamic providers use (provider/engine/factory.ts,
// one per kind, over one Deployment: account contexts, journal, consistency waits, scope checks);
// what differs here is only the plugin's side of the wire: type tokens instead of provider objects,
// secrets marked in the replies (secrets.ts), the provenance key and the stack's name made from the URN, import ids
// (import-ids.ts), the lookups as invokes, and the settings under this package's namespace.
import { createHash } from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type * as provider from "@pulumi/pulumi/provider";
import type { Deployment } from "../provider/account/deployment";
import { qualifiedStack, type StackLookup, stackOfUrn } from "../provider/account/stack-name";
import { PagerDutyError } from "../provider/errors";
import { reported } from "../provider/host/error-report";
import { ACCOUNT_INPUT } from "../provider/kernel/account-input";
import { makeProvider } from "../provider/engine/factory";
import { performLookup } from "../provider/engine/lookup";
import { isResourceKind, lookupByFunction, RESOURCES, type ResourceKind } from "../provider/registry";
import { hasUnknown, inPackageTerms, settingsGetter } from "./config";
import { importedInputs, locate } from "./import-ids";
import { nameOfToken } from "./names";
import { unwrapSecrets, wrapSecrets } from "./secrets";

type Props = Record<string, unknown>;
type KindProvider = ReturnType<typeof makeProvider>;

export interface PackageProviderOptions {
  deployment: Deployment;
  version: string;
  /** The package schema (JSON), read when the engine first asks for it. */
  schema: () => Promise<string>;
  /** How the stack's organization is found (tests); by default from the backend or the `pulumi` CLI in the working directory. */
  stackLookup?: StackLookup;
}

/** The kind a URN's type names (`...::pagerduty-dynamic:index:Service::name`; a parent's types before `$`). */
export function kindOfUrn(urn: string): ResourceKind {
  const type = urn.split("::")[2]?.split("$").pop() ?? "";
  const name = nameOfToken(type);
  if (!name || !isResourceKind(name))
    throw new PagerDutyError("ERR_INPUT", `unknown resource type "${type}": the installed pagerduty-dynamic plugin is older than the program's SDK`);
  return name;
}

/**
 * The provenance key recovery matches an interrupted create by (sdk/origin.ts makes it in a program):
 * here from the URN the engine names, which is what that key stands for.
 */
export const originOfUrn = (urn: string) => createHash("sha256").update(urn).digest("hex").slice(0, 32);

/** Our errors in this package's terms (its config keys); others as they are. */
function worded<T>(f: () => Promise<T>): Promise<T> {
  return reported(async () => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof PagerDutyError) e.message = inPackageTerms(e.message);
      throw e;
    }
  });
}

export class PackageProvider implements provider.Provider {
  readonly version: string;
  private readonly kinds = new Map<ResourceKind, KindProvider>();
  private stackNamed = false;

  constructor(private readonly options: PackageProviderOptions) {
    this.version = options.version;
  }

  getSchema(): Promise<string> {
    return this.options.schema();
  }

  /** The settings of Configure: recorded, and the credentials proven (as the dynamic providers' configure does). */
  async configure(variables: Map<string, string>): Promise<void> {
    const { deployment } = this.options;
    await worded(async () => {
      deployment.configure(settingsGetter(variables));
      if (!hasUnknown(variables)) await deployment.verifyCredentials();
    });
  }

  /**
   * Names the deployed stack to the Deployment from the first URN, as a program names it to the
   * dynamic providers: recovery reads the stack's state by that name. Its organization is looked up
   * only when a create first reads the state, never on a preview's or a refresh's way.
   */
  private nameStack(urn: string): void {
    if (this.stackNamed) return;
    const at = stackOfUrn(urn);
    if (!at) return;
    this.stackNamed = true;
    this.options.deployment.nameStack(() => qualifiedStack(at, this.options.stackLookup));
  }

  private kind(urn: string): { kind: ResourceKind; p: KindProvider } {
    this.nameStack(urn);
    const kind = kindOfUrn(urn);
    let p = this.kinds.get(kind);
    if (!p) this.kinds.set(kind, (p = makeProvider(RESOURCES[kind], (account) => this.options.deployment.context(account))));
    return { kind, p };
  }

  private secretOutputs(kind: ResourceKind): readonly string[] {
    return RESOURCES[kind].definition.secretOutputs ?? [];
  }

  check(urn: string, olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const { props, secretKeys } = unwrapSecrets(news);
      const withOrigin = RESOURCES[kind].definition.origin && props.__origin === undefined ? { ...props, __origin: originOfUrn(urn) } : props;
      const result = await p.check(unwrapSecrets(olds).props, withOrigin);
      return {
        ...result,
        inputs: wrapSecrets(result.inputs as Props | undefined, secretKeys),
        ...(result.failures ? { failures: result.failures.map((f) => ({ ...f, reason: inPackageTerms(f.reason) })) } : {}),
      };
    });
  }

  diff(id: string, urn: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const at = locate(kind, id, unwrapSecrets(olds).props);
      return p.diff(at.id, at.state, unwrapSecrets(news).props);
    });
  }

  create(urn: string, inputs: Props): Promise<dynamic.CreateResult> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const { props, secretKeys } = unwrapSecrets(inputs);
      const secret = [...secretKeys, ...this.secretOutputs(kind)];
      try {
        const made = await p.create(props);
        return { id: made.id, outs: wrapSecrets(made.outs as Props, secret) };
      } catch (e) {
        // An object made before a later step failed is recorded by the engine with these properties.
        const partial = e as { id?: unknown; properties?: Props };
        if (partial.id && partial.properties) partial.properties = wrapSecrets(partial.properties, secret);
        throw e;
      }
    });
  }

  read(id: string, urn: string, state?: Props): Promise<dynamic.ReadResult> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const { props, secretKeys } = unwrapSecrets(state);
      const importing = !Object.keys(props).length;
      const at = locate(kind, id, props);
      let result = await p.read(at.id, at.state);
      if (!result.id) return { id: "" };
      // Imported: no declaration recorded yet; the inputs are what was found.
      if (importing && !result.inputs) result = { ...result, ...importedInputs(RESOURCES[kind].definition, result.props as Props) };
      const secret = [...secretKeys, ...this.secretOutputs(kind)];
      // The engine's id stays the resource's id (an import id keeps its service).
      return { id, props: wrapSecrets(result.props as Props, secret), inputs: wrapSecrets(result.inputs as Props | undefined, secret) };
    });
  }

  update(id: string, urn: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const at = locate(kind, id, unwrapSecrets(olds).props);
      const { props, secretKeys } = unwrapSecrets(news);
      const updated = await p.update(at.id, at.state, props);
      return { outs: wrapSecrets(updated.outs as Props, [...secretKeys, ...this.secretOutputs(kind)]) };
    });
  }

  delete(id: string, urn: string, state: Props): Promise<void> {
    return worded(async () => {
      const { kind, p } = this.kind(urn);
      const at = locate(kind, id, unwrapSecrets(state).props);
      await p.delete(at.id, at.state);
    });
  }

  /** The lookups, by the path the dynamic providers' Lookup resource runs them (engine/lookup.ts): a function's arguments are at the top. */
  invoke(tok: string, args: Props): Promise<provider.InvokeResult> {
    return worded(async () => {
      const lookup = lookupByFunction(nameOfToken(tok) ?? "");
      if (!lookup) throw new PagerDutyError("ERR_INPUT", `unknown function "${tok}": the installed pagerduty-dynamic plugin is older than the program's SDK`);
      const { [ACCOUNT_INPUT]: account, ...own } = unwrapSecrets(args).props;
      const outcome = await performLookup(lookup, { args: own, account }, (a) => this.options.deployment.context(a), []);
      if (outcome.kind === "failed") return { failures: outcome.failures.map((f) => ({ ...f, reason: inPackageTerms(f.reason) })) };
      return { outputs: outcome.kind === "found" ? outcome.result : {} };
    });
  }
}

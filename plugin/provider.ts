// The package's provider: what the plugin's gRPC server (server.ts) calls. Every method hands the
// work to the provider-side door both doors share (provider/door.ts: one Deployment with the
// settings under this package's namespace, account contexts, journal, consistency waits, scope
// checks, each kind's provider, the lookups' one path); what is done here is only the plugin's
// side of the wire: type tokens instead of provider objects, secrets marked in the replies
// (secrets.ts), the provenance key and the stack's name taken from the URN, import ids
// (import-ids.ts), and the lookups as invokes.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type * as provider from "@pulumi/pulumi/provider";
import {
  ACCOUNT_INPUT,
  type DoorOptions,
  isResourceKind,
  type KindProvider,
  originKey,
  PagerDutyError,
  ProviderDoor,
  type ResourceKind,
  type StackLookup,
} from "../provider/door";
import type { Deployment } from "../provider/account/deployment";
import { settingsGetter } from "./config";
import { importedInputs, locate } from "./import-ids";
import { nameOfToken } from "./names";
import { unwrapSecrets, wrapSecrets } from "./secrets";

type Props = Record<string, unknown>;

export interface PackageProviderOptions {
  /** The deployment's wiring: where warnings go (tests: a journal directory, a mock agent, the environment; or a deployment made already). */
  deployment: DoorOptions | Deployment;
  version: string;
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

export class PackageProvider {
  readonly version: string;
  private readonly door: ProviderDoor;

  constructor(private readonly options: PackageProviderOptions) {
    this.version = options.version;
    this.door = new ProviderDoor("package", options.deployment);
  }

  /** The door's deployment (tests). */
  get deployment() {
    return this.door.deployment;
  }

  /** The settings of Configure: recorded, and the credentials proven (as the dynamic providers' configure does). */
  configure(variables: ReadonlyMap<string, string>): Promise<void> {
    return this.door.configure(settingsGetter(variables));
  }

  private kind(urn: string): { kind: ResourceKind; p: KindProvider } {
    // The first name wins (Deployment.nameStack); the URN is only matched, the organization looked up later.
    this.door.nameStackOfUrn(urn, this.options.stackLookup);
    const kind = kindOfUrn(urn);
    return { kind, p: this.door.providerOf(kind) };
  }

  private secretOutputs(kind: ResourceKind): readonly string[] {
    return this.door.definition(kind).secretOutputs ?? [];
  }

  async check(urn: string, olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const { kind, p } = this.kind(urn);
    const { props, secretKeys } = unwrapSecrets(news);
    const withOrigin = this.door.definition(kind).creates && props.__origin === undefined ? { ...props, __origin: originKey(urn) } : props;
    const result = await p.check(unwrapSecrets(olds).props, withOrigin);
    return { ...result, inputs: wrapSecrets(result.inputs as Props | undefined, secretKeys) };
  }

  async diff(id: string, urn: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const { kind, p } = this.kind(urn);
    const at = locate(kind, id, unwrapSecrets(olds).props);
    return p.diff(at.id, at.state, unwrapSecrets(news).props);
  }

  async create(urn: string, inputs: Props): Promise<dynamic.CreateResult> {
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
  }

  async read(id: string, urn: string, state?: Props): Promise<dynamic.ReadResult> {
    const { kind, p } = this.kind(urn);
    const { props, secretKeys } = unwrapSecrets(state);
    const importing = !Object.keys(props).length;
    const at = locate(kind, id, props);
    let result = await p.read(at.id, at.state);
    if (!result.id) return { id: "" };
    // Imported: no declaration recorded yet; the inputs are what was found.
    if (importing && !result.inputs) result = { ...result, ...importedInputs(this.door.definition(kind), result.props as Props) };
    const secret = [...secretKeys, ...this.secretOutputs(kind)];
    // The engine's id stays the resource's id (an import id keeps its service).
    return { id, props: wrapSecrets(result.props as Props, secret), inputs: wrapSecrets(result.inputs as Props | undefined, secret) };
  }

  async update(id: string, urn: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const { kind, p } = this.kind(urn);
    const at = locate(kind, id, unwrapSecrets(olds).props);
    const { props, secretKeys } = unwrapSecrets(news);
    const updated = await p.update(at.id, at.state, props);
    return { outs: wrapSecrets(updated.outs as Props, [...secretKeys, ...this.secretOutputs(kind)]) };
  }

  async delete(id: string, urn: string, state: Props): Promise<void> {
    const { kind, p } = this.kind(urn);
    const at = locate(kind, id, unwrapSecrets(state).props);
    await p.delete(at.id, at.state);
  }

  /** The lookups, by the path the dynamic providers' Lookup resource runs them: a function's arguments are at the top. */
  async invoke(tok: string, args: Props): Promise<provider.InvokeResult> {
    const { [ACCOUNT_INPUT]: account, ...own } = unwrapSecrets(args).props;
    const outcome = await this.door.invoke(nameOfToken(tok) ?? "", { args: own, account });
    if (!outcome) throw new PagerDutyError("ERR_INPUT", `unknown function "${tok}": the installed pagerduty-dynamic plugin is older than the program's SDK`);
    if (outcome.kind === "failed") return { failures: outcome.failures };
    return { outputs: outcome.kind === "found" ? outcome.result : {} };
  }
}

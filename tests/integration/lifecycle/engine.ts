// The engine's side of a deployment, without the Pulumi CLI: the calls `pulumi up`, `refresh`,
// `destroy` and `import` make of a provider, in their order and with their shapes. The provider is
// the one both doors use (provider/operations/factory.ts over a Deployment); the dynamic-provider host
// adds `__provider` to what check, create, read and update return, and the SDK passes `__origin` for
// kinds that create objects, so both are here too. An import goes through the plugin's provider, the
// one door that imports.
import { createHash } from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { PackageProvider } from "../../../plugin/provider";
import type { Deployment } from "../../../provider/account/deployment";
import { makeProvider } from "../../../provider/operations/factory";
import { RESOURCES, type ResourceKind } from "../../../provider/registry";

type Props = Record<string, unknown>;

/** What a dynamic resource's `__provider` holds: the serialized provider, here only a marker. */
const PROVIDER = 'exports.handler = require("pulumi-pagerduty-dynamic/dist/providers/...")';

/** One resource of the stack as the state records it. */
export interface Deployed {
  kind: ResourceKind;
  /** The resource's name in the program (its provenance key is made from it). */
  name: string;
  id: string;
  /** The inputs the state holds: check's, or those a refresh rebuilt. */
  inputs: Props;
  outs: Props;
}

/** A plan of one resource: the checked inputs and the provider's diff. */
export interface Plan {
  checked: Props;
  diff: dynamic.DiffResult;
}

export class Engine {
  private readonly providers = new Map<ResourceKind, ReturnType<typeof makeProvider>>();
  /** The plugin's provider over the same deployment: the door `pulumi import` uses. */
  readonly plugin: PackageProvider;

  constructor(private readonly deployment: Deployment) {
    this.plugin = new PackageProvider({ deployment, version: "0.0.0-lifecycle" });
  }

  provider(kind: ResourceKind) {
    let p = this.providers.get(kind);
    if (!p) this.providers.set(kind, (p = makeProvider(RESOURCES[kind], (account) => this.deployment.context(account))));
    return p;
  }

  /** The hidden inputs the SDK passes with a program's inputs. */
  private hidden(kind: ResourceKind, name: string): Props {
    const origin = RESOURCES[kind].definition.creates ? { __origin: createHash("sha256").update(`${kind}::${name}`).digest("hex").slice(0, 32) } : {};
    return { __provider: PROVIDER, ...origin };
  }

  /** Check, as every step that writes starts (and a preview): failures fail the step, naming them. */
  async check(kind: ResourceKind, name: string, olds: Props, declared: object): Promise<Props> {
    const news = { ...declared, ...this.hidden(kind, name) };
    const result = await this.provider(kind).check(olds, news);
    if (result.failures?.length) throw new Error(`check of ${kind} ${name} failed: ${result.failures.map((f) => f.reason).join("; ")}`);
    return { ...(result.inputs ?? news), __provider: PROVIDER };
  }

  /** `up` of a resource not in the state: check with no old inputs, then create. */
  async create(kind: ResourceKind, name: string, declared: object): Promise<Deployed> {
    const checked = await this.check(kind, name, {}, declared);
    const made = await this.provider(kind).create(checked);
    return { kind, name, id: made.id, inputs: checked, outs: { ...made.outs, __provider: PROVIDER } };
  }

  /**
   * `refresh`: the state after a read, with the inputs the read rebuilt (the next check's old inputs,
   * which every state this provider wrote lets it rebuild); undefined when the read reports the object gone.
   */
  async refresh(r: Deployed): Promise<Deployed | undefined> {
    const read = await this.provider(r.kind).read(r.id, r.outs);
    if (!read.id) return undefined;
    if (!read.inputs) throw new Error(`the read of ${r.kind} ${r.id} rebuilt no inputs from its state`);
    return { ...r, id: read.id, outs: { ...read.props, __provider: PROVIDER }, inputs: { ...read.inputs, __provider: PROVIDER } };
  }

  /** What `preview` plans for a resource in the state and the program's inputs. */
  async plan(r: Deployed, declared: object): Promise<Plan> {
    const checked = await this.check(r.kind, r.name, r.inputs, declared);
    return { checked, diff: await this.provider(r.kind).diff(r.id, r.outs, checked) };
  }

  /** `up` of a plan that updates in place. */
  async update(r: Deployed, plan: Plan): Promise<Deployed> {
    const updated = await this.provider(r.kind).update(r.id, r.outs, plan.checked);
    return { ...r, inputs: plan.checked, outs: { ...updated.outs, __provider: PROVIDER } };
  }

  /**
   * `up` of a plan that replaces: the replacement is checked again without old inputs (as the engine
   * does), created, and the old object deleted; deleted first when the diff says so.
   */
  async replace(r: Deployed, declared: object, plan: Plan): Promise<Deployed> {
    if (plan.diff.deleteBeforeReplace) await this.delete(r);
    const made = await this.create(r.kind, r.name, declared);
    if (!plan.diff.deleteBeforeReplace) await this.delete(r);
    return made;
  }

  async delete(r: Deployed): Promise<void> {
    await this.provider(r.kind).delete(r.id, r.outs);
  }

  /** The plugin's URN of a resource: its type names the kind. */
  urn = (kind: ResourceKind, name: string) => `urn:pulumi:lifecycle::lifecycle::pagerduty-dynamic:index:${kind}::${name}`;
}

// How a lookup runs. The SDK never does HTTP and dynamic providers cannot serve invokes, so each
// lookup (the get* functions of lookups.ts, generated from the provider's lookup definitions)
// registers a small `pagerduty:Lookup` resource whose provider performs the GET in the
// dynamic-provider process. Its result is fresh on every preview and up: a change in the
// looked-up data shows as an update of the lookup, unchanged data as no change. `refresh` leaves
// lookups alone. A lookup never creates, changes or deletes anything remote.
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { type Account, accountName } from "./account";
import { dynamicType, withProvider } from "./provider";

export interface LookupOptions extends Pick<pulumi.CustomResourceOptions, "parent" | "dependsOn" | "aliases"> {
  /**
   * Name of the lookup resource in the stack. By default it is derived from the arguments, which
   * needs them to be plain values; pass a name when an argument is an Output.
   */
  name?: string;
  /**
   * The account to look in: a name declared in `pagerduty:accounts`, or an `Account` (unset: the
   * default account). A plain string; the lookup's default name says which account it is for.
   */
  account?: string | Account;
  // dependsOn: the lookup reads after these resources are written. Name the resources whose data it
  // reads (or that create the looked-up object): until they exist, e.g. in the first preview, the
  // result is unknown rather than an error.
}

/** The resource behind every lookup; `result` is filled by the provider's check. */
class Lookup extends pulumi.CustomResource {
  declare readonly result: pulumi.Output<unknown>;
  constructor(name: string, props: { query: string; args: pulumi.Input<Record<string, unknown>>; account?: string }, opts?: pulumi.CustomResourceOptions) {
    super(dynamicType("Lookup"), name, withProvider("Lookup", { result: undefined, ...props }), opts);
  }
}

const plain = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

/** `getService-Checkout`, `getServiceAuditRecords-PABC123-1f2e3d4c` (hash of the other arguments). */
export function lookupName(fn: string, args: Record<string, unknown>, explicit?: string): string {
  if (explicit) return explicit;
  const defined = Object.entries(args).filter(([, v]) => v !== undefined);
  const computed = defined.filter(([, v]) => !plain(v)).map(([k]) => `"${k}"`);
  if (computed.length) {
    throw new Error(
      `${fn}: ${computed.join(", ")} ${computed.length > 1 ? "are" : "is"} not a plain value (an Output or Promise), so the lookup cannot be ` +
        `named after its arguments; pass a name: ${fn}({...}, { name: "my-lookup" })`,
    );
  }
  const [[, primary], ...rest] = defined;
  const suffix = rest.length ? `-${createHash("sha256").update(JSON.stringify(rest.sort())).digest("hex").slice(0, 8)}` : "";
  // "::" separates URN parts; keep it out of names.
  return `${fn}-${String(primary).replace(/::/g, ":_")}${suffix}`;
}

/**
 * The arguments, released only once every `dependsOn` resource has its id. In a preview where one
 * is still to be created its id is unknown, so the lookup is not attempted (its result is unknown)
 * instead of failing on an object that does not exist yet. Resources given as Outputs or Promises
 * are ordered by the engine as usual but do not gate the arguments.
 */
function gated(args: Record<string, pulumi.Input<unknown>>, dependsOn: LookupOptions["dependsOn"]): pulumi.Input<Record<string, unknown>> {
  const deps = ([] as unknown[]).concat(dependsOn ?? []).filter((d): d is pulumi.Resource => pulumi.Resource.isInstance(d));
  if (!deps.length) return args;
  const ready = deps.map((d) => (pulumi.CustomResource.isInstance(d) ? d.id : d.urn));
  return pulumi.all([pulumi.all(ready), pulumi.output(args)]).apply(([, a]) => a);
}

/** Registers the lookup `fn` (its `query` as the provider names it); the Output of its result. */
export function lookup<T>(fn: string, query: string, args: Record<string, pulumi.Input<unknown>>, opts: LookupOptions = {}): pulumi.Output<T> {
  const { name, account, ...resourceOpts } = opts;
  const inAccount = account === undefined ? undefined : (accountName(account) as string);
  // Two lookups of the same arguments in two accounts are two resources: the account is in the name.
  const where = inAccount === undefined || inAccount === "default" ? fn : `${fn}@${inAccount}`;
  const props = { query, args: gated(args, opts.dependsOn), ...(inAccount !== undefined ? { account: inAccount } : {}) };
  return new Lookup(lookupName(where, args, name), props, resourceOpts).result as pulumi.Output<T>;
}

// The provider objects Pulumi serializes into state (`__provider`). They stay thin on purpose: each
// method names the resource kind and requires the installed implementation when it runs, so state
// holds a few hundred bytes instead of the whole provider, no credential is ever captured, and a
// package upgrade applies to read and delete of existing resources too.
import * as pulumi from "@pulumi/pulumi";
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** Module path of the implementation, resolved in the dynamic-provider process (project's node_modules). */
const IMPL = "pulumi-pagerduty-dynamic/dist/provider";

/**
 * Requires the implementation as seen from the project directory (the dynamic-provider process's
 * working directory). The host's own `require` belongs to a module without a file name, which finds
 * `node_modules` but not a package's self-reference; `createRequire` finds both, so the project at
 * this repository's root works too.
 */
function impl(): { configure(req: dynamic.ConfigureRequest, stack?: string): Promise<void>; resource(kind: string): Required<dynamic.ResourceProvider> } {
  return require("node:module").createRequire(`${process.cwd()}/`)(IMPL);
}

/**
 * The stack this program deploys, fully qualified, captured into the serialized provider: a create
 * receives neither URN nor stack, and recovery reads the stack's state (`pulumi stack export`).
 * Undefined outside a Pulumi run (the settings are missing there).
 */
function currentStack(): string | undefined {
  try {
    return `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, dynamic.ResourceProvider>();

/** One provider object per resource kind (Pulumi caches serialization per object). */
export function providerFor(kind: string): dynamic.ResourceProvider {
  let p = cache.get(kind);
  if (!p) {
    const stack = currentStack();
    p = {
      configure: (req) => impl().configure(req, stack),
      check: (olds, news) => impl().resource(kind).check(olds, news),
      diff: (id, olds, news) => impl().resource(kind).diff(id, olds, news),
      create: (inputs) => impl().resource(kind).create(inputs),
      read: (id, props) => impl().resource(kind).read(id, props),
      update: (id, olds, news) => impl().resource(kind).update(id, olds, news),
      delete: (id, props) => impl().resource(kind).delete(id, props),
    };
    cache.set(kind, p);
  }
  return p;
}

// The provider objects Pulumi serializes into state (`__provider`). They stay thin on purpose: each
// method names the resource kind and requires the installed implementation when it runs, so state
// holds a few hundred bytes instead of the whole provider, no credential is ever captured, and a
// package upgrade applies to read and delete of existing resources too.
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** Module path of the implementation, resolved in the dynamic-provider process (project's node_modules). */
const IMPL = "pulumi-pagerduty-dynamic/dist/provider";

/**
 * Requires the implementation as seen from the project directory (the dynamic-provider process's
 * working directory). The host's own `require` belongs to a module without a file name, which finds
 * `node_modules` but not a package's self-reference; `createRequire` finds both, so the project at
 * this repository's root works too.
 */
function impl(): { configure(req: dynamic.ConfigureRequest): Promise<void>; resource(kind: string): Required<dynamic.ResourceProvider> } {
  return require("node:module").createRequire(`${process.cwd()}/`)(IMPL);
}

const cache = new Map<string, dynamic.ResourceProvider>();

/** One provider object per resource kind (Pulumi caches serialization per object). */
export function providerFor(kind: string): dynamic.ResourceProvider {
  let p = cache.get(kind);
  if (!p) {
    p = {
      configure: (req) => impl().configure(req),
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

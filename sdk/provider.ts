// The provider objects Pulumi serializes into state (`__provider`). They stay thin on purpose: each
// method names the resource kind and requires the installed implementation when it runs, so state
// holds a few hundred bytes instead of the whole provider, no credential is ever captured, and a
// package upgrade applies to read and delete of existing resources too.
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** Module path of the implementation, resolved in the dynamic-provider process (project's node_modules). */
const IMPL = "pulumi-pagerduty-dynamic/dist/provider";

const cache = new Map<string, dynamic.ResourceProvider>();

/** One provider object per resource kind (Pulumi caches serialization per object). */
export function providerFor(kind: string): dynamic.ResourceProvider {
  let p = cache.get(kind);
  if (!p) {
    p = {
      configure: (req) => require(IMPL).configure(req),
      check: (olds, news) => require(IMPL).resource(kind).check(olds, news),
      diff: (id, olds, news) => require(IMPL).resource(kind).diff(id, olds, news),
      create: (inputs) => require(IMPL).resource(kind).create(inputs),
      read: (id, props) => require(IMPL).resource(kind).read(id, props),
      update: (id, olds, news) => require(IMPL).resource(kind).update(id, olds, news),
      delete: (id, props) => require(IMPL).resource(kind).delete(id, props),
    };
    cache.set(kind, p);
  }
  return p;
}

// The provider object of one resource kind, as Pulumi's dynamic-provider host calls it. Each kind's
// module in this directory exports one as its whole `module.exports`, and the SDK hands that object
// to the engine. Pulumi's closure serializer writes a captured object that is the exports of a
// module under `node_modules` as one `require("<package>/<subpath>")` line, so an installed package
// puts under 100 bytes in each resource's `__provider` (73 for a Service; see sdk/provider.ts). Where the package is
// not under `node_modules` (an npm workspace link, the package's own directory) the serializer
// inlines these methods instead: that is why they capture nothing but the kind and read the stack
// from nowhere (the program passes it with `__origin`, sdk/origin.ts). The implementation is
// required when a method runs, from the project directory, so the installed version always runs.
//
// Existing state names these modules' paths: they stay where they are for as long as state written
// with them may exist.
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** The implementation's entry, as seen from the project directory (the host's working directory). */
const IMPL = "pulumi-pagerduty-dynamic/dist/provider";

interface Implementation {
  configure(req: dynamic.ConfigureRequest): Promise<void>;
  providerOf(kind: string): Required<dynamic.ResourceProvider>;
}

let loaded: Implementation | undefined;

/**
 * The host's own `require` belongs to a module without a file name, which finds `node_modules` but
 * not a package's self-reference; `createRequire` finds both, so the project at this repository's
 * root works too. Resolved once per process (a resolution stats and reads package.json files: a
 * tenth of the process's time in an `up` when done per call); the process serves one deployment.
 */
function impl(): Implementation {
  loaded ??= require("node:module").createRequire(`${process.cwd()}/`)(IMPL) as Implementation;
  return loaded;
}

/** The provider object of `kind`: each method hands the call to the installed implementation. */
export function entry(kind: string): Required<dynamic.ResourceProvider> {
  return {
    configure: (req) => impl().configure(req),
    check: (olds, news) => impl().providerOf(kind).check(olds, news),
    diff: (id, olds, news) => impl().providerOf(kind).diff(id, olds, news),
    create: (inputs) => impl().providerOf(kind).create(inputs),
    read: (id, props) => impl().providerOf(kind).read(id, props),
    update: (id, olds, news) => impl().providerOf(kind).update(id, olds, news),
    delete: (id, props) => impl().providerOf(kind).delete(id, props),
  };
}

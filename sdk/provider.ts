// What a resource of this package hands the engine to find its provider. A dynamic resource's type
// is `pulumi-nodejs:dynamic/<module>:<kind>`, which the engine routes to Pulumi's dynamic-provider
// host, and its `__provider` input is JavaScript the host evaluates from the project directory,
// whose `exports.handler()` returns the provider object. `pulumi.dynamic.Resource` fills it with
// its closure serializer, whose output for a module's exports is the same `require` wrapped in about
// 250 bytes of function scaffolding, stored twice per resource (inputs and outputs). The classes here
// extend `CustomResource` and write the one line themselves: about 75 bytes, no credential, no
// per-program value, and the installed implementation runs for every operation (read and delete of
// existing resources included). With one constructor fewer on the stack, the engine's
// `sourcePosition` is the program's line that declared the resource, not this package's.
// The kinds' modules and their list (kind-providers.ts) are generated from the provider's registry.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import PROVIDERS = require("./providers");

/** The module `__provider` requires, as the project directory resolves it (package.json `exports`). */
export const PROVIDERS_MODULE = "pulumi-pagerduty-dynamic/providers";

const known = (kind: string): kind is keyof typeof PROVIDERS => Object.hasOwn(PROVIDERS, kind);

/** The provider object of a resource kind ("Lookup" for the get* functions). */
export function providerFor(kind: string): dynamic.ResourceProvider {
  if (!known(kind)) throw new TypeError(`no provider module for resource kind "${kind}"`);
  return PROVIDERS[kind];
}

/** The type the engine records for `kind`, as `dynamic.Resource` would make it. */
export function dynamicType(kind: string): string {
  providerFor(kind);
  return `pulumi-nodejs:dynamic/pagerduty:${kind}`;
}

/** The `__provider` of `kind`: one line the dynamic-provider host evaluates. */
export function providerSource(kind: string): string {
  providerFor(kind);
  return `exports.handler=()=>require(${JSON.stringify(PROVIDERS_MODULE)}).${kind}`;
}

/** `props` with the `__provider` of `kind` (the SDK's own keys start with `__`; a program's cannot). */
export function withProvider<T extends object>(kind: string, props: T): T & { __provider: string } {
  return { ...props, __provider: providerSource(kind) };
}

/**
 * Sets `Error.stackTraceLimit` to 0 and returns what it was, for the constructor to restore once
 * `super` returns. While a resource is constructed, the SDK wraps the promise of every property
 * (each output placeholder included) with a stack trace for its leak report, which ts-node's
 * source maps then map frame by frame: with 20 properties a resource that was most of the
 * program's CPU. The engine's source position is unaffected (the SDK lifts the limit for it).
 */
export function withoutPromiseStacks(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

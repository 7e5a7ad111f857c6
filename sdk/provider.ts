// The provider objects Pulumi serializes into state (`__provider`): one module per resource kind
// (./providers), whose exports are the object. Installed under `node_modules`, each serializes to a
// single `require("pulumi-pagerduty-dynamic/dist/sdk/providers/<kind>.js")` line: no credential, no
// per-program value, and the installed implementation runs for every operation, read and delete of
// existing resources included. The stack's name, which recovery needs, travels with `__origin`.
// The kinds' modules and their list (kind-providers.ts) are generated from the provider's registry.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { KIND_PROVIDERS } from "./kind-providers";
import lookup = require("./providers/lookup");

const PROVIDERS: Readonly<Record<string, dynamic.ResourceProvider>> = { ...KIND_PROVIDERS, Lookup: lookup };

/** The provider object of a resource kind ("Lookup" for the get* functions). */
export function providerFor(kind: string): dynamic.ResourceProvider {
  const p = Object.hasOwn(PROVIDERS, kind) ? PROVIDERS[kind] : undefined;
  if (!p) throw new TypeError(`no provider module for resource kind "${kind}"`);
  return p;
}

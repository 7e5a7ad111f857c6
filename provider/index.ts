// Entry point the serialized providers call into. The SDK's provider objects only name a resource
// kind and require this module at run time, so the code that runs is always the installed one.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configure as configureRuntime } from "./runtime";
import { provider as service } from "./resources/service";

const resources: Record<string, dynamic.ResourceProvider> = {
  Service: service,
};

export function resource(kind: string): dynamic.ResourceProvider {
  const p = resources[kind];
  if (!p) throw new Error(`pulumi-pagerduty-dynamic: unknown resource kind "${kind}" (installed package older than the program?)`);
  return p;
}

/** Called from every provider object's configure; the settings are process-wide. */
export async function configure(req: dynamic.ConfigureRequest): Promise<void> {
  configureRuntime((key) => req.config.get(key));
}

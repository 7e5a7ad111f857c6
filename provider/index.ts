// Entry point the serialized providers call into. The SDK's provider objects only name a resource
// kind and require this module at run time, so the code that runs is always the installed one.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { PagerDutyError } from "./errors";
import { configure as configureRuntime } from "./runtime";

/** Kind "ServiceEventRule" lives in ./resources/service-event-rule (one module per resource). */
const moduleOf = (kind: string) => kind.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

export function resource(kind: string): dynamic.ResourceProvider {
  if (!/^[A-Z][A-Za-z]+$/.test(kind)) throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}"`);
  try {
    return require(`./resources/${moduleOf(kind)}`).provider;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw e;
    throw new PagerDutyError("ERR_INPUT", `unknown resource kind "${kind}": the installed pulumi-pagerduty-dynamic is older than the program's`);
  }
}

/** Called from every provider object's configure; the settings are process-wide. */
export async function configure(req: dynamic.ConfigureRequest): Promise<void> {
  configureRuntime((key) => req.config.get(key));
}

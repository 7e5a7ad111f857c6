// The provenance key each resource that creates a remote object passes to its provider as the hidden
// input `__origin`: a hash of the URN the resource will have (provider/kernel/origin.ts, the one
// function both doors use; the plugin makes it from the URN the engine names). A create receives
// only inputs, never the URN; with this key it can tell that it is the retry of an interrupted
// create of the same declared resource.
//
// The program also sends the fully qualified stack name after the hash (`<hash>@<org>/<project>/<stack>`):
// the dynamic-provider process is told neither its stack nor its organization (configure gets the
// config only, creates get inputs only), and recovery reads the stack's state by name. The provider's
// check takes the name off (provider/index.ts), so the state keeps the hash alone.
import * as pulumi from "@pulumi/pulumi";
import { originKey } from "../provider/kernel/origin";
import { dynamicType } from "./provider";

/** The key for resource `name` of kind `kind` (e.g. "Service") with the given options. */
export function originOf(kind: string, name: string, opts?: pulumi.CustomResourceOptions): pulumi.Output<string> {
  const stack = currentStack();
  // The URN the engine gives the resource: the type the dynamic providers record, under its parents' types.
  return pulumi.createUrn(name, dynamicType(kind), opts?.parent).apply((urn) => (stack ? `${originKey(urn)}@${stack}` : originKey(urn)));
}

/** The stack this program deploys, fully qualified; undefined outside a Pulumi run (no settings there). */
function currentStack(): string | undefined {
  try {
    return `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    return undefined;
  }
}

// The provenance key each resource that creates a remote object passes to its provider as the hidden
// input `__origin`: a hash of project, stack, type, logical name and parent, i.e. of the URN the
// resource will have. A create receives only inputs, never the URN; with this key it can tell that
// it is the retry of an interrupted create of the same declared resource. It holds no user data and
// no secret, and the providers' diff ignores it (keys starting with "__" are not user inputs).
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** The key for resource `name` of `type` (e.g. "Service") with the given options. */
export function originOf(type: string, name: string, opts?: pulumi.CustomResourceOptions): pulumi.Output<string> {
  const parent = opts?.parent ? opts.parent.urn : pulumi.output("");
  return pulumi.output(parent).apply((p) =>
    createHash("sha256").update(JSON.stringify([pulumi.getProject(), pulumi.getStack(), `pagerduty:${type}`, name, p])).digest("hex").slice(0, 32),
  );
}

// The provenance key each resource that creates a remote object passes to its provider as the hidden
// input `__origin`: a hash of project, stack, type, logical name and parent, i.e. of the URN the
// resource will have. A create receives only inputs, never the URN; with this key it can tell that
// it is the retry of an interrupted create of the same declared resource. It holds no user data and
// no secret, and the providers' diff ignores it (keys starting with "__" are not user inputs).
//
// The program also sends the fully qualified stack name after the hash (`<hash>@<org>/<project>/<stack>`):
// the dynamic-provider process is told neither its stack nor its organization (configure gets the
// config only, creates get inputs only), and recovery reads the stack's state by name. The provider's
// check takes the name off (provider/index.ts), so the state keeps the hash alone.
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** The key for resource `name` of `type` (e.g. "Service") with the given options. */
export function originOf(type: string, name: string, opts?: pulumi.CustomResourceOptions): pulumi.Output<string> {
  const parent = opts?.parent ? opts.parent.urn : pulumi.output("");
  const stack = currentStack();
  return pulumi.output(parent).apply((p) => {
    const hash = createHash("sha256")
      .update(JSON.stringify([pulumi.getProject(), pulumi.getStack(), `pagerduty:${type}`, name, p]))
      .digest("hex")
      .slice(0, 32);
    return stack ? `${hash}@${stack}` : hash;
  });
}

/** The stack this program deploys, fully qualified; undefined outside a Pulumi run (no settings there). */
function currentStack(): string | undefined {
  try {
    return `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    return undefined;
  }
}

// Values PagerDuty keeps unique per account (a service's name, an integration's inbound address),
// claimed as the program declares its resources. Two resources of one program taking the same one
// would make the second create fail after the first was made (and after the objects it needs, such
// as its service), or let a later recovery hand the first one's object to the second. The
// second resource gets the hidden input `__conflict` saying so, and the provider's check fails with
// it: the preview fails naming both, and nothing is created. Values known only at apply are not
// checked here (PagerDuty refuses the second create then).
import * as pulumi from "@pulumi/pulumi";
import { type Account, accountName } from "./account";

const claims = new Map<string, string>();

/**
 * Claims `field` = `value` for resource `name` of `kind` in `account` (each account holds its own
 * names): the conflict, when another resource holds it.
 */
export function uniqueConflict(
  kind: string,
  name: string,
  field: string,
  value: pulumi.Input<string> | undefined,
  account?: pulumi.Input<string> | Account,
): pulumi.Output<string | undefined> {
  return pulumi.all([value, accountName(account)]).apply(([v, a]) => {
    if (typeof v !== "string") return undefined;
    const where = typeof a === "string" && a && a !== "default" ? a : "default";
    const key = JSON.stringify([kind, field, v, where]);
    const first = claims.get(key);
    if (first === undefined || first === name) {
      claims.set(key, name);
      return undefined;
    }
    return (
      `${kind} "${name}" and ${kind} "${first}" both set ${field} "${v}"${where === "default" ? "" : ` in account "${where}"`}: a PagerDuty account holds one ${kind} of each ${field}, ` +
      `so one create would fail or both resources would end up managing one object. Give each its own ${field}.`
    );
  });
}

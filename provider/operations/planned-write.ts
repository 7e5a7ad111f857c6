// A preview must not pass a change the credentials cannot deploy: with a read-only token (an app
// granted `services.read` only) the pull request's preview would be green and the `up` after the
// merge would fail. The granted scopes are known once the token is, so a planned write is judged
// then: a create or replacement at check, an update at diff. A refresh's own diff plans nothing, so
// a read-only token still runs drift checks.
import type { AccountContext } from "../account/context";
import { PagerDutyError } from "../errors";
import { WRITE } from "../kernel/api-paths";
import type { ResourceDefinition } from "../kernel/define";

const quoted = (scopes: readonly string[]) => scopes.map((s) => `"${s}"`).join(", ");

/** Why the credentials cannot make the planned `change` of a `definition` resource (undefined: they can, or it cannot be told). */
export async function writeRefused(ctx: AccountContext, definition: ResourceDefinition, change: string): Promise<string | undefined> {
  // A token that cannot be had is configure's to report; it is not this check's verdict.
  const missing = await ctx.client.missingScopes(definition.writeScopes ?? WRITE).catch(() => []);
  if (!missing.length) return undefined;
  return (
    `the program plans to ${change} this ${definition.kind}, and the credentials' token lacks ${quoted(missing)}, which that needs. ` +
    `A preview passes only what \`up\` can deploy: add the scope to the app and to "${ctx.client.settings.scopes}", ` +
    "or use these credentials for drift checks only"
  );
}

/** The same as an error, for a diff that plans an update. */
export async function assertWritable(ctx: AccountContext, definition: ResourceDefinition, change: string): Promise<void> {
  const refused = await writeRefused(ctx, definition, change);
  if (refused) throw new PagerDutyError("ERR_SCOPE", refused);
}

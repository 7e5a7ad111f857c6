// Who logged in: the reply's id_token verified against the keys the identity service publishes, and
// the account it names (region, subdomain) compared with the stack's settings, before anything is
// written. A token that fails verification or names another account ends the login; the browser
// tab is told first.
import { IdTokenError, verifyIdToken, type IdTokenIdentity } from "../auth/id-token";
import { describeSetting } from "../config";
import type { Transport } from "../http/transport";
import { AccountMismatchError, accountSettingSteps, type AccountSettingStep } from "./login-account";
import { EXIT, LoginError } from "./login-exit";
import type { LoginSettings } from "./login-settings";
import type { Redirect } from "./loopback-server";

/**
 * The settings the verified id_token determines, each to set or already matching; undefined, with a
 * warning, when the reply carries no id_token.
 */
export async function identitySettings(
  idToken: string | undefined,
  settings: LoginSettings,
  stack: Record<string, string> | undefined,
  ctx: { transport: Transport; say: (line: string) => void; callback: Redirect },
): Promise<AccountSettingStep[] | undefined> {
  const { account } = settings;
  if (!idToken) {
    ctx.say(
      `warning: the token reply carries no id_token, so the account logged in to could not be verified and "${account.key("serviceRegion")}" ` +
        `and "${account.key("subdomain")}" were not set from it; check them yourself.`,
    );
    return undefined;
  }
  let identity: IdTokenIdentity;
  try {
    identity = await verifyIdToken(idToken, {
      authUrl: settings.authUrl,
      setting: describeSetting("authUrl", account.name),
      clientId: settings.clientId,
      transport: ctx.transport,
      retry: settings.retry,
      userAgent: settings.userAgent,
    });
  } catch (e) {
    ctx.callback.reply(502, "Login failed", "The identity token could not be verified. Nothing was stored; see the terminal.");
    if (e instanceof IdTokenError) throw new LoginError(`the id_token failed verification: ${e.message}. Nothing was stored.`, EXIT.idToken, { cause: e });
    throw e;
  }
  const who = [identity.email, identity.accountName && `account ${identity.accountName}`].filter(Boolean).join(", ");
  ctx.say(`The id_token is verified${who ? ` (${who})` : ""}.`);
  for (const [setting, value] of [
    ["serviceRegion", identity.region],
    ["subdomain", identity.subdomain],
  ] as const) {
    if (value === undefined) ctx.say(`warning: the id_token does not name the account's ${setting}; check "${account.key(setting)}" yourself.`);
  }
  try {
    return accountSettingSteps(account, stack, identity);
  } catch (e) {
    if (!(e instanceof AccountMismatchError)) throw e;
    ctx.callback.reply(409, "Login failed", "You logged in to another account than the stack is configured for. Nothing was stored; see the terminal.");
    throw new LoginError(e.message, EXIT.accountMismatch, { cause: e });
  }
}

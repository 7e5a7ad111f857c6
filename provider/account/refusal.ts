// A refusal of an account's credentials themselves (401 to an API key, invalid_client to an app,
// invalid_grant to a refresh token), worded as a configuration error that names the account and the
// settings to fix. Shared by the provider's credential check and the CLIs.
import { DEFAULT_ACCOUNT, describeSetting, type ProviderSettings } from "../config";
import { ApiError, ConfigError, TokenError } from "../errors";

/** How messages name an account. */
export const accountLabel = (account: string) => (account === DEFAULT_ACCOUNT ? "the default account" : `account "${account}"`);

/** The refusal as a ConfigError naming the settings (and `advice` after it); any other error as it is. */
export function credentialsRefused(settings: ProviderSettings, e: unknown, advice = ""): unknown {
  const kind = settings.credentials.kind;
  let keys: ReadonlyArray<"token" | "refreshToken" | "clientId" | "clientSecret"> | undefined;
  if (e instanceof ApiError && e.status === 401 && kind === "api_key") keys = ["token"];
  else if (e instanceof TokenError && e.oauthError === "invalid_grant" && kind === "refresh_token") keys = ["refreshToken"];
  else if (e instanceof TokenError && (e.status === 400 || e.status === 401) && kind !== "api_key") keys = ["clientId", "clientSecret"];
  if (!keys) return e;
  const named = keys.map((k) => describeSetting(k, settings.account)).join(" and ");
  // The default account is not named: a stack with one account never hears of accounts.
  const whose = settings.account === DEFAULT_ACCOUNT ? "" : ` of ${accountLabel(settings.account)}`;
  return new ConfigError(`PagerDuty refused the credentials${whose} in ${named}: ${(e as Error).message}${advice ? `. ${advice}` : ""}`);
}

// A refusal of an account's credentials themselves (401 to an API key, invalid_client to an app,
// invalid_grant to a refresh token), worded as a configuration error that names the account and the
// settings to fix. Shared by the provider's credential check and the CLIs. Credentials used in the
// wrong service region are refused too, but then the credentials are fine and the region settings
// are what is wrong: those refusals name `serviceRegion`, `apiUrl` or `subdomain` instead.
import { DEFAULT_ACCOUNT, describeSetting, type ProviderSettings } from "../config";
import { ApiError, ConfigError, TokenError } from "../errors";

/** How messages name an account. */
export const accountLabel = (account: string) => (account === DEFAULT_ACCOUNT ? "the default account" : `account "${account}"`);

/** The refusal as a ConfigError naming the settings (and `advice` after it); any other error as it is. */
export function credentialsRefused(settings: ProviderSettings, e: unknown, advice = ""): unknown {
  const kind = settings.credentials.kind;
  const region = regionRefused(settings, e);
  if (region) return region;
  let keys: ReadonlyArray<"token" | "refreshToken" | "clientId" | "clientSecret"> | undefined;
  if (e instanceof ApiError && e.status === 401 && kind === "api_key") keys = ["token"];
  else if (e instanceof TokenError && e.oauthError === "invalid_grant" && kind === "refresh_token") keys = ["refreshToken"];
  else if (e instanceof TokenError && (e.status === 400 || e.status === 401) && kind !== "api_key") keys = ["clientId", "clientSecret"];
  if (!keys) return e;
  const named = keys.map((k) => describeSetting(k, settings.account, settings.namespace)).join(" and ");
  // The default account is not named: a stack with one account never hears of accounts.
  const whose = settings.account === DEFAULT_ACCOUNT ? "" : ` of ${accountLabel(settings.account)}`;
  return new ConfigError(`PagerDuty refused the credentials${whose} in ${named}: ${(e as Error).message}${advice ? `. ${advice}` : ""}`);
}

/**
 * A 401 from the REST API that is about the region, not the credential: the API says so (PagerDuty
 * keeps an account's data in one region and its REST API in that region answers for it), or the
 * credential is an OAuth token the identity service has just issued, which only a REST API of
 * another region would refuse. Also the client-credentials grant's refusal of the account selector
 * `as_account-<region>.<subdomain>`, which names no account of that region.
 */
export function regionRefused(settings: ProviderSettings, e: unknown): ConfigError | undefined {
  const whose = accountLabel(settings.account);
  const setting = (k: "serviceRegion" | "apiUrl" | "subdomain") => describeSetting(k, settings.account, settings.namespace);
  if (e instanceof TokenError && e.oauthError === "invalid_scope" && settings.credentials.kind === "client_credentials") {
    return new ConfigError(
      `PagerDuty's identity service found no account "${settings.subdomain}" in the ${settings.serviceRegion.toUpperCase()} service region for ${whose}: ` +
        `${e.message}. ` +
        `Set ${setting("subdomain")} to the account's subdomain and ${setting("serviceRegion")} to its service region ("us" or "eu"; now ` +
        `"${settings.serviceRegion}")`,
    );
  }
  if (!(e instanceof ApiError) || e.status !== 401) return undefined;
  const aboutRegion = /\bregion\b/i.test([e.apiMessage ?? "", ...e.errors].join(" "));
  if (!aboutRegion && settings.credentials.kind === "api_key") return undefined;
  return new ConfigError(
    `PagerDuty's REST API at ${settings.apiUrl} refused the credentials of ${whose}, which belong to an account of another service region: ${e.message}. ` +
      `Set ${setting("serviceRegion")} to the account's service region ("us" or "eu"; now "${settings.serviceRegion}") and ${setting("apiUrl")} to that ` +
      `region's REST API, or leave it unset for PagerDuty's own`,
  );
}

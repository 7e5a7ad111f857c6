// What a login needs before it opens the browser: the OAuth client, the identity service's URL and
// the scopes, resolved as the provider resolves them (flags > stack config > environment; a named
// account from its entry of `pagerduty:accounts` alone). The provider's own resolution validates
// the URL (https, or http to loopback) before the client secret is sent anywhere.
import { ACCOUNTS_KEY, CONFIG_KEYS, resolveSettings } from "../config";
import { ConfigError } from "../errors";
import type { RetryOptions } from "../http/retry";
import { loginAccount, type LoginAccount } from "./login-account";

/** The flags that override the stack's settings. */
export interface ClientFlags {
  /** A name of `pagerduty:accounts`; undefined or "default": the top-level settings. */
  account?: string;
  clientId?: string;
  authUrl?: string;
  scopes?: string;
}

export interface LoginSettings {
  account: LoginAccount;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  scopes: string[];
  userAgent: string;
  retry: Required<RetryOptions>;
  /** Whether the stack config already holds the client settings the provider will need. */
  stackHasClient: boolean;
}

/** Stands in for the refresh token being obtained, so the provider's resolution yields the refresh-token mode. */
const BEING_OBTAINED = "(being obtained)";

/** The settings, or a ConfigError naming the key (and flag, and variable) that is missing or wrong. */
export function loginSettings(flags: ClientFlags, stack: Record<string, string> | undefined, env: NodeJS.ProcessEnv): LoginSettings {
  const account = loginAccount(flags.account);
  if (account.named) return namedAccountSettings(account, flags, stack, env);
  const given: Record<string, string | undefined> = {
    [CONFIG_KEYS.clientId[0]]: flags.clientId,
    [CONFIG_KEYS.authUrl[0]]: flags.authUrl,
    [CONFIG_KEYS.scopes[0]]: flags.scopes,
    [CONFIG_KEYS.refreshToken[0]]: BEING_OBTAINED,
  };
  const get = (key: string) => given[key] ?? stack?.[key];
  // Said in login terms first; resolveSettings would word these relative to the refresh token.
  const [idKey, idEnv] = CONFIG_KEYS.clientId;
  const [secretKey, secretEnv] = CONFIG_KEYS.clientSecret;
  if (!get(idKey)?.trim() && !env[idEnv]?.trim()) throw new ConfigError(`no client id: pass --client-id, or set "${idKey}" in the stack or ${idEnv}`);
  if (!get(secretKey)?.trim() && !env[secretEnv]?.trim())
    throw new ConfigError(`no client secret: set ${secretEnv} in the environment, or "${secretKey}" in the stack (pulumi config set --secret ${secretKey})`);
  return fromSettings(account, get, env, stack !== undefined && idKey in stack && secretKey in stack);
}

/**
 * A named account: its entry of `pagerduty:accounts` with the flags laid over it. Like the
 * provider it reads nothing from the environment, except the client secret (the login's documented
 * way to keep it off the command line and out of the stack).
 */
function namedAccountSettings(account: LoginAccount, flags: ClientFlags, stack: Record<string, string> | undefined, env: NodeJS.ProcessEnv): LoginSettings {
  const stored = account.entry(stack);
  const entry: Record<string, unknown> = { ...stored };
  if (flags.clientId) entry.clientId = flags.clientId;
  if (flags.authUrl) entry.authUrl = flags.authUrl;
  if (flags.scopes) entry.scopes = flags.scopes;
  const has = (v: unknown) => typeof v === "string" && v.trim() !== "";
  if (!has(entry.clientId))
    throw new ConfigError(`no client id for account "${account.name}": pass --client-id, or set "${account.key("clientId")}" in the stack`);
  const secretEnv = CONFIG_KEYS.clientSecret[1];
  if (!has(entry.clientSecret)) {
    if (!env[secretEnv]?.trim()) {
      throw new ConfigError(
        `no client secret for account "${account.name}": set ${secretEnv} in the environment, or "${account.key("clientSecret")}" in the stack ` +
          `(pulumi config set --path --secret ${account.key("clientSecret")})`,
      );
    }
    entry.clientSecret = env[secretEnv]!.trim();
  }
  entry.refreshToken = BEING_OBTAINED;
  const accounts = JSON.stringify({ [account.name]: entry });
  return fromSettings(account, (key) => (key === ACCOUNTS_KEY ? accounts : undefined), env, has(stored.clientId) && has(stored.clientSecret));
}

function fromSettings(account: LoginAccount, get: (key: string) => string | undefined, env: NodeJS.ProcessEnv, stackHasClient: boolean): LoginSettings {
  const settings = resolveSettings(get, env, account.name);
  if (settings.credentials.kind !== "refresh_token") throw new Error("internal: expected refresh-token settings");
  return {
    account,
    clientId: settings.credentials.clientId,
    clientSecret: settings.credentials.clientSecret,
    authUrl: settings.authUrl,
    scopes: settings.scopes,
    userAgent: settings.userAgent,
    retry: settings.retry,
    stackHasClient,
  };
}

/** What the provider still needs for the account's user-token mode, when the stack lacks the client. */
export function clientHint(account: LoginAccount): string {
  if (account.named) {
    return (
      `The provider also needs "${account.key("clientId")}" and "${account.key("clientSecret")}" (pulumi config set --path --secret ` +
      `${account.key("clientSecret")}) in that stack; named accounts do not read the environment.`
    );
  }
  return (
    `The provider also needs "${CONFIG_KEYS.clientId[0]}" and "${CONFIG_KEYS.clientSecret[0]}" (pulumi config set --secret ` +
    `${CONFIG_KEYS.clientSecret[0]}) in that stack, or ${CONFIG_KEYS.clientId[1]} and ${CONFIG_KEYS.clientSecret[1]} in the environment.`
  );
}

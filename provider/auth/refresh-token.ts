// User tokens from a refresh token. The service rotates the refresh token on every use and the
// old one stops working, so the rotated one must outlive the process. Behaviour:
// - Each configured refresh token starts a lineage with one cache entry (RefreshTokenCache.key).
//   The first refresh spends the configured token; the rotated token is saved atomically before
//   the new access token is used, and later processes start from the saved one.
// - A new token in config is a new lineage: it is used as is, never shadowed by an older entry.
// - A saved token PagerDuty rejects (invalid_grant) is removed, and the error says to obtain a
//   new token; the configured one is not tried again, as it was spent when the entry was written.
// - Refreshes of one lineage are serialized across processes by a lock file, so two concurrent
//   `pulumi` runs never spend the same token.
// - If the rotated token cannot be saved, this process keeps it in memory and warns.
// The cache is per machine: a token spent on one machine does not work on another.
import { TokenError } from "../errors";
import { clientSecretPost } from "./client-auth";
import { RefreshTokenCache } from "./token-cache";
import { processTokenResponse, refreshTokenGrant, type TokenEndpoint, type TokenSet } from "./token-endpoint";
import { RenewingTokenSource, type RenewOptions } from "./token-source";

export interface RefreshCredentials {
  clientId: string;
  /** Always sent on the refresh grant, confidential client or not. */
  clientSecret: string;
  /** The token from config: the start of the lineage, spent once refreshed. */
  refreshToken: string;
  /** Its key as messages name it, in the door's terms (default `pagerduty:refreshToken`). */
  setting?: string;
}

export function refreshTokenSource(
  endpoint: TokenEndpoint,
  creds: RefreshCredentials,
  cache: RefreshTokenCache,
  warn: (message: string) => void,
  renew?: RenewOptions,
): RenewingTokenSource {
  const auth = clientSecretPost(creds.clientId, creds.clientSecret);
  const key = RefreshTokenCache.key(endpoint.url, creds.clientId, creds.refreshToken);
  const setting = creds.setting ?? "pagerduty:refreshToken";
  // The newest token this process holds, and what the file held when we last read or wrote it:
  // if the file changed since, another process rotated the token and the file is newer.
  let latest: string | undefined;
  let lastSeenInFile: string | undefined;

  const refresh = async (): Promise<TokenSet> => {
    const inFile = await cache.read(key);
    const fromOtherProcess = inFile !== undefined && inFile !== lastSeenInFile;
    const current = (fromOtherProcess ? inFile : latest) ?? inFile ?? creds.refreshToken;
    lastSeenInFile = inFile;
    const secrets = [creds.clientSecret, creds.refreshToken, current];
    let set: TokenSet;
    try {
      set = processTokenResponse(await refreshTokenGrant(endpoint, auth, current), { secrets });
    } catch (e) {
      if (e instanceof TokenError && e.oauthError === "invalid_grant") throw await rejected(e, current === inFile, current === creds.refreshToken);
      throw e;
    }
    if (set.refreshToken && set.refreshToken !== current) {
      latest = set.refreshToken;
      try {
        await cache.write(key, set.refreshToken);
        lastSeenInFile = set.refreshToken;
      } catch (e) {
        warn(
          `could not save the rotated refresh token to ${cache.path(key)} (${(e as Error).message}); ` +
            `it is kept for this process only, and the next run will need a new ${setting}`,
        );
      }
    }
    return set;
  };

  /** Explains a dead refresh token and drops a dead cache entry so it is not tried again. */
  const rejected = async (e: TokenError, wasCached: boolean, wasConfigured: boolean): Promise<TokenError> => {
    let hint = "the refresh token rotated by this process was rejected";
    if (wasCached) {
      await cache.remove(key);
      lastSeenInFile = undefined;
      hint =
        `the rotated refresh token cached for this ${setting} (${cache.path(key)}) was rejected and removed; ` +
        "the configured one was spent when it was first used";
    } else if (wasConfigured) {
      hint =
        `${setting} was rejected; each refresh rotates it, so it stops working once used ` +
        `(a process that used it keeps the rotated token under ${cache.dir} on that machine)`;
    }
    return new TokenError(`${e.message}; ${hint}. Obtain a new refresh token and set ${setting}`, {
      oauthError: e.oauthError!,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.response ? { response: e.response } : {}),
    });
  };

  return new RenewingTokenSource(() => cache.withLock(key, refresh), renew);
}

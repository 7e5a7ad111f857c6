// Scoped OAuth app tokens: the client-credentials grant, asking for the configured scopes on the
// configured account. Tokens are cheap to fetch again, so nothing is written to disk.
import { clientSecretPost } from "./client-auth";
import { accountScope } from "./scopes";
import { clientCredentialsGrant, processTokenResponse, type TokenEndpoint } from "./token-endpoint";
import { RenewingTokenSource, type RenewOptions } from "./token-source";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  region: string;
  subdomain: string;
  scopes: readonly string[];
}

export function clientCredentialsSource(endpoint: TokenEndpoint, creds: ClientCredentials, renew?: RenewOptions): RenewingTokenSource {
  const auth = clientSecretPost(creds.clientId, creds.clientSecret);
  const scope = accountScope(creds.region, creds.subdomain, creds.scopes);
  return new RenewingTokenSource(async () => {
    const response = await clientCredentialsGrant(endpoint, auth, scope);
    return processTokenResponse(response, { secrets: [creds.clientSecret] });
  }, renew);
}

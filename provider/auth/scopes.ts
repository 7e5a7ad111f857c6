// The account selector the client-credentials grant needs. (The default scopes are settings:
// config.ts; comparing what was granted with what a call needs is the client's: http/credential.ts.)

/** `as_account-us.acme services.read ...`: app tokens must name the account they act on. */
export function accountScope(region: string, subdomain: string, scopes: readonly string[]): string {
  return [`as_account-${region}.${subdomain}`, ...scopes].join(" ");
}

// Scope strings: the account selector the client-credentials grant needs, and the comparison of a
// granted scope with what an operation needs (the service grants less than asked without an error).

/** The minimum the resources need (API-NOTES §1): services and their children, field definitions, audit. */
export const DEFAULT_SCOPES: readonly string[] = ["services.read", "services.write", "custom_fields.read", "audit_records.read"];

/** `as_account-us.acme services.read ...`: app tokens must name the account they act on. */
export function accountScope(region: string, subdomain: string, scopes: readonly string[]): string {
  return [`as_account-${region}.${subdomain}`, ...scopes].join(" ");
}

/**
 * The required scopes the grant does not cover. Classic user tokens carry `read` / `write`
 * instead of per-resource scopes: `write` covers everything, `read` every `*.read`.
 */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return required.filter((s) => !have.has(s) && !have.has("write") && !(have.has("read") && s.endsWith(".read")));
}

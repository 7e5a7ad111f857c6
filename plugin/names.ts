// The package's name and type tokens. "pagerduty-dynamic", not "pagerduty": that namespace (type
// tokens `pagerduty:index:*`, config keys `pagerduty:*`) belongs to @pulumi/pagerduty, the bridged
// Terraform provider, and a stack may use both packages; the dynamic providers' own `pagerduty:*`
// config keys stay theirs. The name is also the plugin's executable, `pulumi-resource-pagerduty-dynamic`.
import { PACKAGE_MODULE as MODULE, PACKAGE_NAME } from "../provider/kernel/recorded-type";

export const PACKAGE = PACKAGE_NAME;

/** The type token of a resource kind or a named object type: `pagerduty-dynamic:index:Service`. */
export const token = (name: string) => `${PACKAGE}:${MODULE}:${name}`;

/** The name a token of this package gives (undefined: not one of this package's tokens). */
export function nameOfToken(tok: string): string | undefined {
  const prefix = `${PACKAGE}:${MODULE}:`;
  return tok.startsWith(prefix) ? tok.slice(prefix.length) : undefined;
}

/** The provider resource's type, as the engine names it (`pulumi:providers:pagerduty-dynamic`). */
export const PROVIDER_TYPE = `pulumi:providers:${PACKAGE}`;

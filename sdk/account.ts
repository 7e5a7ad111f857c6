// The account a resource or lookup lives in. Only its name travels: credentials stay in the stack
// config (`pagerduty:accounts`), which the provider process reads on every run, so nothing secret
// enters inputs, state or the serialized provider.
import type * as pulumi from "@pulumi/pulumi";

const NAME = /^[a-z][a-z0-9_-]{0,39}$/i;

/**
 * A named account of the stack config: `new Account("eu")` stands for the settings under
 * `pagerduty:accounts.eu`. `Account.default` is the top-level `pagerduty:*` settings, which every
 * resource that names no account uses.
 */
export class Account {
  static readonly default = new Account("default");

  constructor(readonly name: string) {
    if (!NAME.test(name)) throw new Error(`Account name must be a letter followed by up to 39 letters, digits, "-" or "_"; got ${JSON.stringify(name)}`);
  }

  toString(): string {
    return this.name;
  }
}

/** What a resource passes to its provider as the `account` input: the name. */
export function accountName(account: pulumi.Input<string> | Account | undefined): pulumi.Input<string> | undefined {
  return account instanceof Account ? account.name : account;
}

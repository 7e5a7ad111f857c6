// The account pagerduty-login logs in for: the default account's top-level `pagerduty:*` keys, or a
// named account's entry of `pagerduty:accounts` (written with `pulumi config set --path`). Says
// which keys a login writes, with which `pulumi config set` arguments, and what the stack already
// holds there, so the flow compares the id_token's account with the stack before storing anything.
import { ACCOUNTS_KEY, CONFIG_KEYS, DEFAULT_ACCOUNT, parseAccounts } from "../config";
import { ConfigError } from "../errors";
import type { IdTokenIdentity } from "../auth/id-token";

/** The settings a login writes or checks. */
export type LoginSetting = "clientId" | "clientSecret" | "refreshToken" | "serviceRegion" | "subdomain";

export interface LoginAccount {
  /** "default" or a name of `pagerduty:accounts`. */
  name: string;
  named: boolean;
  /** The stack-config key, e.g. "pagerduty:accounts.eu.refreshToken". */
  key(s: LoginSetting): string;
  /** `pulumi config set` arguments storing the secret `s`; its value goes on stdin. */
  setSecretArgs(s: LoginSetting): string[];
  /** `pulumi config set` arguments storing the plain value of `s`. */
  setArgs(s: LoginSetting, value: string): string[];
  /** The stack's value of `s` (never the environment's); undefined when unset or no stack was read. */
  stackValue(stack: Record<string, string> | undefined, s: LoginSetting): string | undefined;
  /** The account's entry of `pagerduty:accounts` in the stack (named accounts only; {} when absent). */
  entry(stack: Record<string, string> | undefined): Record<string, unknown>;
}

export function loginAccount(name: string = DEFAULT_ACCOUNT): LoginAccount {
  if (name === DEFAULT_ACCOUNT) {
    return {
      name,
      named: false,
      key: (s) => CONFIG_KEYS[s][0],
      setSecretArgs: (s) => ["config", "set", "--secret", CONFIG_KEYS[s][0]],
      // "--": a value may start with "-". Top-level values are always stored as strings.
      setArgs: (s, value) => ["config", "set", "--", CONFIG_KEYS[s][0], value],
      stackValue: (stack, s) => nonEmpty(stack?.[CONFIG_KEYS[s][0]]),
      entry: () => ({}),
    };
  }
  const key = (s: LoginSetting) => `${ACCOUNTS_KEY}.${name}.${s}`;
  const entry = (stack: Record<string, string> | undefined) => ({ ...(parseAccounts(stack?.[ACCOUNTS_KEY]).get(name) ?? {}) });
  return {
    name,
    named: true,
    key,
    // A secret set through --path stays a string whatever it looks like (checked with pulumi 3.248).
    setSecretArgs: (s) => ["config", "set", "--path", "--secret", key(s)],
    // Inside a map, --path stores "true" or digits as a bool or number, which the provider refuses
    // for a subdomain; --type string (not in older CLIs) is added only for such values.
    setArgs: (s, value) => ["config", "set", "--path", ...(/^(true|false|-?\d+)$/i.test(value) ? ["--type", "string"] : []), "--", key(s), value],
    stackValue: (stack, s) => {
      const v = entry(stack)[s];
      return typeof v === "string" ? nonEmpty(v) : v === undefined ? undefined : String(v);
    },
    entry,
  };
}

/** The stack's value of a setting differs from what the id_token says of the account logged in to. */
export class AccountMismatchError extends ConfigError {
  constructor(readonly mismatches: readonly Mismatch[]) {
    super(
      `the id_token is for ${mismatches.map((m) => `${m.setting} ${JSON.stringify(m.fromToken)}`).join(" and ")}, but the stack has ` +
        `${mismatches.map((m) => `"${m.key}" = ${JSON.stringify(m.inStack)}`).join(" and ")}; nothing was stored. ` +
        "Log in as a user of the account the stack is configured for, or change the setting (or use another --account).",
    );
    this.name = "AccountMismatchError";
  }
}

export interface Mismatch {
  setting: "serviceRegion" | "subdomain";
  key: string;
  inStack: string;
  fromToken: string;
}

/** One setting the id_token determines: set it, or it already matches. */
export interface AccountSettingStep {
  setting: "serviceRegion" | "subdomain";
  key: string;
  value: string;
  /** The stack already holds this value. */
  matches: boolean;
}

/**
 * The region and subdomain the verified id_token names, against the stack's values. Throws
 * AccountMismatchError when the stack holds a different value for either (case aside: the
 * provider lower-cases both).
 */
export function accountSettingSteps(account: LoginAccount, stack: Record<string, string> | undefined, identity: IdTokenIdentity): AccountSettingStep[] {
  const steps: AccountSettingStep[] = [];
  const mismatches: Mismatch[] = [];
  for (const [setting, value] of [
    ["serviceRegion", identity.region],
    ["subdomain", identity.subdomain],
  ] as const) {
    if (value === undefined) continue;
    const key = account.key(setting);
    const inStack = account.stackValue(stack, setting);
    if (inStack !== undefined && inStack.toLowerCase() !== value) mismatches.push({ setting, key, inStack, fromToken: value });
    steps.push({ setting, key, value, matches: inStack?.toLowerCase() === value });
  }
  if (mismatches.length) throw new AccountMismatchError(mismatches);
  return steps;
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

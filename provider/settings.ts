// Every setting of the provider, described once: its name, environment variable, value type,
// default, whether it is a secret, whether a named account may set it, and what it means. The
// dynamic providers' keys (`pagerduty:<name>`, config.ts), the package's (`pagerduty-dynamic:<name>`,
// plugin/config.ts and its schema) and the README's settings table (`npm run generate`) all come
// from this table, and so does every message that names a setting: in the namespace of the door
// the settings came through.

/**
 * The two doors' namespaces of stack config: the dynamic providers read `pagerduty:<name>`, the
 * package's plugin `pagerduty-dynamic:<name>` (in a package stack `pagerduty:*` belongs to
 * @pulumi/pagerduty, the bridged Terraform provider, which a stack may use beside this package).
 */
export const NAMESPACES = { dynamic: "pagerduty", package: "pagerduty-dynamic" } as const;

/** How a program reaches the resources: the SDK's dynamic providers, or the package's plugin. */
export type Door = keyof typeof NAMESPACES;

/** A door's namespace of stack config. */
export type Namespace = (typeof NAMESPACES)[Door];

export type SettingType = "string" | "integer" | "number" | "boolean";

export interface SettingSpec {
  /** Its environment variable, read when the stack config leaves the setting unset. */
  env: string;
  type: SettingType;
  /** What it means, a sentence or two. */
  description: string;
  /** The default, in words (none: unset unless given). */
  default?: string;
  /** Set it with `--secret`: it is a credential. */
  secret?: true;
  /** A named account of `accounts` may set it too (else it is the stack's, or the default account's). */
  perAccount?: true;
}

/** The default of maxConcurrency: requests in flight at once per account. */
export const DEFAULT_MAX_CONCURRENCY = 32;

/**
 * The default of consistencyWindow by region, in seconds: as long as PagerDuty's own Terraform
 * provider waits for a new object (2 minutes; 5 in the EU since its issue #1088). docs/consistency.md
 * states them (tests/unit/docs-facts.test.ts).
 */
export const DEFAULT_CONSISTENCY_WINDOW_S = { us: 120, eu: 300 } as const;

export const SETTINGS = {
  clientId: {
    env: "PAGERDUTY_CLIENT_ID",
    type: "string",
    perAccount: true,
    description: "Scoped OAuth app client id: a client-credentials app token, the default way to authenticate.",
  },
  clientSecret: {
    env: "PAGERDUTY_CLIENT_SECRET",
    type: "string",
    secret: true,
    perAccount: true,
    description:
      "Its client secret. Set it on stdin or at the prompt (`... | pulumi config set --secret KEY`), not as an argument: arguments stay in shell history.",
  },
  subdomain: {
    env: "PAGERDUTY_SUBDOMAIN",
    type: "string",
    perAccount: true,
    description: 'The account\'s subdomain ("acme" for acme.pagerduty.com), for the `as_account-<region>.<subdomain>` scope of an app token.',
  },
  serviceRegion: {
    env: "PAGERDUTY_SERVICE_REGION",
    type: "string",
    perAccount: true,
    default: '"us"',
    description: '"us" or "eu": where the account\'s data lives; picks the default hosts.',
  },
  scopes: {
    env: "PAGERDUTY_SCOPES",
    type: "string",
    perAccount: true,
    default: "the minimum the resources need",
    description: "Space-separated scopes to request.",
  },
  token: {
    env: "PAGERDUTY_TOKEN",
    type: "string",
    secret: true,
    perAccount: true,
    description: "An API key instead of OAuth (`Authorization: Token token=...`).",
  },
  refreshToken: {
    env: "PAGERDUTY_REFRESH_TOKEN",
    type: "string",
    secret: true,
    perAccount: true,
    description: "User token mode: a refresh token from the authorization-code flow (`npx --no-install pagerduty-login`), with clientId and clientSecret.",
  },
  apiUrl: {
    env: "PAGERDUTY_API_URL",
    type: "string",
    perAccount: true,
    default: "https://api.pagerduty.com (https://api.eu.pagerduty.com for eu)",
    description: "REST base URL. HTTPS, except on loopback hosts.",
  },
  authUrl: {
    env: "PAGERDUTY_AUTH_URL",
    type: "string",
    perAccount: true,
    default: "https://identity.pagerduty.com",
    description: "Identity (OAuth) base URL. HTTPS, except on loopback hosts.",
  },
  maxConcurrency: {
    env: "PAGERDUTY_MAX_CONCURRENCY",
    type: "integer",
    perAccount: true,
    default: String(DEFAULT_MAX_CONCURRENCY),
    description: "Requests in flight at once per account.",
  },
  requestsPerMinute: {
    env: "PAGERDUTY_REQUESTS_PER_MINUTE",
    type: "integer",
    perAccount: true,
    default: "none: PagerDuty's reported budget alone paces",
    description: "A static ceiling in requests per minute per account.",
  },
  consistencyWindow: {
    env: "PAGERDUTY_CONSISTENCY_WINDOW",
    type: "number",
    perAccount: true,
    default: `${DEFAULT_CONSISTENCY_WINDOW_S.us} (us), ${DEFAULT_CONSISTENCY_WINDOW_S.eu} (eu)`,
    description: "Seconds a new object may stay invisible (404, left out of listings) after its create (docs/consistency.md).",
  },
  driftAllFields: {
    env: "PAGERDUTY_DRIFT_ALL_FIELDS",
    type: "boolean",
    default: "false",
    description: "true: refresh also reports out-of-band changes to fields the program leaves unset (docs/drift-and-gitops.md).",
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The setting holding the named accounts: a map from a name to that account's settings. */
export const ACCOUNTS_SETTING = "accounts";

/** Its description, for the tables and the package's schema. */
export const ACCOUNTS_DESCRIPTION =
  "More accounts beside the default one: a map from a name to that account's settings (the per-account settings above); a named account inherits nothing.";

/** Something for every setting, by name (each door's keys, say). */
export function perSetting<T>(f: (name: SettingName) => T): Record<SettingName, T> {
  const out = {} as Record<SettingName, T>;
  for (const name of SETTING_NAMES) out[name] = f(name);
  return out;
}

// The plugin's settings: the same settings as the dynamic providers' (provider/config.ts), under
// the package's own namespace, `pagerduty-dynamic:<name>`, so they never collide with
// @pulumi/pagerduty's `pagerduty:*` keys. The engine hands a provider its settings in Configure:
// the stack config of this namespace for the default provider, the resource's inputs for an
// explicit `Provider` (each provider resource runs in a process of its own, so a second account is
// a second provider). The dynamic providers' resolution reads them under their `pagerduty:` names.
import { z } from "zod";
import type { CONFIG_KEYS } from "../provider/config";
import { UNKNOWN } from "../provider/kernel/check";
import { named } from "../provider/kernel/define";
import { PACKAGE } from "./names";

type SettingName = keyof typeof CONFIG_KEYS | "accounts";

export interface ConfigSetting {
  name: SettingName;
  /** Its type, for the schema. */
  schema: z.ZodTypeAny;
  description: string;
  secret?: boolean;
}

const s = z.string();
const n = z.number();

/** One account's settings, as an entry of `accounts`. */
const accountSettings = named(
  "AccountSettings",
  z
    .object({
      clientId: s.optional().describe("Scoped OAuth app client id."),
      clientSecret: s.optional().describe("Its client secret (set it as a secret)."),
      subdomain: s.optional().describe("The account's subdomain."),
      serviceRegion: s.optional().describe('"us" or "eu".'),
      apiUrl: s.optional().describe("REST base URL."),
      authUrl: s.optional().describe("Identity base URL."),
      token: s.optional().describe("An API key instead of OAuth (set it as a secret)."),
      refreshToken: s.optional().describe("A user token's refresh token (set it as a secret)."),
      scopes: s.optional().describe("Space-separated scopes to request."),
      maxConcurrency: n.int().optional().describe("Requests in flight at once."),
      requestsPerMinute: n.int().optional().describe("Static ceiling in requests per minute."),
      consistencyWindow: n.optional().describe("Seconds a new object may stay invisible after its create."),
    })
    .describe("One named account's settings; it inherits nothing from the provider's own."),
);

/** Every setting, with the environment variable it falls back to (as for the dynamic providers). */
export const CONFIG_SETTINGS: readonly ConfigSetting[] = [
  { name: "clientId", schema: s, description: "Scoped OAuth app client id (client-credentials app token). Env: PAGERDUTY_CLIENT_ID." },
  { name: "clientSecret", schema: s, secret: true, description: "Its client secret. Env: PAGERDUTY_CLIENT_SECRET." },
  { name: "subdomain", schema: s, description: "The account's subdomain (acme for acme.pagerduty.com). Env: PAGERDUTY_SUBDOMAIN." },
  { name: "serviceRegion", schema: s, description: '"us" (default) or "eu"; picks the default hosts. Env: PAGERDUTY_SERVICE_REGION.' },
  { name: "scopes", schema: s, description: "Space-separated scopes to request (default: the minimum the resources need). Env: PAGERDUTY_SCOPES." },
  { name: "token", schema: s, secret: true, description: "An API key instead of OAuth. Env: PAGERDUTY_TOKEN." },
  {
    name: "refreshToken",
    schema: s,
    secret: true,
    description: "User token mode: a refresh token (with clientId and clientSecret). Env: PAGERDUTY_REFRESH_TOKEN.",
  },
  { name: "apiUrl", schema: s, description: "REST base URL (default https://api.pagerduty.com, or the EU host for eu). Env: PAGERDUTY_API_URL." },
  { name: "authUrl", schema: s, description: "Identity base URL (default https://identity.pagerduty.com). Env: PAGERDUTY_AUTH_URL." },
  { name: "maxConcurrency", schema: n.int(), description: "Requests in flight at once per account (default 32). Env: PAGERDUTY_MAX_CONCURRENCY." },
  { name: "requestsPerMinute", schema: n.int(), description: "Optional static ceiling in requests per minute. Env: PAGERDUTY_REQUESTS_PER_MINUTE." },
  {
    name: "consistencyWindow",
    schema: n,
    description: "Seconds a new object may stay invisible after its create (default 120 us, 300 eu). Env: PAGERDUTY_CONSISTENCY_WINDOW.",
  },
  {
    name: "driftAllFields",
    schema: z.boolean(),
    description: "true: refresh also reports changes to fields the program leaves unset. Env: PAGERDUTY_DRIFT_ALL_FIELDS.",
  },
  {
    name: "accounts",
    schema: z.record(accountSettings),
    secret: true,
    description: "More accounts beside the provider's own: a map from a name to its settings.",
  },
];

/** The package's config key of a setting: `pagerduty-dynamic:clientId`. */
export const configKey = (name: string) => `${PACKAGE}:${name}`;

const DYNAMIC_PREFIX = "pagerduty:";

/**
 * A getter for the dynamic providers' settings resolution (keys `pagerduty:<name>`) over the values
 * the engine gave Configure (`pagerduty-dynamic:config:<name>`; the short forms too).
 */
export function settingsGetter(variables: ReadonlyMap<string, string>): (key: string) => string | undefined {
  return (key) => {
    if (!key.startsWith(DYNAMIC_PREFIX)) return undefined;
    const name = key.slice(DYNAMIC_PREFIX.length);
    // The engine's Configure names them in the old form, `pagerduty-dynamic:config:clientId`.
    return variables.get(`${PACKAGE}:config:${name}`) ?? variables.get(configKey(name)) ?? variables.get(name);
  };
}

/** Whether any value is not known yet (a provider whose inputs come from resources still to be made). */
export const hasUnknown = (variables: ReadonlyMap<string, string>) => [...variables.values()].some((v) => v === UNKNOWN || v.includes(UNKNOWN));

/** The dynamic providers' wording of a setting (`"pagerduty:clientId"`) in this package's terms. */
export function inPackageTerms(message: string): string {
  const names = CONFIG_SETTINGS.map((c) => c.name).join("|");
  return message.replace(new RegExp(`\\bpagerduty:(${names})\\b`, "g"), (_, name: string) => configKey(name));
}

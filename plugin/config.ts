// The plugin's settings: the same settings as the dynamic providers' (provider/config.ts), under
// the package's own namespace, `pagerduty-dynamic:<name>`, so they never collide with
// @pulumi/pagerduty's `pagerduty:*` keys. The engine hands a provider its settings in Configure:
// the stack config of this namespace for the default provider, the resource's inputs for an
// explicit `Provider` (each provider resource runs in a process of its own, so a second account is
// a second provider). The settings resolution reads them under these keys (provider/door.ts), and
// its messages name them so.
import { z } from "zod";
import { ACCOUNT_SETTINGS } from "../provider/config";
import { named } from "../provider/kernel/define";
import { ACCOUNTS_DESCRIPTION, ACCOUNTS_SETTING, SETTING_NAMES, SETTINGS, type SettingName, type SettingSpec, type SettingType } from "../provider/settings";
import { PACKAGE } from "./names";

type Name = SettingName | typeof ACCOUNTS_SETTING;

export interface ConfigSetting {
  name: Name;
  /** Its type, for the schema. */
  schema: z.ZodTypeAny;
  description: string;
  secret?: boolean;
}

const SCHEMAS: Record<SettingType, () => z.ZodTypeAny> = {
  string: () => z.string(),
  integer: () => z.number().int(),
  number: () => z.number(),
  boolean: () => z.boolean(),
};

/** A setting's sentence for the schema: what it means, its default, its environment variable. */
const described = (name: SettingName): string => {
  const spec: SettingSpec = SETTINGS[name];
  return `${spec.description}${spec.default ? ` Default: ${spec.default}.` : ""} Env: ${spec.env}.`;
};

/** One account's settings, as an entry of `accounts`. */
const accountSettings = named(
  "AccountSettings",
  z
    .object(Object.fromEntries(ACCOUNT_SETTINGS.map((name) => [name, SCHEMAS[SETTINGS[name].type]().optional().describe(SETTINGS[name].description)])))
    .describe("One named account's settings; it inherits nothing from the provider's own."),
);

/** Every setting, from the table of settings (provider/settings.ts), as the package names them. */
export const CONFIG_SETTINGS: readonly ConfigSetting[] = [
  ...SETTING_NAMES.map((name) => ({
    name,
    schema: SCHEMAS[SETTINGS[name].type](),
    description: described(name),
    ...("secret" in SETTINGS[name] ? { secret: true } : {}),
  })),
  { name: ACCOUNTS_SETTING, schema: z.record(accountSettings), secret: true, description: ACCOUNTS_DESCRIPTION },
];

/** The package's config key of a setting: `pagerduty-dynamic:clientId`. */
export const configKey = (name: string) => `${PACKAGE}:${name}`;

/**
 * A getter of the package's keys (`pagerduty-dynamic:<name>`) over the values the engine gave
 * Configure, which names them in the old form, `pagerduty-dynamic:config:<name>` (the short forms too).
 */
export function settingsGetter(variables: ReadonlyMap<string, string>): (key: string) => string | undefined {
  const prefix = `${PACKAGE}:`;
  return (key) => {
    if (!key.startsWith(prefix)) return undefined;
    const name = key.slice(prefix.length);
    return variables.get(`${PACKAGE}:config:${name}`) ?? variables.get(key) ?? variables.get(name);
  };
}

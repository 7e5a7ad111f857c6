#!/usr/bin/env node
// pagerduty-adopt [--service ID]... [--name NAME]... [--out FILE] [--account NAME [--stack S] [--cwd DIR]]
// Prints a ready-to-run Pulumi TypeScript program adopting existing services (all of them, or the
// ones named) with their integrations, event rules, custom field values and enablements.
// Credentials are resolved as the stack's provider resolves them: in a Pulumi project from the
// stack's top-level pagerduty:* config, then the environment (PAGERDUTY_TOKEN, or PAGERDUTY_CLIENT_ID +
// PAGERDUTY_CLIENT_SECRET + PAGERDUTY_SUBDOMAIN, ...); outside one from the environment; with
// --account NAME from that named account's entry of the stack config (`pagerduty:accounts.NAME`,
// read with `pulumi config`), and every resource of the program names the account.
// Only GET requests are made. Secrets (credentials, integration keys) are never printed.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError, type FlagValues } from "./command-line";
import { main, type Command } from "./main";
import { accountNameProblem, ACCOUNTS_KEY, DEFAULT_ACCOUNT, parseAccounts, resolveSettings, type ProviderSettings } from "../config";
import { ConfigError, PagerDutyError } from "../errors";
import { isNotFound } from "../http/client";
import { createClient, type ClientOverrides } from "../account/client";
import type { ApiClient } from "../http/client";
import { credentialsRefused } from "../account/refusal";
import { pulumiRunner, type Pulumi } from "./pulumi-runner";
import { stackConfig } from "./stack-config";
import { listOffset } from "../kernel/pages";
import { enablementsPath, integrationsPath, READ, rulesPath, servicePath, SERVICES } from "../kernel/api-paths";
import { servicesNamed } from "../resources/service";
import { getFieldValues } from "../resources/service-custom-field-values";
import type { ApiEnablement } from "../resources/service-enablement";
import { renderProgram, type ServiceSnapshot } from "./adopt-program";

const HELP = `usage: pagerduty-adopt [--service ID]... [--name NAME]... [--out FILE]
                       [--account NAME [--stack STACK] [--cwd DIR]]

Prints a Pulumi TypeScript program that adopts existing PagerDuty services (all of them, or the
ones selected) with their integrations, event rules, custom field values and enablements.
Only GET requests are made; secrets are never printed.

Options:
  --service ID      adopt the service with this id (repeatable)
  --name NAME       adopt the service with exactly this name (repeatable)
  --out FILE        write the program to FILE instead of stdout
  --account NAME    adopt from the named account of the stack config (pagerduty:accounts.NAME):
                    its settings there are the credentials, and every resource of the program
                    is declared with account: "NAME"
  -s, --stack STACK the stack whose config is read (default: the selected stack)
  -C, --cwd DIR     the Pulumi project directory (default: the current directory)
  -h, --help        show this help
  --version         show the version

Without --account, in a Pulumi project (the current directory, or --cwd) the credentials are the
stack's top-level pagerduty:* settings, then the environment, as the stack's provider reads them;
outside a project they come from the environment:
  PAGERDUTY_TOKEN                                  an API key, or
  PAGERDUTY_CLIENT_ID + PAGERDUTY_CLIENT_SECRET    a Scoped OAuth app, with PAGERDUTY_SUBDOMAIN
                                                   (app token) or PAGERDUTY_REFRESH_TOKEN (user token)
Optional: PAGERDUTY_SERVICE_REGION (us|eu), PAGERDUTY_API_URL, PAGERDUTY_AUTH_URL, PAGERDUTY_SCOPES.`;

export interface AdoptOptions {
  ids: string[];
  names: string[];
  out?: string;
  /** A named account of the stack config; its settings are read with `pulumi config` in `cwd`. */
  account?: string;
  stack?: string;
  cwd?: string;
}

const FLAGS = {
  service: { type: "string", multiple: true },
  name: { type: "string", multiple: true },
  out: { type: "string" },
  account: { type: "string" },
  stack: { type: "string", short: "s" },
  cwd: { type: "string", short: "C" },
} as const;

function adoptOptions({ service, name, out, account, stack, cwd }: FlagValues<typeof FLAGS>): AdoptOptions {
  if (account !== undefined) {
    if (account === DEFAULT_ACCOUNT)
      throw new UsageError(
        `--account ${DEFAULT_ACCOUNT}: the default account is the top-level pagerduty:* settings; leave --account out (its credentials then come from the ` +
          `environment)`,
      );
    const problem = accountNameProblem(account);
    if (problem) throw new UsageError(`--account: an account name ${problem}`);
  }
  return {
    ids: service ?? [],
    names: name ?? [],
    ...(out !== undefined ? { out } : {}),
    ...(account !== undefined ? { account } : {}),
    ...(stack !== undefined ? { stack } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

/** Settings errors name stack-config keys and their variables; without --account this command reads the variables only. */
export function environmentTerms(message: string): string {
  return message.replace(/"pagerduty:\w+" \(env (PAGERDUTY_\w+)\)/g, "$1");
}

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON as it came (adopt-program.ts maps it)
type Raw = Record<string, any> & { id: string };

/** The selected services: by id, by exact name, or all of them when neither is given. */
async function selectServices(client: ApiClient, opts: AdoptOptions): Promise<Raw[]> {
  const found = new Map<string, Raw>();
  if (!opts.ids.length && !opts.names.length) {
    for (const s of await listOffset<Raw>(client, SERVICES, "services", READ)) found.set(s.id, s);
  }
  for (const id of opts.ids) {
    try {
      const s = (await client.request<{ service: Raw }>("GET", servicePath(id), { scopes: READ })).service;
      found.set(s.id, s);
    } catch (e) {
      if (isNotFound(e)) throw new PagerDutyError("ERR_NOT_FOUND", `--service ${id}: no service has this id`);
      throw e;
    }
  }
  for (const name of opts.names) {
    const [s] = await servicesNamed<Raw>(client, name);
    if (!s) throw new PagerDutyError("ERR_NOT_FOUND", `--name ${JSON.stringify(name)}: no service has exactly this name`);
    found.set(s.id, s);
  }
  return [...found.values()].sort((a, b) => String(a.name).localeCompare(String(b.name)) || String(a.id).localeCompare(String(b.id)));
}

async function snapshot(client: ApiClient, s: Raw): Promise<ServiceSnapshot> {
  const refs: Raw[] = Array.isArray(s.integrations) ? s.integrations : [];
  const [integrations, rules, customFields, enablements] = await Promise.all([
    Promise.all(refs.map(async (r) => (await client.request<{ integration: Raw }>("GET", integrationsPath(s.id, r.id), { scopes: READ })).integration)),
    listOffset<Raw>(client, rulesPath(s.id), "rules", READ),
    getFieldValues(client, s.id),
    client.request<{ enablements?: ApiEnablement[] }>("GET", enablementsPath(s.id), { scopes: READ }).then((r) => r?.enablements ?? []),
  ]);
  return { service: s, integrations, rules, customFields, enablements };
}

/** What adopt talks to; tests replace the pulumi CLI and the HTTP transport. */
export interface AdoptDeps {
  pulumi?: Pulumi;
  env?: NodeJS.ProcessEnv;
  clients?: ClientOverrides;
}

/**
 * The settings of `account` from the stack config. Only a declared account: resolveSettings would
 * say the same, but this names the stack and the key the user can check.
 */
function namedAccountSettings(account: string, opts: AdoptOptions, pulumi: Pulumi, env: NodeJS.ProcessEnv): ProviderSettings {
  const config = stackConfig(pulumi);
  const declared = [...parseAccounts(config.get(ACCOUNTS_KEY)).keys()];
  if (!declared.includes(account)) {
    throw new ConfigError(
      `--account ${account}: the config of ${opts.stack ? `stack "${opts.stack}"` : "the selected stack"} has no "${ACCOUNTS_KEY}.${account}" ` +
        `(declared: ${declared.length ? declared.join(", ") : "none"}); declare it with pulumi config set --path '${ACCOUNTS_KEY}.${account}.token' ` +
        `--secret ..., or choose the stack with --stack`,
    );
  }
  return resolveSettings((key) => config.get(key), env, account);
}

/** Whether the command runs in a Pulumi project (`--cwd`, or the current directory), whose stack config it then reads. */
const isProject = (opts: AdoptOptions) => ["Pulumi.yaml", "Pulumi.yml"].some((f) => existsSync(join(opts.cwd ?? process.cwd(), f)));

/** The settings adopt reads: a named account's, the project's stack's (then the environment), or the environment's. */
function adoptSettings(opts: AdoptOptions, pulumi: () => Pulumi, env: NodeJS.ProcessEnv): ProviderSettings {
  if (opts.account !== undefined) return namedAccountSettings(opts.account, opts, pulumi(), env);
  if (isProject(opts)) {
    // As the stack's provider resolves them: stack config first, then the environment.
    const config = stackConfig(pulumi());
    return resolveSettings((key) => config.get(key), env);
  }
  if (opts.stack !== undefined || opts.cwd !== undefined)
    throw new UsageError(`--stack and --cwd name the stack whose config is read, and ${opts.cwd ?? process.cwd()} holds no Pulumi project (Pulumi.yaml)`);
  return resolveSettings(() => undefined, env);
}

/** The program, and how many services it adopts. */
export async function adopt(opts: AdoptOptions, deps: AdoptDeps = {}): Promise<{ program: string; services: number }> {
  const env = deps.env ?? process.env;
  const { account } = opts;
  // resolveSettings refuses URLs carrying credentials, so the API URL is safe to print.
  const settings = adoptSettings(opts, () => deps.pulumi ?? pulumiRunner({ cwd: opts.cwd, stack: opts.stack }), env);
  const client = createClient(settings, deps.clients);
  try {
    const services = await selectServices(client, opts);
    if (!services.length)
      throw new PagerDutyError("ERR_NOT_FOUND", `${account === undefined ? "the account" : `account "${account}"`} has no services to adopt`);
    const snapshots: ServiceSnapshot[] = [];
    for (const s of services) snapshots.push(await snapshot(client, s));
    return { program: renderProgram(snapshots, settings.apiUrl, account === undefined ? {} : { account }), services: snapshots.length };
  } catch (e) {
    // A named account's settings are keys of the stack config: name them when PagerDuty refuses.
    throw account === undefined ? e : credentialsRefused(settings, e);
  } finally {
    await client.close();
  }
}

export const ADOPT: Command<typeof FLAGS, AdoptOptions> = {
  bin: "pagerduty-adopt",
  help: HELP,
  flags: FLAGS,
  options: adoptOptions,
  async run(opts, terminal) {
    try {
      const { program, services } = await adopt(opts);
      if (!opts.out) return terminal.out(program);
      writeFileSync(opts.out, program);
      terminal.say(`pagerduty-adopt: wrote ${opts.out}, adopting ${services} service${services === 1 ? "" : "s"}`);
    } catch (e) {
      // Outside a project the settings come from the environment only: say them in its terms.
      if (opts.account === undefined && !isProject(opts) && e instanceof Error) e.message = environmentTerms(e.message);
      throw e;
    }
  },
};

if (require.main === module) main(ADOPT);

#!/usr/bin/env node
// pagerduty-adopt [--service ID]... [--name NAME]... [--out FILE]
// Prints a ready-to-run Pulumi TypeScript program adopting existing services (all of them, or the
// ones named) with their integrations, event rules, custom field values and enablements.
// Credentials come from the environment exactly as the provider resolves them (PAGERDUTY_TOKEN, or
// PAGERDUTY_CLIENT_ID + PAGERDUTY_CLIENT_SECRET + PAGERDUTY_SUBDOMAIN, PAGERDUTY_API_URL, ...).
// Only GET requests are made. Secrets (credentials, integration keys) are never printed.
import { writeFileSync } from "node:fs";
import { commandLine, UsageError } from "./usage";
import { resolveSettings } from "../config";
import { PagerDutyError } from "../errors";
import { isNotFound } from "../http/client";
import { createClient } from "../account/client";
import type { ApiClient } from "../http/client";
import { listOffset } from "../kernel/pages";
import { servicesWithName } from "../resources/service";
import { getFieldValues } from "../resources/service-custom-field-values";
import type { ApiEnablement } from "../resources/service-enablement";
import { packageVersion } from "./package-version";
import { renderProgram, type ServiceSnapshot } from "./program";

const READ = ["services.read"];

export const USAGE = `usage: pagerduty-adopt [--service ID]... [--name NAME]... [--out FILE]

Prints a Pulumi TypeScript program that adopts existing PagerDuty services (all of them, or the
ones selected) with their integrations, event rules, custom field values and enablements.
Only GET requests are made; secrets are never printed.

Options:
  --service ID    adopt the service with this id (repeatable)
  --name NAME     adopt the service with exactly this name (repeatable)
  --out FILE      write the program to FILE instead of stdout
  -h, --help      show this help
  --version       show the version

Credentials come from the environment (not from stack config):
  PAGERDUTY_TOKEN                                  an API key, or
  PAGERDUTY_CLIENT_ID + PAGERDUTY_CLIENT_SECRET    a Scoped OAuth app, with PAGERDUTY_SUBDOMAIN
                                                   (app token) or PAGERDUTY_REFRESH_TOKEN (user token)
Optional: PAGERDUTY_SERVICE_REGION (us|eu), PAGERDUTY_API_URL, PAGERDUTY_AUTH_URL, PAGERDUTY_SCOPES.`;

export interface AdoptOptions {
  ids: string[];
  names: string[];
  out?: string;
}

export { UsageError };

/** argv to options; `--help` and `--version` throw a UsageError with exit code 0 carrying the text to print. */
export function parseArgs(argv: readonly string[]): AdoptOptions {
  const values = commandLine(
    argv,
    {
      service: { type: "string", multiple: true },
      name: { type: "string", multiple: true },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
    "(see pagerduty-adopt --help)",
  );
  if (values.help) throw new UsageError(USAGE, 0);
  if (values.version) throw new UsageError(packageVersion(), 0);
  for (const [flag, list] of [["--service", values.service], ["--name", values.name], ["--out", values.out === undefined ? undefined : [values.out]]] as const) {
    if (list?.some((v) => !v.trim())) throw new UsageError(`${flag} needs a value\n(see pagerduty-adopt --help)`);
  }
  return { ids: values.service ?? [], names: values.name ?? [], ...(values.out !== undefined ? { out: values.out } : {}) };
}

/** Settings errors name stack-config keys and their variables; this command reads the variables only. */
export function environmentTerms(message: string): string {
  return message.replace(/"pagerduty:\w+" \(env (PAGERDUTY_\w+)\)/g, "$1");
}

type Raw = Record<string, any> & { id: string };
const path = (id: string) => `/services/${encodeURIComponent(id)}`;

/** The selected services: by id, by exact name, or all of them when neither is given. */
async function selectServices(client: ApiClient, opts: AdoptOptions): Promise<Raw[]> {
  const found = new Map<string, Raw>();
  if (!opts.ids.length && !opts.names.length) {
    for (const s of await listOffset<Raw>(client, "/services", "services", READ)) found.set(s.id, s);
  }
  for (const id of opts.ids) {
    try {
      const s = (await client.request<{ service: Raw }>("GET", path(id), { scopes: READ })).service;
      found.set(s.id, s);
    } catch (e) {
      if (isNotFound(e)) throw new PagerDutyError("ERR_NOT_FOUND", `--service ${id}: no service has this id`);
      throw e;
    }
  }
  for (const name of opts.names) {
    const [s] = await servicesWithName<Raw>(client, name);
    if (!s) throw new PagerDutyError("ERR_NOT_FOUND", `--name ${JSON.stringify(name)}: no service has exactly this name`);
    found.set(s.id, s);
  }
  return [...found.values()].sort((a, b) => String(a.name).localeCompare(String(b.name)) || String(a.id).localeCompare(String(b.id)));
}

async function snapshot(client: ApiClient, s: Raw): Promise<ServiceSnapshot> {
  const refs: Raw[] = Array.isArray(s.integrations) ? s.integrations : [];
  const [integrations, rules, customFields, enablements] = await Promise.all([
    Promise.all(refs.map(async (r) => (await client.request<{ integration: Raw }>("GET", `${path(s.id)}/integrations/${encodeURIComponent(r.id)}`, { scopes: READ })).integration)),
    listOffset<Raw>(client, `${path(s.id)}/rules`, "rules", READ),
    getFieldValues(client, s.id),
    client.request<{ enablements?: ApiEnablement[] }>("GET", `${path(s.id)}/enablements`, { scopes: READ }).then((r) => r?.enablements ?? []),
  ]);
  return { service: s, integrations, rules, customFields, enablements };
}

/** The program, and how many services it adopts. */
export async function adopt(opts: AdoptOptions): Promise<{ program: string; services: number }> {
  // resolveSettings refuses URLs carrying credentials, so the API URL is safe to print.
  const settings = resolveSettings(() => undefined);
  const client = createClient(settings);
  try {
    const services = await selectServices(client, opts);
    if (!services.length) throw new PagerDutyError("ERR_NOT_FOUND", "the account has no services to adopt");
    const snapshots: ServiceSnapshot[] = [];
    for (const s of services) snapshots.push(await snapshot(client, s));
    return { program: renderProgram(snapshots, settings.apiUrl), services: snapshots.length };
  } finally {
    await client.close();
  }
}

async function main(): Promise<number> {
  try {
    const opts = parseArgs(process.argv.slice(2));
    const { program, services } = await adopt(opts);
    if (opts.out) {
      writeFileSync(opts.out, program);
      process.stderr.write(`pagerduty-adopt: wrote ${opts.out}, adopting ${services} service${services === 1 ? "" : "s"}\n`);
    } else process.stdout.write(program);
    return 0;
  } catch (e) {
    if (e instanceof UsageError && e.exitCode === 0) {
      process.stdout.write(`${e.message}\n`);
      return 0;
    }
    process.stderr.write(`pagerduty-adopt: ${environmentTerms(e instanceof Error ? e.message : String(e))}\n`);
    return e instanceof UsageError ? e.exitCode : 1;
  }
}

if (require.main === module) void main().then((code) => (process.exitCode = code));

#!/usr/bin/env node
// pagerduty-emulator: see USAGE. Prints exactly one JSON line on stdout when ready (URLs, admin
// token, seeded credentials, and the CA file with --tls); anything else goes to stderr. Exits
// cleanly on SIGINT/SIGTERM; bad arguments exit 2.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs as parseNodeArgs } from "node:util";
import type { ReadyLine } from "./client";
import type { EmulatorOptions } from "./core";
import { startEmulator } from "./index";
import { MAX_LAG_MS } from "./lag";

export const USAGE = `usage: pagerduty-emulator [options]

A local emulator of PagerDuty's REST API (services area) and identity service. The REST API of
US accounts is at the root, that of EU accounts under /eu ("euApiUrl"); identity is at the root;
the Events API v2 is POST /v2/enqueue ("eventsUrl"; also under /eu).

  --port N          port to listen on (default 0: any free port)
  --host H          address to listen on (default 127.0.0.1)
  --data FILE       keep state in FILE across restarts (with --tls, the CA is kept in FILE.tls/)
  --seed FILE       seed accounts, users, apps, keys and policies from a JSON file
  --rate-limit N    requests per minute per app or key per account (default 960)
  --tls             serve HTTPS with a certificate for 127.0.0.1/localhost made at start; the
                    ready line's "caFile" is the CA to trust (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE,
                    REQUESTS_CA_BUNDLE)
  --cert FILE       serve HTTPS with this PEM certificate (chain) ...
  --key FILE        ... and this PEM private key (both or neither; implies --tls)
  --lag MS          consistency lag: a new service, integration or event rule of a US account
                    answers 404 and is left out of listings for MS milliseconds (default 0)
  --lag-eu MS       the same for EU accounts (default: the --lag value)
  --lag-deletes     deletes of such an object answer 404 too (default: deletes work)
  -h, --help        show this help and exit
  -v, --version     print the version and exit`;

export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code = "EMULATOR_USAGE";
}

export type CliCommand = { kind: "help" } | { kind: "version" } | { kind: "run"; options: EmulatorOptions };

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  seed: { type: "string" },
  "rate-limit": { type: "string" },
  tls: { type: "boolean" },
  cert: { type: "string" },
  key: { type: "string" },
  lag: { type: "string" },
  "lag-eu": { type: "string" },
  "lag-deletes": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

function integer(flag: string, v: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${v}"`);
  return Number(v);
}

function nonEmpty(flag: string, v: string | undefined): string | undefined {
  if (v === "") throw new UsageError(`--${flag} needs a value`);
  return v;
}

export function parseArgs(argv: string[]): CliCommand {
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };
  try {
    ({ values } = parseNodeArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    // node's messages name the flag ("Unknown option '--x'", "Option '--port <value>' argument missing").
    throw new UsageError((e as Error).message.split(/\. To specify/)[0]);
  }
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const cert = nonEmpty("cert", values.cert);
  const key = nonEmpty("key", values.key);
  if ((cert === undefined) !== (key === undefined)) throw new UsageError("--cert and --key go together");
  const options: EmulatorOptions = {
    port: integer("port", values.port, 0, 65535) ?? 0,
    host: nonEmpty("host", values.host) ?? "127.0.0.1",
  };
  const set = <K extends keyof EmulatorOptions>(k: K, v: EmulatorOptions[K] | undefined) => {
    if (v !== undefined) options[k] = v;
  };
  set("dataFile", nonEmpty("data", values.data));
  set("seed", nonEmpty("seed", values.seed));
  set("rateLimit", integer("rate-limit", values["rate-limit"], 1));
  set("tls", cert && key ? { certFile: cert, keyFile: key } : values.tls ? true : undefined);
  const lag = integer("lag", values.lag, 0, MAX_LAG_MS);
  const euLag = integer("lag-eu", values["lag-eu"], 0, MAX_LAG_MS);
  if (lag !== undefined || euLag !== undefined || values["lag-deletes"])
    options.lag = { ms: lag ?? 0, euMs: euLag ?? lag ?? 0, deletes: values["lag-deletes"] ?? false };
  return { kind: "run", options };
}

/** The package version (package.json above this file, compiled or not). */
export function version(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  return "unknown";
}

async function main(): Promise<void> {
  let cmd: CliCommand;
  try {
    cmd = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`pagerduty-emulator: ${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (cmd.kind === "help") return void process.stdout.write(`${USAGE}\n`);
  if (cmd.kind === "version") return void process.stdout.write(`${version()}\n`);
  const emu = await startEmulator(cmd.options);
  // Handlers first: a client may signal as soon as it has read the ready line.
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`pagerduty-emulator: ${signal}, shutting down\n`);
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  const { account, oauth, apiKey, escalationPolicyId, eu } = emu.seed;
  const ready: ReadyLine = {
    url: emu.url,
    apiUrl: emu.apiUrl,
    euApiUrl: emu.euApiUrl,
    authUrl: emu.authUrl,
    eventsUrl: emu.eventsUrl,
    adminToken: emu.adminToken,
    account,
    oauth,
    apiKey,
    escalationPolicyId,
    ...(eu ? { eu } : {}),
    lag: { ...emu.core.lag.settings },
    ...(emu.caFile ? { caFile: emu.caFile } : {}),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.stderr.write(`pagerduty-emulator listening on ${emu.url}${emu.caFile ? ` (trust ${emu.caFile})` : ""}\n`);
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`pagerduty-emulator: ${e.message}\n`);
    process.exit(2);
  });
}

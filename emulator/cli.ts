#!/usr/bin/env node
// pagerduty-emulator [--port N] [--host H] [--data FILE] [--seed FILE] [--rate-limit N]
// Prints exactly one JSON line on stdout when ready (URLs, admin token, seeded credentials);
// anything else goes to stderr. Exits cleanly on SIGINT/SIGTERM.
import type { ReadyLine } from "./client";
import { startEmulator } from "./index";

interface CliOptions {
  port: number;
  host: string;
  dataFile?: string;
  seed?: string;
  rateLimit?: number;
}

const USAGE = "usage: pagerduty-emulator [--port N] [--host H] [--data FILE] [--seed FILE] [--rate-limit N]";

export function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { port: 0, host: "127.0.0.1" };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const int = (min: number): number => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${flag} must be an integer >= ${min}\n${USAGE}`);
      return Number(v);
    };
    switch (flag) {
      case "--port": opts.port = int(0); break;
      case "--host": opts.host = value(); break;
      case "--data": opts.dataFile = value(); break;
      case "--seed": opts.seed = value(); break;
      case "--rate-limit": opts.rateLimit = int(1); break;
      case "--help": case "-h": throw new Error(USAGE);
      default: throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const emu = await startEmulator(opts);
  const { account, oauth, apiKey, escalationPolicyId } = emu.seed;
  const ready: ReadyLine = { url: emu.url, apiUrl: emu.apiUrl, authUrl: emu.authUrl, adminToken: emu.adminToken, account, oauth, apiKey, escalationPolicyId };
  process.stdout.write(JSON.stringify(ready) + "\n");
  process.stderr.write(`pagerduty-emulator listening on ${emu.url}\n`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`pagerduty-emulator: ${signal}, shutting down\n`);
    emu.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`pagerduty-emulator: ${e.message}\n`);
    process.exit(2);
  });
}

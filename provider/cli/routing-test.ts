#!/usr/bin/env node
// pagerduty-routing-test --cases FILE (--emulator FILE | --url URL) [--junit FILE] [--stack S] [--cwd DIR]
// Runs a file of routing cases against the emulator a stack's program was deployed to: each case's
// event goes to its integration's routing key (read from the stack, never printed) through the
// Events API, and the event's trace is compared with what the case expects. Prints a table and the
// trace of each failing case; exit 1 on a mismatch. Cases run in order, so cache variables and
// dedup keys see the cases before them; each run first forgets what events did to the services it
// sends to (the emulator's events reset), so a run never sees the alerts and counts of an earlier one.
import type { Dispatcher } from "undici";
import { writeFileDurably } from "../fs/durable-file";
import { type Flags, type FlagValues, UsageError } from "./command-line";
import { EXIT as CLI_EXIT, exitErrorOf } from "./exit";
import { junitXml } from "./junit";
import { type Command, runCommand, type Terminal } from "./main";
import { pulumiRunner, type Pulumi } from "./pulumi-runner";
import { readCaseFile } from "./routing-cases";
import { emulatorAt, targetFromEnvironment, targetFromReadyLine, TOKEN_ENV, URL_ENV } from "./routing-emulator";
import { type CaseResult, failureText, mismatches, passed, report } from "./routing-report";
import { runCaseFile } from "./routing-run";
import { integrationKeys } from "./routing-stack";

/** 0 every case passed, 1 a case did not, 2 usage, 3 the cases could not run (nothing was judged). */
export const EXIT = { ...CLI_EXIT, mismatch: 1, notRun: 3 } as const;

const BIN = "pagerduty-routing-test";

const HELP = `usage: ${BIN} --cases FILE (--emulator FILE | --url URL) [--junit FILE]
                              [--stack STACK] [--cwd DIR]
       ${BIN} record|replay|parity ...   (each with its own --help)

Runs routing cases (a YAML or JSON file) against the PagerDuty emulator a stack's program was
deployed to: each case's event goes to its integration through the Events API, in order, and the
outcome (incident or suppressed, severity, urgency, priority, annotations, ...) is compared with
what the case expects. Prints a table of the cases and the trace of each failing one: the sets the
event entered, the rules tried and their conditions, the actions applied. Each run first resets the
events of the services it sends to (their alerts, incidents, cache variable values), so runs are
independent; the emulator's clock only moves forward, as cases with "at" ask. A recorded file's
times (its "recorded" block) all move by the same whole number of weeks to the emulator's clock.

Subcommands:
  record             write a case file from a real account's recent events (what PagerDuty did)
  replay             run a case file through a base and a head program, print what changed
  parity             send the cases to a throwaway service of a real account and to the emulator,
                     print where they disagree

Options:
  --cases FILE       the case file (docs/testing-routing.md says its format)
  --emulator FILE    the emulator's ready line (the JSON line pagerduty-emulator prints on start,
                     saved to FILE): its URL, admin token and, with --tls, its CA
  --url URL          the emulator's URL instead (default: ${URL_ENV}); the admin
                     token is then read from ${TOKEN_ENV}, never from
                     the command line
  --junit FILE       also write the results as JUnit XML to FILE, for CI
  -s, --stack STACK  the stack whose outputs and integrations name the routing keys (default: the
                     selected stack)
  -C, --cwd DIR      the Pulumi project directory (default: the current directory)
  -h, --help         show this help
  --version          show the version

A case's integration is a stack output holding a routing key (or a ServiceIntegration), else a
ServiceIntegration's resource name; routing keys are read with --show-secrets and never printed.

Exit codes: 0 every case passed, 1 a case did not, 2 usage, 3 the cases could not run (an invalid
case file, an integration not found, a service whose orchestration is not active, the emulator or
pulumi failed): nothing was judged.`;

export interface RoutingTestOptions {
  cases: string;
  emulator?: string;
  url?: string;
  junit?: string;
  stack?: string;
  cwd?: string;
}

const FLAGS = {
  cases: { type: "string" },
  emulator: { type: "string" },
  url: { type: "string" },
  junit: { type: "string" },
  stack: { type: "string", short: "s" },
  cwd: { type: "string", short: "C" },
} as const;

function routingTestOptions({ cases, emulator, url, junit, stack, cwd }: FlagValues<typeof FLAGS>): RoutingTestOptions {
  if (cases === undefined) throw new UsageError("--cases FILE is required");
  if (emulator !== undefined && url !== undefined) throw new UsageError("--emulator and --url both name the emulator: give one");
  return { cases, emulator, url, junit, stack, cwd };
}

/** What the command talks to; tests replace the pulumi CLI and the connection. */
export interface RoutingTestDeps {
  pulumi?: Pulumi;
  env?: NodeJS.ProcessEnv;
  dispatcher?: Dispatcher;
}

/** The JUnit report of a run (suite: the case file's name). */
export function junitOf(file: string, results: readonly CaseResult[]): string {
  return junitXml(
    file,
    results.map((r, i) => ({
      name: r.name,
      classname: file,
      ...(passed(r)
        ? {}
        : {
            failure: {
              message: mismatches(r).join("; "),
              text: failureText(r, i),
            },
          }),
    })),
  );
}

/** The whole command: resolves to its exit code; a run that cannot complete throws (exit 3). */
export async function routingTest(opts: RoutingTestOptions, terminal: Terminal, deps: RoutingTestDeps = {}): Promise<number> {
  const file = readCaseFile(opts.cases);
  const target = opts.emulator ? targetFromReadyLine(opts.emulator) : targetFromEnvironment(opts.url, deps.env ?? process.env);
  const keys = integrationKeys(
    deps.pulumi ?? pulumiRunner({ cwd: opts.cwd, stack: opts.stack }),
    file.cases.map((c) => c.integration),
  );
  const emu = emulatorAt(target, deps.dispatcher);
  try {
    const n = file.cases.length;
    const { results } = await runCaseFile(file, emu, keys, {
      started: (services) =>
        terminal.say(`${BIN}: ${n} case${n === 1 ? "" : "s"} against ${target.url}; events of ${services} service${services === 1 ? "" : "s"} reset`),
    });
    terminal.out(report(results));
    if (opts.junit) await writeFileDurably(opts.junit, junitOf(opts.cases, results), 0o644, { flush: false });
    return results.every(passed) ? EXIT.ok : EXIT.mismatch;
  } finally {
    await emu.close();
  }
}

/** The bin, talking to what `deps` gives (the tests') or the real pulumi and network. */
export const routingTestCommand = (deps: RoutingTestDeps = {}): Command<typeof FLAGS, RoutingTestOptions> => ({
  bin: BIN,
  help: HELP,
  flags: FLAGS,
  options: routingTestOptions,
  async run(opts, terminal) {
    try {
      return await routingTest(opts, terminal, deps);
    } catch (e) {
      // Whatever stopped the run, no case was judged: not a mismatch.
      throw exitErrorOf(e, EXIT.notRun);
    }
  },
});

export const ROUTING_TEST = routingTestCommand();

/**
 * The subcommands beside the default run (`pagerduty-routing-test record ...`): each is a command
 * of its own, in a module of its own, loaded only when asked for.
 */
export const SUBCOMMANDS: Record<string, () => Command<Flags, unknown>> = {
  record: () => require("./routing-record").ROUTING_RECORD,
  replay: () => require("./routing-replay").ROUTING_REPLAY,
  parity: () => require("./routing-parity").ROUTING_PARITY,
};

/** The bin on `argv`: a subcommand when the first word names one, else the case run. */
export function routingTestMain(argv: readonly string[], terminal?: Terminal): Promise<number> {
  const sub = argv[0] !== undefined ? SUBCOMMANDS[argv[0]] : undefined;
  return sub ? runCommand(sub(), argv.slice(1), terminal) : runCommand(ROUTING_TEST, argv, terminal);
}

if (require.main === module) void routingTestMain(process.argv.slice(2)).then((code) => (process.exitCode = code));

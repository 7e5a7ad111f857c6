// pagerduty-routing-test replay --cases FILE --base DIR --head DIR --emulator FILE ...
// What a pull request's change of routing does to a file of events: the file run through the base
// branch's program and through the head's, on one emulator, and each event whose outcome differs
// printed with both traces, then a count per kind of change. The runs take turns: the base's
// program is deployed to a throwaway stack, the file runs, the stack goes; then the head's. One
// program at a time keeps the two free of each other (a service's name is unique in an account,
// its dedup keys and cache variables its own) and each run starts from reset services, its
// recorded times moved past the clock the run before left.
import type { Dispatcher } from "undici";
import { messageOf } from "../errors";
import { writeFileDurably } from "../fs/durable-file";
import { type FlagValues, UsageError } from "./command-line";
import { EXIT as CLI_EXIT, ExitError, exitErrorOf } from "./exit";
import type { Command, Terminal } from "./main";
import { type Pulumi, pulumiRunner } from "./pulumi-runner";
import { type CaseFile, readCaseFile } from "./routing-cases";
import { diffJunit, diffReport, diffRuns, diffSummary, type EventDiff, notRunJunit, notRunSummary, unexpected } from "./routing-diff";
import { type EmulatorClient, emulatorAt, targetFromEnvironment, targetFromReadyLine, TOKEN_ENV, URL_ENV } from "./routing-emulator";
import type { CaseResult } from "./routing-report";
import { runCaseFile } from "./routing-run";
import { integrationKeys } from "./routing-stack";
import { deployThrowaway, emulatorSettings, type StackSetting } from "./routing-throwaway-stack";

/** 0 no change, or only changes the case file expects; 1 a change it does not expect; 2 usage; 3 not run. */
export const EXIT = { ...CLI_EXIT, unexpected: 1, notRun: 3 } as const;

const BIN = "pagerduty-routing-test replay";

const HELP = `usage: ${BIN} --cases FILE --base DIR --head DIR
         (--emulator FILE [--config KEY=VALUE ...] | --base-stack S --head-stack S [--url URL])
         [--junit FILE] [--summary FILE]

Runs one case file through two programs, a pull request's base and head, on one emulator, and
prints each event whose outcome changed (incident or suppressed, service, severity, urgency,
priority, escalation policy, annotations) with both traces, then how many events changed in each
way. The base's program is deployed to a throwaway stack and the file runs, then the stack is
destroyed; then the same for the head's. Throwaway stacks live outside the projects (a local
backend and passphrase in a temporary directory, a copy of the project's files): no file of a
project changes, nor its selected stack. The file's instants ("at") move by whole weeks to the
emulator's clock on each run: weekdays, times of day and the gaps between events stay.

A changed event is expected when its case's "expect" names every changed field and the head's
outcome satisfies it (the pull request pinned the new value); any other change fails. Events whose
outcome did not change pass (whether they meet their "expect" is the plain routing test's job).

Options:
  --cases FILE        the case file (docs/testing-routing.md says its format)
  --base DIR          the base branch's Pulumi project (e.g. a checkout of the target branch)
  --head DIR          the pull request's Pulumi project
  --emulator FILE     the emulator's ready line: where it is, and the settings of the throwaway
                      stacks (URLs, subdomain, region, OAuth client, escalationPolicyId)
  --config KEY=VALUE  one more setting of both throwaway stacks (repeatable), e.g.
                      --config pagerduty:scopes="services.read services.write ..."
  --base-stack S      the base's stack already deployed on the emulator, in --base's project,
  --head-stack S      and the head's in --head's: nothing is deployed or destroyed (their
                      routing keys may reach the same services: each run resets them first)
  --url URL           with --base-stack/--head-stack, the emulator's URL instead of --emulator
                      (default: ${URL_ENV}; the admin token from ${TOKEN_ENV})
  --junit FILE        JUnit XML: a test case per event, failing for a change the file does not
                      expect; one failing test case when the replay could not run
  --summary FILE      Markdown for a CI job summary ($GITHUB_STEP_SUMMARY): the counts and each
                      changed event with both traces
  -h, --help          show this help
  --version           show the version

Exit codes: 0 nothing changed, or only what the case file expects; 1 a change it does not expect;
2 usage; 3 the replay could not run (a case file, a deploy, the emulator or pulumi failed).`;

export interface ReplayOptions {
  cases: string;
  base: string;
  head: string;
  emulator?: string;
  url?: string;
  config: StackSetting[];
  baseStack?: string;
  headStack?: string;
  junit?: string;
  summary?: string;
}

const FLAGS = {
  cases: { type: "string" },
  base: { type: "string" },
  head: { type: "string" },
  emulator: { type: "string" },
  url: { type: "string" },
  config: { type: "string", multiple: true },
  "base-stack": { type: "string" },
  "head-stack": { type: "string" },
  junit: { type: "string" },
  summary: { type: "string" },
} as const;

function setting(pair: string): StackSetting {
  const at = pair.indexOf("=");
  if (at <= 0) throw new UsageError(`--config ${JSON.stringify(pair)}: give KEY=VALUE (e.g. pagerduty:scopes="services.read services.write")`);
  return { key: pair.slice(0, at), value: pair.slice(at + 1) };
}

function replayOptions(v: FlagValues<typeof FLAGS>): ReplayOptions {
  for (const flag of ["cases", "base", "head"] as const)
    if (v[flag] === undefined) throw new UsageError(`--${flag} ${flag === "cases" ? "FILE" : "DIR"} is required`);
  if (v.emulator !== undefined && v.url !== undefined) throw new UsageError("--emulator and --url both name the emulator: give one");
  const deployed = v["base-stack"] !== undefined || v["head-stack"] !== undefined;
  if (deployed && (v["base-stack"] === undefined || v["head-stack"] === undefined))
    throw new UsageError("--base-stack and --head-stack go together: give both");
  if (!deployed && v.emulator === undefined)
    throw new UsageError("--emulator FILE is required to deploy the programs (its ready line configures their stacks); or give --base-stack and --head-stack");
  if (deployed && v.config?.length)
    throw new UsageError("--config sets the throwaway stacks, which --base-stack and --head-stack replace: configure those stacks instead");
  return {
    cases: v.cases!,
    base: v.base!,
    head: v.head!,
    config: (v.config ?? []).map(setting),
    ...(v.emulator !== undefined ? { emulator: v.emulator } : {}),
    ...(v.url !== undefined ? { url: v.url } : {}),
    ...(deployed ? { baseStack: v["base-stack"], headStack: v["head-stack"] } : {}),
    ...(v.junit !== undefined ? { junit: v.junit } : {}),
    ...(v.summary !== undefined ? { summary: v.summary } : {}),
  };
}

/** What the command talks to; tests replace the pulumi CLI (per project) and the connection. */
export interface ReplayDeps {
  /** `pulumi` on a deployed stack of a project; unset: the real CLI. */
  pulumiOf?: (cwd: string, stack: string) => Pulumi;
  env?: NodeJS.ProcessEnv;
  dispatcher?: Dispatcher;
  /** Where Ctrl-C and a cancelled job's SIGTERM arrive; unset: the process. */
  signals?: NodeJS.EventEmitter;
}

/** One side of the replay: its name and how its stack is had (and given back). */
interface Side {
  name: "base" | "head";
  project: string;
  stack(): { pulumi: Pulumi; remove(): string | undefined };
}

/** Runs the file through one side's stack; the stack is given back however the run ends. */
async function runSide(side: Side, file: CaseFile, emu: EmulatorClient, terminal: Terminal): Promise<CaseResult[]> {
  const deployed = side.stack();
  try {
    const keys = integrationKeys(
      deployed.pulumi,
      file.cases.map((c) => c.integration),
    );
    const started = Date.now();
    const { results } = await runCaseFile(file, emu, keys, { moveEveryFile: true });
    terminal.say(`${BIN}: ${side.name} (${side.project}): ${results.length} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return results;
  } finally {
    const failure = deployed.remove();
    if (failure) terminal.say(`${BIN}: the ${side.name}'s throwaway stack could not be destroyed (the emulator keeps its objects): ${failure}`);
  }
}

/** The two runs' diff; a run that cannot complete throws. */
export async function replay(opts: ReplayOptions, terminal: Terminal, deps: ReplayDeps = {}): Promise<EventDiff[]> {
  const file = readCaseFile(opts.cases);
  const target = opts.emulator ? targetFromReadyLine(opts.emulator) : targetFromEnvironment(opts.url, deps.env ?? process.env);
  const pulumiOf = deps.pulumiOf ?? ((cwd: string, stack: string) => pulumiRunner({ cwd, stack }));
  const settings = opts.emulator && !opts.baseStack ? [...emulatorSettings(opts.emulator), ...opts.config] : [];
  const side = (name: "base" | "head", project: string, stack: string | undefined): Side => ({
    name,
    project,
    stack: stack
      ? () => ({ pulumi: pulumiOf(project, stack), remove: () => undefined })
      : () => {
          terminal.say(`${BIN}: deploying the ${name}'s program (${project}) to a throwaway stack`);
          return deployThrowaway(project, `replay-${name}`, settings);
        },
  });
  const emu = emulatorAt(target, deps.dispatcher);
  // Ctrl-C or a cancelled job: the side under way ends (its pulumi gets the signal too, or finishes)
  // and gives its stack back, as a failure would; the next side does not start.
  const signals = deps.signals ?? process;
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  const stop = () => {
    if (interrupted) throw new ExitError("interrupted: the throwaway stacks made so far were removed", EXIT.notRun);
  };
  try {
    terminal.say(`${BIN}: ${file.cases.length} events of ${opts.cases} against ${target.url}`);
    const base = await runSide(side("base", opts.base, opts.baseStack), file, emu, terminal);
    stop();
    const head = await runSide(side("head", opts.head, opts.headStack), file, emu, terminal);
    stop();
    return diffRuns(base, head);
  } finally {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
    await emu.close();
  }
}

const write = (file: string, text: string) => writeFileDurably(file, text, 0o644, { flush: false });

/** The bin, talking to what `deps` gives (the tests') or the real pulumi and network. */
export const routingReplayCommand = (deps: ReplayDeps = {}): Command<typeof FLAGS, ReplayOptions> => ({
  bin: BIN,
  help: HELP,
  flags: FLAGS,
  options: replayOptions,
  async run(opts, terminal) {
    let diffs: EventDiff[];
    try {
      diffs = await replay(opts, terminal, deps);
    } catch (e) {
      // CI shows a report either way: the reason the replay did not run, as a failing test case.
      const why = messageOf(e);
      if (opts.junit) await write(opts.junit, notRunJunit(opts.cases, why));
      if (opts.summary) await write(opts.summary, notRunSummary(opts.cases, why));
      throw exitErrorOf(e, EXIT.notRun);
    }
    terminal.out(diffReport(diffs));
    if (opts.junit) await write(opts.junit, diffJunit(opts.cases, diffs));
    if (opts.summary) await write(opts.summary, diffSummary(opts.cases, diffs));
    return diffs.some(unexpected) ? EXIT.unexpected : EXIT.ok;
  },
});

export const ROUTING_REPLAY = routingReplayCommand();

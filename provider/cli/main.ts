// How every bin starts and ends: the command line parsed (--help and --version answered on
// stdout), the command run, a failure said on stderr as `<bin>: <message>` and turned into the exit
// code (its own, 2 for a wrong command line, 1 for anything else). The code is set as
// process.exitCode, not passed to process.exit, so what is still buffered for stdout gets out.
import { Answer, parseCommandLine, type CommandLine, type Flags } from "./command-line";
import { EXIT, ExitError } from "./exit";
import { messageOf } from "../errors";

/** Where a bin writes. */
export interface Terminal {
  /** stdout: what the command makes (a program, a report, a token under --print). */
  out(text: string): void;
  /** stderr, one line (or paragraph) at a time: progress and failures. */
  say(line: string): void;
}

export const systemTerminal: Terminal = {
  out: (text) => void process.stdout.write(text),
  say: (line) => void process.stderr.write(`${line}\n`),
};

/** A bin: its command line and what it runs. */
export interface Command<F extends Flags, O> extends CommandLine<F, O> {
  /** Resolves to the exit code (nothing: 0); a failure is thrown. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a command that ends normally returns nothing (exit 0)
  run(options: O, terminal: Terminal): Promise<number | void>;
}

/** A failure's exit code: its own (UsageError 2, LoginError's), else 1. */
export const exitCodeOf = (e: unknown): number => (e instanceof ExitError ? e.exitCode : EXIT.failed);

/** Runs `work` and returns its exit code; a failure is said on stderr, an Answer printed on stdout. */
// biome-ignore lint/suspicious/noConfusingVoidType: as Command.run
export async function reportFailures(bin: string, terminal: Terminal, work: () => Promise<number | void>): Promise<number> {
  try {
    return (await work()) ?? EXIT.ok;
  } catch (e) {
    if (e instanceof Answer) terminal.out(`${e.message}\n`);
    else terminal.say(`${bin}: ${messageOf(e)}`);
    return exitCodeOf(e);
  }
}

/** The bin run on `argv`; resolves to its exit code. */
export function runCommand<F extends Flags, O>(command: Command<F, O>, argv: readonly string[], terminal: Terminal = systemTerminal): Promise<number> {
  return reportFailures(command.bin, terminal, () => command.run(parseCommandLine(command, argv), terminal));
}

/** The last line of every bin: runs it on the process's arguments and sets the exit code. */
export function main<F extends Flags, O>(command: Command<F, O>): void {
  void runCommand(command, process.argv.slice(2)).then((code) => (process.exitCode = code));
}

// The command line of every bin: node:util's parseArgs (strict, no positionals) over the bin's own
// flags plus -h/--help and --version, which every bin answers the same way. A flag given a blank
// value is a mistake too. A mistake is a UsageError whose message ends with the bin's usage line.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { EXIT, ExitError } from "./exit";
import { packageVersion } from "./package-version";

export type Flags = NonNullable<ParseArgsConfig["options"]>;

/** The flags' values as parseArgs types them. */
export type FlagValues<F extends Flags> = ReturnType<typeof parseArgs<{ options: F; strict: true; allowPositionals: false }>>["values"];

/** What a bin's command line is: its name, its --help text, its flags and what they mean. */
export interface CommandLine<F extends Flags, O> {
  /** e.g. "pagerduty-adopt": the usage hint names it. */
  bin: string;
  /** --help's text; up to its first blank line, the usage line shown under a mistake. */
  help: string;
  /** The bin's own flags (-h/--help and --version are added). */
  flags: F;
  /** The options the values mean; a UsageError for what they cannot mean together. */
  options(values: FlagValues<F>): O;
}

/** A command line the bin cannot run: exit 2. */
export class UsageError extends ExitError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = "UsageError";
  }
}

/** What --help or --version asked for: not a failure, the text the runner prints on stdout (exit 0). */
export class Answer extends ExitError {
  constructor(text: string) {
    super(text, EXIT.ok);
    this.name = "Answer";
  }
}

const ANSWERED: Flags = { help: { type: "boolean", short: "h" }, version: { type: "boolean" } };

/** A paragraph of --help in lines of at most `width` columns (for text built from data, e.g. the kinds a bin handles). */
export const fill = (paragraph: string, width = 100): string =>
  paragraph
    .split(/\s+/)
    .reduce((lines: string[], word) => {
      const last = lines.length - 1;
      if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
      else lines.push(word);
      return lines;
    }, [])
    .join("\n");

/** Names as prose: "A", "A or B", "A, B or C". */
export const orList = (names: readonly string[]): string => (names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? ""));

/** What the bins that change a stack's state take (pagerduty-recover, pagerduty-move): which stack, where, and a dry run. */
export interface StackOptions {
  stack?: string;
  cwd: string;
  dryRun: boolean;
}

export const STACK_FLAGS = { stack: { type: "string", short: "s" }, cwd: { type: "string", short: "C" }, "dry-run": { type: "boolean" } } as const;

/** The stack options the flags mean: the selected stack and the current directory unless given. */
export const stackOptions = (values: FlagValues<typeof STACK_FLAGS>): StackOptions => ({
  cwd: values.cwd ?? process.cwd(),
  dryRun: values["dry-run"] ?? false,
  ...(values.stack ? { stack: values.stack } : {}),
});

/** The usage line: --help's text up to its first blank line. */
export const usageLine = (help: string): string => help.split("\n\n")[0];

/** The options `argv` asks for; throws an Answer for --help and --version, a UsageError for a mistake. */
export function parseCommandLine<F extends Flags, O>(line: CommandLine<F, O>, argv: readonly string[]): O {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: [...argv], options: { ...line.flags, ...ANSWERED }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw mistake(line, (e as Error).message);
  }
  if (values.help) throw new Answer(line.help);
  if (values.version) throw new Answer(packageVersion());
  for (const [flag, value] of Object.entries(values)) {
    if ([value].flat().some((v) => typeof v === "string" && !v.trim())) throw mistake(line, `--${flag} needs a value`);
  }
  try {
    return line.options(values as FlagValues<F>);
  } catch (e) {
    throw e instanceof UsageError ? mistake(line, e.message) : e;
  }
}

/** A UsageError saying what is wrong, then the usage line and where to read more. */
const mistake = (line: { bin: string; help: string }, problem: string) => new UsageError(`${problem}\n${usageLine(line.help)}\n(see ${line.bin} --help)`);

// The command lines of the CLIs: parsed by node:util's parseArgs (strict, no positionals), any
// mistake thrown as a UsageError whose text is printed as it is and whose `exitCode` the process
// exits with (2 for a wrong command line, 0 for --help and --version).
import { parseArgs, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = "UsageError";
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The flags' values; `hint` follows the parser's message on a mistake (e.g. the usage line). */
export function commandLine<O extends Options>(argv: readonly string[], options: O, hint: string): ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>["values"] {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${hint}`);
  }
}

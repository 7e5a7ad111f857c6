// provider/cli/command-line.ts: every bin's flags through parseArgs, --help and --version answered
// alike, and a mistake shown with the bin's usage line.
import { Answer, fill, orList, parseCommandLine, usageLine, UsageError, type CommandLine } from "../../../../provider/cli/command-line";
import { ADOPT } from "../../../../provider/cli/adopt";
import { LOGIN } from "../../../../provider/cli/login";
import { packageVersion } from "../../../../provider/cli/package-version";
import { RECOVER } from "../../../../provider/cli/recover";

const HELP = `usage: demo [--name NAME]... [--dry-run]
            [--level N]

Does nothing, for the test.`;
const FLAGS = { name: { type: "string", multiple: true }, "dry-run": { type: "boolean" }, level: { type: "string", short: "l" } } as const;
const demo: CommandLine<typeof FLAGS, { names: string[]; dryRun: boolean; level?: string }> = {
  bin: "demo",
  help: HELP,
  flags: FLAGS,
  options: (v) => {
    if (v.level === "bad") throw new UsageError("--level must be a number");
    if (v.level === "bug") throw new TypeError("not a usage error");
    return { names: v.name ?? [], dryRun: v["dry-run"] ?? false, ...(v.level ? { level: v.level } : {}) };
  },
};
const parse = (argv: string[]) => parseCommandLine(demo, argv);
const thrown = (argv: string[]): Error => {
  try {
    parse(argv);
  } catch (e) {
    return e as Error;
  }
  throw new Error(`${argv.join(" ")} parsed`);
};

test("the flags' values become the command's options", () => {
  expect(parse([])).toEqual({ names: [], dryRun: false });
  expect(parse(["--name", "a", "--name=b c", "--dry-run", "-l", "3"])).toEqual({ names: ["a", "b c"], dryRun: true, level: "3" });
});

test("--help and -h answer the help text, --version the package's version: Answers, exit 0, before any other check", () => {
  for (const argv of [["--help"], ["-h"], ["--level", "bad", "--help"], ["--name", " ", "-h"]]) {
    expect(thrown(argv)).toEqual(new Answer(HELP));
    expect(thrown(argv)).toMatchObject({ exitCode: 0 });
  }
  expect(thrown(["--version"])).toEqual(new Answer(packageVersion()));
  expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
});

test("a mistake is a UsageError (exit 2) saying what is wrong, then the usage line and where to read more", () => {
  const tail = `\n${usageLine(HELP)}\n(see demo --help)`;
  expect(usageLine(HELP)).toBe("usage: demo [--name NAME]... [--dry-run]\n            [--level N]");
  for (const [argv, problem] of [
    [["--bogus"], "Unknown option '--bogus'"],
    [["stray"], "Unexpected argument 'stray'"],
    [["--level"], "Option '-l, --level <value>' argument missing"],
    [["--dry-run=yes"], "Option '--dry-run' does not take an argument"],
    [["--level", "bad"], "--level must be a number"],
  ] as const) {
    const e = thrown([...argv]);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ exitCode: 2 });
    expect(e.message.startsWith(problem)).toBe(true);
    expect(e.message.endsWith(tail)).toBe(true);
  }
});

test("a blank value is a mistake, in a repeated flag too", () => {
  expect(thrown(["--level="]).message).toMatch(/^--level needs a value\n/);
  expect(thrown(["--name", "a", "--name", "  "]).message).toMatch(/^--name needs a value\n/);
});

test("what options() throws other than a UsageError passes through unchanged", () => {
  expect(thrown(["--level", "bug"])).toEqual(new TypeError("not a usage error"));
});

test("each bin's --help names every flag it takes", () => {
  for (const line of [ADOPT, RECOVER, LOGIN]) {
    const missing = [...Object.keys(line.flags), "help", "version"].filter((f) => !line.help.includes(`--${f}`));
    expect({ bin: line.bin, missing }).toEqual({ bin: line.bin, missing: [] });
  }
});

test("help text built from data: a paragraph filled to the width, names joined as prose", () => {
  expect(fill("aaa bbb\nccc  ddd eee", 7)).toBe("aaa bbb\nccc ddd\neee");
  // A word longer than the width keeps its own line.
  expect(fill("a abcdefghij b", 5)).toBe("a\nabcdefghij\nb");
  expect([[], ["A"], ["A", "B"], ["A", "B", "C"]].map(orList)).toEqual(["", "A", "A or B", "A, B or C"]);
});

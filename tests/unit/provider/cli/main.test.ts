// provider/cli/main.ts: how every bin ends. The command line answered or refused, the command run,
// a failure said as `<bin>: <message>` on stderr, and the exit code it means.
import { UsageError } from "../../../../provider/cli/command-line";
import { EXIT, ExitError } from "../../../../provider/cli/exit";
import { exitCodeOf, reportFailures, runCommand, type Command, type Terminal } from "../../../../provider/cli/main";
import { ConfigError, PagerDutyError } from "../../../../provider/errors";

const FLAGS = { fail: { type: "string" } } as const;
const HELP = "usage: demo [--fail KIND]\n\nFails as asked.";

/** A bin that fails as --fail says, or prints "made" on stdout. */
const demo: Command<typeof FLAGS, { fail?: string }> = {
  bin: "demo",
  help: HELP,
  flags: FLAGS,
  options: (v) => {
    if (v.fail === "usage") throw new UsageError("--fail usage is refused");
    return { fail: v.fail };
  },
  async run({ fail }, terminal) {
    if (fail === "config") throw new ConfigError('no PagerDuty credentials: set "pagerduty:token"');
    if (fail === "own") throw new ExitError("declined", 7);
    if (fail === "bug") throw new TypeError("Cannot read properties of undefined (reading 'x')");
    if (fail === "string") throw "a thrown string";
    if (fail === "code") return 1;
    terminal.out("made\n");
  },
};

function run(argv: string[]) {
  const out: string[] = [];
  const said: string[] = [];
  const terminal: Terminal = { out: (t) => void out.push(t), say: (l) => void said.push(l) };
  return runCommand(demo, argv, terminal).then((code) => ({ code, out: out.join(""), said }));
}

test("a run that succeeds: exit 0, its output on stdout, nothing on stderr", async () => {
  expect(await run([])).toEqual({ code: 0, out: "made\n", said: [] });
});

test("--help and --version: the text on stdout, exit 0", async () => {
  expect(await run(["--help"])).toEqual({ code: 0, out: `${HELP}\n`, said: [] });
  const version = await run(["--version"]);
  expect(version).toMatchObject({ code: 0, said: [] });
  expect(version.out).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
});

test("a wrong command line: exit 2, the problem with the usage line on stderr, nothing run", async () => {
  expect(await run(["--bogus"])).toEqual({ code: EXIT.usage, out: "", said: ["demo: Unknown option '--bogus'\nusage: demo [--fail KIND]\n(see demo --help)"] });
  expect((await run(["--fail", "usage"])).said).toEqual(["demo: --fail usage is refused\nusage: demo [--fail KIND]\n(see demo --help)"]);
});

test.each([
  ["config", EXIT.failed, 'demo: no PagerDuty credentials: set "pagerduty:token"'],
  ["own", 7, "demo: declined"],
  ["bug", EXIT.failed, "demo: Cannot read properties of undefined (reading 'x')"],
  ["string", EXIT.failed, "demo: a thrown string"],
])("a failure (%s): its exit code, one message on stderr", async (kind, code, said) => {
  expect(await run(["--fail", kind])).toEqual({ code, out: "", said: [said] });
});

test("an exit code the command returns is the bin's", async () => {
  expect(await run(["--fail", "code"])).toEqual({ code: 1, out: "", said: [] });
});

test("exitCodeOf: an ExitError's own code, 1 for everything else", () => {
  expect(exitCodeOf(new UsageError("x"))).toBe(2);
  expect(exitCodeOf(new ExitError("x", 9))).toBe(9);
  expect(exitCodeOf(new PagerDutyError("ERR_API", "x"))).toBe(1);
  expect(exitCodeOf(new Error("x"))).toBe(1);
});

test("reportFailures runs work outside a command line (as pagerduty-login's tests do)", async () => {
  const said: string[] = [];
  const terminal: Terminal = { out: () => undefined, say: (l) => void said.push(l) };
  expect(await reportFailures("demo", terminal, async () => undefined)).toBe(0);
  expect(await reportFailures("demo", terminal, async () => 4)).toBe(4);
  expect(await reportFailures("demo", terminal, async () => Promise.reject(new ExitError("timed out", 5)))).toBe(5);
  expect(said).toEqual(["demo: timed out"]);
});

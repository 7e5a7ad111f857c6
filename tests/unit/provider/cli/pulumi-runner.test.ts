// provider/cli/pulumi-runner.ts against a stand-in `pulumi` on PATH that records how it was run
// (arguments, directory, stdin) and answers as told: how every bin runs the CLI, and what a failure
// says and keeps out.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commandOf, PulumiError, pulumiRunner } from "../../../../provider/cli/pulumi-runner";

let dir: string;
/** The stand-in first on PATH; RUNNER_* say what it answers. */
let env: NodeJS.ProcessEnv;
const STAND_IN = `#!/bin/sh
printf '%s\\n' "$@" > "$RUNNER_LOG/args"
pwd > "$RUNNER_LOG/cwd"
cat > "$RUNNER_LOG/stdin"
printf '%s' "$RUNNER_STDOUT"
printf '%b' "$RUNNER_STDERR" >&2
exit "\${RUNNER_EXIT:-0}"
`;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-pulumi-runner-"));
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "pulumi"), STAND_IN, { mode: 0o755 });
  fs.mkdirSync(path.join(dir, "project"));
  env = { PATH: `${path.join(dir, "bin")}${path.delimiter}${process.env.PATH}`, RUNNER_LOG: dir };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const ran = () => ({
  args: fs.readFileSync(path.join(dir, "args"), "utf8").split("\n").slice(0, -1),
  cwd: fs.realpathSync(fs.readFileSync(path.join(dir, "cwd"), "utf8").trim()),
  stdin: fs.readFileSync(path.join(dir, "stdin"), "utf8"),
});

test("never prompting, in the project directory, on the stack: --stack before a `--`, else last; stdout returned", () => {
  env.RUNNER_STDOUT = '{"version":3}';
  const pulumi = pulumiRunner({ cwd: path.join(dir, "project"), stack: "prod", env });
  expect(pulumi(["stack", "export"])).toBe('{"version":3}');
  expect(ran()).toEqual({ args: ["--non-interactive", "stack", "export", "--stack", "prod"], cwd: fs.realpathSync(path.join(dir, "project")), stdin: "" });
  pulumi(["config", "set", "--path", "--", "pagerduty:accounts.eu.subdomain", "-acme"]);
  expect(ran().args).toEqual(["--non-interactive", "config", "set", "--path", "--stack", "prod", "--", "pagerduty:accounts.eu.subdomain", "-acme"]);
});

test("no stack: the selected one (and commands that take no --stack, like whoami, run so); a secret goes on stdin only", () => {
  pulumiRunner({ env })(["config", "set", "--secret", "pagerduty:refreshToken"], "pdr_secret_value");
  expect(ran()).toEqual({
    args: ["--non-interactive", "config", "set", "--secret", "pagerduty:refreshToken"],
    cwd: fs.realpathSync(process.cwd()),
    stdin: "pdr_secret_value",
  });
});

test("a failure names the command and quotes stderr's last lines, never stdout nor the secret it was handed", () => {
  env.RUNNER_STDOUT = "pagerduty:token = decrypted-secret";
  env.RUNNER_STDERR = "progress 1\\nprogress 2\\nline 3\\nline 4\\nline 5\\nline 6\\nline 7\\nerror: pdr_secret_value was refused\\n";
  env.RUNNER_EXIT = "255";
  const e = (() => {
    try {
      pulumiRunner({ stack: "dev", env })(["config", "set", "--secret", "pagerduty:refreshToken"], "pdr_secret_value");
    } catch (x) {
      return x as PulumiError;
    }
  })();
  expect(e).toBeInstanceOf(PulumiError);
  expect(e).toMatchObject({
    code: "ERR_PULUMI",
    command: "config set",
    status: 255,
    detail: "line 3\nline 4\nline 5\nline 6\nline 7\nerror: REDACTED was refused",
  });
  expect(e!.message).toBe("pulumi config set failed (exit 255):\nline 3\nline 4\nline 5\nline 6\nline 7\nerror: REDACTED was refused");
  expect(e!.message).not.toContain("decrypted-secret");
});

test("a locked stack: the message says how to release the lock", () => {
  env.RUNNER_STDERR = "error: the stack is currently locked by 1 lock(s)";
  env.RUNNER_EXIT = "255";
  expect(() => pulumiRunner({ env })(["stack", "import", "--file", "state.json"])).toThrow(
    /^pulumi stack import failed \(exit 255\):\nerror: the stack is currently locked .*\n.*run `pulumi cancel --yes`, then this command again\.$/,
  );
});

test("no pulumi on PATH: says so", () => {
  env.PATH = path.join(dir, "empty");
  expect(() => pulumiRunner({ env })(["whoami", "--json"])).toThrow(
    new PulumiError("whoami", "the Pulumi CLI is not on PATH (https://www.pulumi.com/docs/install/)"),
  );
  expect(() => pulumiRunner({ env })(["whoami", "--json"])).toThrow(/^cannot run pulumi whoami: the Pulumi CLI is not on PATH/);
});

test("commandOf: the words before the first flag, global flags skipped", () => {
  expect(commandOf(["stack", "export"])).toBe("stack export");
  expect(commandOf(["-Q", "stack", "--show-name"])).toBe("stack");
  expect(commandOf(["config", "set", "--path", "--", "k", "v"])).toBe("config set");
  expect(commandOf(["refresh", "--yes", "--target", "urn:pulumi:dev::p::t::n"])).toBe("refresh");
});

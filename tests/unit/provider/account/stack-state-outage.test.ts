// `pulumi stack export` during an `up` can read the checkpoint while the engine writes it: that
// failure is tried again a bounded number of times; any other failure is reported at once.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXPORT_RETRY, exportStack, StackState } from "../../../../provider/account/stack-state";

let dir: string;

/**
 * A `pulumi` whose first `failures` exports fail with `stderr` (exit 255), then print a
 * checkpoint; every call is counted in `calls`.
 */
function fakePulumi(failures: number, stderr: string, stdout = JSON.stringify({ version: 3, deployment: { resources: [] } })) {
  writeFileSync(join(dir, "stdout"), stdout);
  writeFileSync(join(dir, "stderr"), stderr);
  writeFileSync(
    join(dir, "pulumi"),
    `#!/bin/sh
n=$(cat "${dir}/calls" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "${dir}/calls"
if [ $n -le ${failures} ]; then cat "${dir}/stderr" >&2; exit 255; fi
cat "${dir}/stdout"
`,
  );
  chmodSync(join(dir, "pulumi"), 0o755);
}
const calls = () => Number(readFileSync(join(dir, "calls"), "utf8"));
const fast = { attempts: EXPORT_RETRY.attempts, baseDelayMs: 1 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ppd-export-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
const exportFake = (retry = fast) => exportStack("org/p/dev", dir, retry, join(dir, "pulumi"));

test("the bound: 5 attempts, 3 s of waiting in all", () => {
  expect(EXPORT_RETRY.attempts).toBe(5);
  const waits = Array.from({ length: EXPORT_RETRY.attempts - 1 }, (_, i) => EXPORT_RETRY.baseDelayMs * 2 ** i);
  expect(waits).toEqual([200, 400, 800, 1600]);
});

test.each([
  "error: failed to load checkpoint: EOF",
  "error: failed to load checkpoint: unexpected EOF",
  "error: could not deserialize deployment: unexpected end of JSON input",
])("a checkpoint caught mid-write (%s) is read again", async (message) => {
  fakePulumi(2, `${message}\n`);
  await expect(exportFake()).resolves.toEqual({ version: 3, deployment: { resources: [] } });
  expect(calls()).toBe(3);
});

test("a checkpoint cut short at every read fails after 5 attempts, saying so", async () => {
  fakePulumi(99, "error: failed to load checkpoint: EOF\n");
  await expect(exportFake()).rejects.toThrow(
    /^reading the state of stack "org\/p\/dev" with `pulumi stack export` failed: error: failed to load checkpoint: EOF \(the checkpoint read cut short 5 times over 0\.0 s\)$/,
  );
  expect(calls()).toBe(5);
});

test("any other failure is reported at once", async () => {
  fakePulumi(99, "error: no stack named 'dev' found\n");
  await expect(exportFake()).rejects.toThrow(/failed: error: no stack named 'dev' found$/);
  expect(calls()).toBe(1);
});

test("the provider's stack state reads through a checkpoint caught mid-write with the default exporter", async () => {
  fakePulumi(1, "error: failed to load checkpoint: EOF\n", JSON.stringify({ version: 3, deployment: { pending_operations: [] } }));
  const state = new StackState("org/p/dev", (stack) => exportStack(stack, dir, fast, join(dir, "pulumi")), true);
  await expect(state.interrupted("A", Date.now())).resolves.toBe(false);
  expect(calls()).toBe(2);
});

// The dynamic-provider host logs `${e}: ${e.stack}` for errors of check/diff/read/delete and the
// engine prints e.message again; our errors must reach the user once, bugs keep their stack.
import * as fs from "node:fs";
import { ConfigError } from "../../../../provider/errors";
import { hostLine, reportedProvider } from "../../../../provider/host/error-report";

const original = console.error;
const sink = jest.fn();
beforeAll(() => {
  console.error = sink; // what the filter passes calls on to
});
afterAll(() => {
  console.error = original;
});

/** Calls a method the way the host does: await, and on error log its line. */
async function asHost(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    console.error(hostLine(e as Error));
    return e;
  }
  throw new Error("expected the method to fail");
}

test("the host's line for our error is dropped once; other lines pass", async () => {
  const provider = reportedProvider({
    check: async () => {
      throw new ConfigError('"pagerduty:clientSecret" is wrong');
    },
    create: async () => ({ id: "x" }),
  });
  const e = await asHost(() => provider.check!({}, {}));
  expect(e).toBeInstanceOf(ConfigError);
  expect((e as Error).message).toBe('"pagerduty:clientSecret" is wrong');
  expect(sink).not.toHaveBeenCalled();
  // The same text logged again (not by the host for this throw) is not swallowed.
  console.error(hostLine(e as Error));
  console.error("something else");
  expect(sink).toHaveBeenCalledTimes(2);
  await expect(provider.create({})).resolves.toEqual({ id: "x" });
});

test("an unexpected error (a bug) keeps the host's full line with its stack", async () => {
  sink.mockClear();
  const provider = reportedProvider({
    create: async () => ({ id: "x" }),
    diff: async () => {
      throw new TypeError("cannot read properties of undefined");
    },
  });
  await asHost(() => provider.diff!("id", {}, {}));
  expect(sink).toHaveBeenCalledTimes(1);
  expect(sink.mock.calls[0]![0]).toMatch(/^TypeError: cannot read properties of undefined: TypeError: .*\n\s+at /s);
});

const dynamicHost = () => fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");

test("the dynamic-provider host still logs errors with the line hostLine builds", () => {
  const logged = dynamicHost().match(/console\.error\(`\$\{e\}: \$\{e\.stack\}`\)/g) ?? [];
  // check, diff, read and delete log it (create and update answer with the error instead).
  expect(logged.length).toBeGreaterThanOrEqual(4);
  const e = new Error("x");
  expect(hostLine(e)).toBe(`${e}: ${e.stack}`);
});

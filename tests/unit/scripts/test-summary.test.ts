// scripts/test-summary.js: the closing line of `npm test`.
const { summary } = require("../../../scripts/test-summary.js") as { summary: (reports: unknown[]) => string };

const suite = (status: "passed" | "failed", assertions: Array<"passed" | "failed">) => ({ status, assertionResults: assertions.map((a) => ({ status: a })) });
const report = (suites: ReturnType<typeof suite>[], pending = 0) => ({
  numPassedTests: suites.flatMap((s) => s.assertionResults).filter((a) => a.status === "passed").length,
  numFailedTests: suites.flatMap((s) => s.assertionResults).filter((a) => a.status === "failed").length,
  numPendingTests: pending,
  testResults: suites,
});

test("failed tests are counted", () => {
  expect(summary([report([suite("passed", ["passed", "passed"]), suite("failed", ["passed", "failed"])], 1)])).toBe("3 passed, 1 failed, 1 skipped");
});

test("a suite that failed to run (no failed test of its own) counts as a failure", () => {
  expect(summary([report([suite("passed", ["passed"]), suite("failed", [])])])).toBe("1 passed, 1 failed, 0 skipped");
});

test("a missing report counts as a failure", () => {
  expect(summary([report([suite("passed", ["passed"])]), null])).toBe("1 passed, 1 failed, 0 skipped");
});

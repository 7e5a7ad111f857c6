#!/usr/bin/env node
// The closing line of `npm test` for CI: "N passed, N failed, N skipped", from jest's --json reports.
// A suite that failed to run (a missing import, a syntax error) has no failed test of its own: it
// counts as one failure, as does a report that is missing (its jest run never finished).

const fs = require("node:fs");

/** `reports`: each parsed report, or null when the file was missing or unreadable. */
function summary(reports) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const r of reports) {
    if (!r) {
      failed++;
      continue;
    }
    passed += r.numPassedTests;
    skipped += r.numPendingTests;
    failed += r.numFailedTests;
    failed += r.testResults.filter((t) => t.status === "failed" && !t.assertionResults.some((a) => a.status === "failed")).length;
  }
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

if (require.main === module) console.log(summary(process.argv.slice(2).map(read)));

module.exports = { summary };

#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what it needs, then runs every suite.
# Order: fast suites first so a broken build fails in seconds, the real-CLI e2e suite last.
set -euo pipefail
cd "$(dirname "$0")/.."

# `npm install` rather than `npm ci`: npm 11 leaves optional platform bindings out of the lock file
# and `npm ci` then refuses it; --no-save keeps the clone clean.
npm install --no-audit --no-fund --no-save --loglevel=error
npm run build --silent
export PULUMI_BIN_DIR=$(bash scripts/setup-pulumi.sh)
mkdir -p .work && rm -f .work/*.tgz
export PPD_TARBALL=$PWD/.work/$(npm pack --silent --pack-destination .work | tail -n1)

status=0
# e2e runs in band: each file drives several Pulumi processes and the machine has 2 cores.
npx jest --selectProjects unit emulator integration --json --outputFile=.work/jest-fast.json || status=$?
npx jest --selectProjects e2e --runInBand --json --outputFile=.work/jest-e2e.json || status=$?

# One plain closing line for CI: "N passed, N failed, N skipped".
node -e '
  const r = process.argv.slice(1).map((f) => { try { return require(require("path").resolve(f)); } catch { return null; } });
  const sum = (k) => r.reduce((n, x) => n + (x ? x[k] : 0), 0);
  const missing = r.filter((x) => !x).length;
  console.log(`${sum("numPassedTests")} passed, ${sum("numFailedTests") + missing} failed, ${sum("numPendingTests")} skipped`);
' .work/jest-fast.json .work/jest-e2e.json
exit $status

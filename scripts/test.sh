#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what it needs, then runs every suite.
# Order: fast suites first so a broken build fails in seconds, the real-CLI e2e suite last.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node.js of the development line (scripts/support-matrix.json) first on PATH: the machine's when it
# is of that line, else the registry's release, said once (npm itself runs on whichever node is first).
PATH="$(bash scripts/setup-node.sh):$PATH"
export PATH

# `npm install` rather than `npm ci`: npm 11 leaves optional platform bindings out of the lock file
# and `npm ci` then refuses it; --no-save keeps the clone clean.
npm install --no-audit --no-fund --no-save --loglevel=error
npm run build --silent
# Types (tests included: jest only transpiles) and the formatter and linter's verdict, in seconds.
npx tsc --noEmit --incremental --tsBuildInfoFile .work/tsc-check.tsbuildinfo -p tsconfig.json
npx biome ci --error-on-warnings .
export PULUMI_BIN_DIR=$(bash scripts/setup-pulumi.sh)
# The YAML and Python language hosts and the SDK generator the package's e2e tests use (tests/e2e/example-full-python, -yaml, plugin-sdks, package-first-steps).
export PULUMI_HOSTS_DIR=$(bash scripts/setup-language-hosts.sh)
# moto's S3-compatible server, where tests/e2e/plugin-fresh-runner.test.ts keeps a stack's state:
# pip-installed once into a cached virtual environment.
export PPD_MOTO_SERVER=$(bash scripts/setup-moto.sh)
# The login e2e test drives a real headless browser: Debian's chromium, installed when none is on
# PATH (CI runs as root), so that test never skips.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  echo "test: installing Debian's chromium with apt-get (the login e2e test drives a real browser)" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
# actionlint checks the example GitHub workflows (tests/e2e/gitops.test.ts); built from its Go
# module once, pinned, into the same cache as the Pulumi CLI.
. scripts/cache-dir.sh
tools=$(cache_dir)/tools
if [ ! -x "$tools/actionlint" ]; then
  GOBIN=$tools go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi
mkdir -p .work && rm -f .work/*.tgz
export PPD_TARBALL=$PWD/.work/$(npm pack --silent --pack-destination .work | tail -n1)

status=0
npx jest --selectProjects unit emulator integration clients --json --outputFile=.work/jest-fast.json || status=$?
# e2e: several files at a time (each waits on Pulumi processes part of the time; how many:
# scripts/e2e-split.js); the files that time kills against requests, or count requests per refresh
# burst, say "// e2e: runs apart" and run afterwards, fewer at a time, so a busy machine cannot move what they measure.
IFS=";" read -r _ apart workers apart_workers < <(node scripts/e2e-split.js)
npx jest --selectProjects e2e --maxWorkers="$workers" --testPathIgnorePatterns "tests/e2e/($apart)\.test\.ts\$" --json --outputFile=.work/jest-e2e.json || status=$?
npx jest --selectProjects e2e --maxWorkers="$apart_workers" --testPathPatterns "tests/e2e/($apart)\.test\.ts\$" --json --outputFile=.work/jest-e2e-apart.json || status=$?

# The support matrix: the programs users write first again on each other Node.js line and Pulumi
# the README supports (scripts/support-matrix.json).
rm -f .work/jest-matrix*
bash scripts/test-matrix.sh || status=$?

# One plain closing line for CI: "N passed, N failed, N skipped" (a suite that failed to run counts).
node scripts/test-summary.js .work/jest-fast.json .work/jest-e2e.json .work/jest-e2e-apart.json $(cat .work/jest-matrix.list)
exit $status

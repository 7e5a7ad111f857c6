#!/usr/bin/env bash
# The support matrix's further runs (scripts/support-matrix.json), after the full suite on the
# development line: the programs users write first (the quick start, the full example in every
# door, a crash recovery) on each other supported Node.js line and Pulumi, with that Node.js first
# on PATH, that Pulumi's CLI and language hosts, and that @pulumi/pulumi in the programs.
# Writes .work/jest-matrix-<name>.json and -<name>-apart.json per run; exits non-zero when a run failed.
# Env: PPD_TARBALL (the packed package, as scripts/test.sh sets it).
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# The programs, split as scripts/test.sh splits the suite (scripts/e2e-split.js): those marked
# "// e2e: runs apart" run after the others, fewer at a time.
IFS=";" read -r together apart workers apart_workers < <(node scripts/e2e-split.js $(node -p 'require("./scripts/support-matrix.json").programs.join(" ")'))
# The reports scripts/test.sh sums up: one missing (a run that never finished) counts as a failure.
: >.work/jest-matrix.list
while IFS=$'\t' read -r -u 3 name node_version pulumi; do
  echo "test-matrix: $name: Node.js $node_version, Pulumi $pulumi (CLI, language hosts, @pulumi/pulumi)" >&2
  node_bin=$(bash scripts/setup-node.sh "$node_version")
  bin=$(bash scripts/setup-pulumi.sh "$pulumi")
  hosts=$(bash scripts/setup-language-hosts.sh "$pulumi")
  run() { PATH="$node_bin:$PATH" PULUMI_BIN_DIR=$bin PULUMI_HOSTS_DIR=$hosts PPD_PULUMI_SDK=$pulumi npx jest --selectProjects e2e "$@"; }
  if [ -n "$together" ]; then
    echo ".work/jest-matrix-$name.json" >>.work/jest-matrix.list
    run --maxWorkers="$workers" --testPathPatterns "tests/e2e/($together)\.test\.ts\$" --json --outputFile=".work/jest-matrix-$name.json" || status=$?
  fi
  if [ -n "$apart" ]; then
    echo ".work/jest-matrix-$name-apart.json" >>.work/jest-matrix.list
    run --maxWorkers="$apart_workers" --testPathPatterns "tests/e2e/($apart)\.test\.ts\$" --json --outputFile=".work/jest-matrix-$name-apart.json" || status=$?
  fi
done 3< <(node -e 'for (const m of require("./scripts/support-matrix.json").matrix) console.log([m.name, m.node, m.pulumi].join("\t"))')
exit $status

#!/usr/bin/env bash
# Pull requests: `pulumi preview --diff` of the stack, shown in the job summary; fails on errors.
set -uo pipefail
here=$(dirname "$0")
. "$here/summary.sh"
out=$(mktemp)
pulumi preview --diff --non-interactive --color never --suppress-progress 2>&1 | tee "$out"
code=${PIPESTATUS[0]}
if [ "$code" -eq 0 ]; then
  SUMMARY_OPEN=" open" summarize "Pulumi preview of \`${PULUMI_STACK:-}\`: succeeded" "$out"
else
  SUMMARY_OPEN=" open" summarize "Pulumi preview of \`${PULUMI_STACK:-}\`: failed (exit $code)" "$out"
  echo "::error title=Pulumi preview failed::pulumi preview exited $code; see the job summary"
fi
rm -f "$out"
exit "$code"

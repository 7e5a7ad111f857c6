#!/usr/bin/env bash
# Main branch: `pulumi up` of the stack, summarized in the job summary.
set -uo pipefail
here=$(dirname "$0")
. "$here/summary.sh"
out=$(mktemp)
pulumi up --yes --diff --non-interactive --color never --suppress-progress 2>&1 | tee "$out"
code=${PIPESTATUS[0]}
if [ "$code" -eq 0 ]; then
  summarize "Pulumi up of \`${PULUMI_STACK:-}\`: succeeded" "$out"
else
  SUMMARY_OPEN=" open" summarize "Pulumi up of \`${PULUMI_STACK:-}\`: failed (exit $code)" "$out"
  echo "::error title=Pulumi up failed::pulumi up exited $code; see the job summary"
fi
rm -f "$out"
exit "$code"

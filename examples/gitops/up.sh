#!/usr/bin/env bash
# Main branch: `pulumi up` of the stack, summarized in the job summary. It also repairs what a run
# cut off halfway (job cancelled, runner lost) left behind, with no step by a person:
# 1. the stack lock that run still holds: removed with `pulumi cancel`. Safe only because the
#    workflow's concurrency group lets one job at a time write the stack; anything else that writes
#    it (a destroy, a refresh, an `up` from a laptop) must not run meanwhile (the package's
#    docs/interruptions.md);
# 2. the objects PagerDuty made whose creates the state still has pending: `pagerduty-recover`
#    records them in the state (it reads the stack's backend, so it needs no file from that runner);
# 3. with a local file backend (PULUMI_BACKEND_URL=file://...), a checkpoint the lost machine left
#    cut short (`failed to load checkpoint: EOF`): `pagerduty-recover` restores its `.bak` (keeping
#    the broken file as `.corrupt-<time>`), said here as a warning; with no usable `.bak` it fails
#    naming the newest checkpoint of a completed update, and nothing is changed.
# Then `pulumi up` creates what is still missing.
set -uo pipefail
here=$(dirname "$0")
. "$here/summary.sh"
recover_cli="$here/../../dist/provider/cli/recover.js"
out=$(mktemp)

# Runs "$@" (output to the log and $out); if it failed because a cut-off run left the stack locked,
# removes the lock and runs it once more. Returns the exit code of the last run.
with_stale_lock_cleared() {
  "$@" 2>&1 | tee "$out"
  local code=${PIPESTATUS[0]}
  if [ "$code" -ne 0 ] && grep -q "currently locked" "$out"; then
    echo "::warning title=Stale stack lock::an earlier run of this workflow was cut off and left the stack locked; no other run of this workflow can be running (concurrency group), so the lock is removed"
    pulumi cancel --yes --non-interactive --stack "${PULUMI_STACK:?}" || return $?
    "$@" 2>&1 | tee "$out"
    code=${PIPESTATUS[0]}
  fi
  return "$code"
}

if ! with_stale_lock_cleared node "$recover_cli" --stack "${PULUMI_STACK:?}"; then
  SUMMARY_OPEN=" open" summarize "Pulumi up of \`$PULUMI_STACK\`: not run, recovering an interrupted run failed" "$out"
  echo "::error title=Recovery failed::pagerduty-recover could not settle what an interrupted run left; see the job summary"
  rm -f "$out"
  exit 1
fi
recovered=$(grep -E '^  (record|settled|not made) ' "$out" || true)
restored=$(grep -E "^pagerduty-recover: restored the stack's checkpoint" "$out" || true)
if [ -n "$restored" ]; then
  echo "::warning title=Checkpoint restored::${restored#pagerduty-recover: }"
fi

with_stale_lock_cleared pulumi up --yes --diff --non-interactive --color never --suppress-progress --stack "$PULUMI_STACK"
code=$?
note=()
if [ -n "$restored" ]; then note=("The stack's checkpoint was cut short by an interrupted run and restored from its backup first:" '```' "$restored" '```'); fi
if [ -n "$recovered" ]; then note+=("An interrupted earlier run was repaired first (pagerduty-recover):" '```' "$recovered" '```'); fi
if [ "$code" -eq 0 ]; then
  summarize "Pulumi up of \`$PULUMI_STACK\`: succeeded" "$out" "${note[@]}"
else
  SUMMARY_OPEN=" open" summarize "Pulumi up of \`$PULUMI_STACK\`: failed (exit $code)" "$out" "${note[@]}"
  echo "::error title=Pulumi up failed::pulumi up exited $code; see the job summary"
fi
rm -f "$out"
exit "$code"

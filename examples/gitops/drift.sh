#!/usr/bin/env bash
# Nightly drift check: refresh preview with the current stack config (--run-program), failing on
# any change. Exit 0: no drift. Exit 7: drift, reported with the resources and fields that changed.
# Anything else: an error (credentials, network, program), reported as such.
set -uo pipefail
here=$(dirname "$0")
. "$here/summary.sh"
out=$(mktemp)
pulumi refresh --preview-only --expect-no-changes --run-program --diff --non-interactive --color never --suppress-progress >"$out" 2>&1
code=$?
cat "$out"
case "$code" in
  0)
    echo "no drift"
    summarize "Drift check of \`${PULUMI_STACK:-}\`: no drift" "$out"
    ;;
  7)
    mapfile -t found < <(node "$here/drift-report.js" "$out")
    [ "${#found[@]}" -gt 0 ] || found=("changes were reported; see the output")
    printf 'drift: %s\n' "${found[@]}"
    SUMMARY_OPEN=" open" summarize "Drift check of \`${PULUMI_STACK:-}\`: drift" "$out" "Changed out of band (live value differs from the stack's state):" "" "${found[@]/#/- }" "" \
      "A plain \`pulumi up\` leaves these as they are (it compares the program with the state, which has not seen the change). To put the declared values back: \`pulumi up --refresh --run-program\` (or \`pulumi refresh --run-program\`, then \`pulumi up\`). To keep a change, write it into the program."
    echo "::error title=Drift::$(IFS=';'; echo "${found[*]}")"
    ;;
  *)
    echo "error: the drift check failed (exit $code), nothing was compared"
    SUMMARY_OPEN=" open" summarize "Drift check of \`${PULUMI_STACK:-}\`: error (exit $code)" "$out"
    echo "::error title=Drift check failed::pulumi refresh exited $code; see the job summary"
    ;;
esac
rm -f "$out"
exit "$code"

#!/usr/bin/env bash
# Pull requests: what the pull request's program does to the events the cases hold (a hand-written
# case file, or one `pagerduty-routing-test record` made from real traffic), against the base
# branch's program, with no PagerDuty account and no secret. Run from the pull request's project
# (the head); ROUTING_BASE_DIR is the base branch's checkout of the same project, its dependencies
# installed. Starts a throwaway PagerDuty emulator, adds the objects the programs look up
# (ROUTING_SEED, as routing-test.sh), and runs `pagerduty-routing-test replay`: each program on a
# throwaway stack outside its project, the cases through both, each changed event with both traces.
# The job summary gets the counts and the changed events, ROUTING_REPLAY_JUNIT the JUnit report.
# ROUTING_REPLAY_CONFIG: more stack settings for both programs, KEY=VALUE a line.
#
# Exit: replay's: 0 nothing changed or only what the case file expects, 1 a change it does not
# expect, 3 the replay could not run (then the JUnit report holds one failing test case saying why).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/summary.sh"
. "$here/emulator.sh"
routing_cli="$here/../../dist/provider/cli/routing-test.js"
cases=${ROUTING_CASES:-cases.yaml}
junit=$(absolute "${ROUTING_REPLAY_JUNIT:-routing-replay.xml}")
rm -f "$junit"

# The replay could not start: the step in the summary, an annotation, and a JUnit report of one
# failing test case. fail TITLE LOG [OUTPUT-NAME]
fail() {
  SUMMARY_OPEN=" open" SUMMARY_OUTPUT=${3:-log} summarize "Routing replay of \`$cases\`: not run, $1" "$2"
  echo "::error title=Routing replay not run::$1; see the job summary"
  node -e '
    const [junit, cases, title] = process.argv.slice(1);
    const { junitXml } = require(process.argv[4]);
    require("fs").writeFileSync(junit, junitXml(cases, [{ name: "replay", classname: cases, failure: { message: title, text: title } }]));
  ' "$junit" "$cases" "$1" "$here/../../dist/provider/cli/junit.js" || echo "routing-replay: could not write $junit" >&2
  exit 3
}

if [ -z "${ROUTING_BASE_DIR:-}" ] || [ ! -d "$ROUTING_BASE_DIR" ]; then
  echo "ROUTING_BASE_DIR must name the base branch's checkout of the project (got '${ROUTING_BASE_DIR:-}')" >"$work/base.log"
  fail "no base program" "$work/base.log"
fi
start_emulator
seed_emulator

config=()
while IFS= read -r pair; do [ -n "$pair" ] && config+=(--config "$pair"); done <<<"${ROUTING_REPLAY_CONFIG:-}"
summary=${GITHUB_STEP_SUMMARY:-$work/summary.md}
node "$routing_cli" replay --cases "$cases" --base "$ROUTING_BASE_DIR" --head "$project" --emulator "$work/emulator.json" \
  "${config[@]}" --junit "$junit" --summary "$summary" 2>&1 | tee "$work/out.txt"
code=${PIPESTATUS[0]}
grep -E '^CHANGED [0-9]' "$work/out.txt" | while read -r _ line; do echo "::error title=Routing change not expected::$line"; done
# Anything but 0 and 1 (a wrong ROUTING_REPLAY_CONFIG line is a usage error, 2) did not run: 3, with a report.
case "$code" in
  0 | 1) exit "$code" ;;
  *) [ -s "$junit" ] && exit 3 || fail "pagerduty-routing-test replay could not run (exit $code)" "$work/out.txt" "replay output" ;;
esac

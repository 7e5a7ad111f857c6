#!/usr/bin/env bash
# Pull requests: the routing cases against the pull request's program, with no PagerDuty account
# and no secret. Starts a throwaway PagerDuty emulator (the project's dev dependency
# `pagerduty-emulator`), adds the objects the program looks up (ROUTING_SEED: a seed document's path,
# or the JSON itself), deploys the program to a throwaway stack on it, runs pagerduty-routing-test on
# ROUTING_CASES, puts its table and the traces of failing cases in the job summary (one error
# annotation per failing case) and the JUnit report in ROUTING_JUNIT.
#
# It leaves the project as it found it, so it runs locally as often as in CI: the stack lives in a
# copy of the project in a temp dir (its entries linked, Pulumi.yaml and the committed
# Pulumi.<ROUTING_STACK>.yaml copied), with its backend and passphrase there too; the project's files
# and its selected stack are not touched, and the temp dir goes at exit.
#
# Exit: the routing test's: 0 every case passed, 1 a case failed, 3 the cases could not run (the
# emulator, the seed, the stack or the deploy failed, or the case file is wrong); then the JUnit
# report holds one failing test case saying what could not run.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/summary.sh"
. "$here/emulator.sh"
routing_cli="$here/../../dist/provider/cli/routing-test.js"
stack=${ROUTING_STACK:-routing-test}
cases=${ROUTING_CASES:-cases.yaml}
junit=$(absolute "${ROUTING_JUNIT:-routing-test.xml}")
# A report of an earlier run must not pass for this one's.
rm -f "$junit"

# The cases could not run: the step in the summary, an annotation, and a JUnit report of one failing
# test case, so CI shows why instead of no report. fail TITLE LOG [OUTPUT-NAME]
fail() {
  SUMMARY_OPEN=" open" SUMMARY_OUTPUT=${3:-pulumi output} summarize "Routing test of \`$cases\`: not run, $1" "$2"
  echo "::error title=Routing test not run::$1; see the job summary"
  not_run_junit "$1" "$2"
  exit 3
}
not_run_junit() {
  [ -s "$junit" ] && return
  node -e '
    const fs = require("fs");
    const [junit, cases, title, log] = process.argv.slice(1);
    const { junitXml } = require(process.argv[5]);
    const tail = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").slice(-60).join("\n") : "";
    const text = `the cases of ${cases} could not run: ${title}\n\n${tail}`;
    fs.writeFileSync(junit, junitXml(cases, [{ name: "the routing test could not run", classname: cases, failure: { message: title, text } }]));
  ' "$junit" "$cases" "$1" "$2" "$here/../../dist/provider/cli/junit.js" || echo "routing-test: could not write $junit" >&2
}

start_emulator
seed_emulator

# A throwaway stack in a copy of the project: every entry linked but the files Pulumi writes
# (Pulumi.yaml is read where it is found, and the stack's settings file beside it gets the stack's
# encryption salt and the emulator's settings), so nothing of the project changes and the stack the
# project has selected stays selected. Backend and passphrase are made for this run.
copy="$work/project"
mkdir -p "$copy" "$work/state"
for entry in "$project"/* "$project"/.[!.]*; do
  [ -e "$entry" ] || continue
  case "${entry##*/}" in Pulumi.yaml | Pulumi.yml | "Pulumi.$stack.yaml" | "Pulumi.$stack.yml") cp "$entry" "$copy/" ;; *) ln -s "$entry" "$copy/" ;; esac
done
export PULUMI_BACKEND_URL="file://$work/state"
PULUMI_CONFIG_PASSPHRASE=$(node -p 'require("crypto").randomBytes(24).toString("hex")')
export PULUMI_CONFIG_PASSPHRASE
unset PULUMI_CONFIG_PASSPHRASE_FILE
make_stack() {
  pulumi stack init --non-interactive --no-select "$stack" || return
  # The plain settings in one command (each `pulumi` run costs a CLI start), the secret on stdin.
  local pair value settings=()
  for pair in url:pagerduty:apiUrl url:pagerduty:authUrl account.subdomain:pagerduty:subdomain account.region:pagerduty:serviceRegion \
    oauth.clientId:pagerduty:clientId escalationPolicyId:escalationPolicyId; do
    value=$(ready "${pair%%:*}") || return
    settings+=(--plaintext "${pair#*:}=$value")
  done
  pulumi config set-all --non-interactive --stack "$stack" "${settings[@]}" || return
  ready oauth.clientSecret | pulumi config set --non-interactive --stack "$stack" --secret pagerduty:clientSecret
}
(cd "$copy" && make_stack) >"$work/stack.log" 2>&1 || fail "the throwaway stack could not be made" "$work/stack.log"
(cd "$copy" && pulumi up --yes --skip-preview --non-interactive --color never --suppress-progress --stack "$stack") >"$work/up.log" 2>&1 ||
  fail "the program could not be deployed to the emulator" "$work/up.log"

(cd "$project" && node "$routing_cli" --cases "$cases" --emulator "$work/emulator.json" --stack "$stack" --cwd "$copy" --junit "$junit") 2>&1 | tee "$work/out.txt"
code=${PIPESTATUS[0]}
case "$code" in
  0) title="Routing test of \`$cases\`: every case passed" ;;
  1) title="Routing test of \`$cases\`: $(grep -c '^FAIL ' "$work/out.txt") case(s) failed" ;;
  *) title="Routing test of \`$cases\`: not run (exit $code)" ;;
esac
SUMMARY_OPEN=" open" SUMMARY_OUTPUT="routing test" summarize "$title" "$work/out.txt"
grep '^FAIL ' "$work/out.txt" | while read -r _ line; do echo "::error title=Routing case failed::$line"; done
if [ "$code" = 3 ]; then
  echo "::error title=Routing test not run::the cases of $cases could not run; see the job summary"
  not_run_junit "pagerduty-routing-test could not run the cases" "$work/out.txt"
fi
exit "$code"

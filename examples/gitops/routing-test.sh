#!/usr/bin/env bash
# Pull requests: the routing cases against the pull request's program, with no PagerDuty account
# and no secret. Starts a throwaway PagerDuty emulator (the project's dev dependency
# `pagerduty-emulator`), adds the objects the program looks up (ROUTING_SEED, a seed document),
# deploys the program to a throwaway stack on a local backend in a temp dir (config from the
# committed Pulumi.<ROUTING_STACK>.yaml, the emulator's URLs and credentials set here), runs
# pagerduty-routing-test on ROUTING_CASES, puts its table and the traces of failing cases in the
# job summary (one error annotation per failing case) and the JUnit report in ROUTING_JUNIT.
# Exit: the routing test's (0 every case passed, 1 a case failed, 3 not run), or the failed step's.
set -uo pipefail
here=$(dirname "$0")
. "$here/summary.sh"
routing_cli="$here/../../dist/provider/cli/routing-test.js"
cases=${ROUTING_CASES:-cases.yaml}
stack=${ROUTING_STACK:-routing-test}
junit=${ROUTING_JUNIT:-routing-test.xml}
work=$(mktemp -d)
emulator_pid=
cleanup() {
  # The emulator runs under npx in a process group of its own: the group goes, the emulator with it.
  if [ -n "$emulator_pid" ]; then kill -- "-$emulator_pid" 2>/dev/null || kill "$emulator_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() { # fail TITLE FILE EXIT: the step that failed, in the summary and as an annotation
  SUMMARY_OPEN=" open" summarize "Routing test: $1" "$2"
  echo "::error title=Routing test not run::$1; see the job summary"
  exit "$3"
}

# The emulator prints one JSON line when ready (its URL, admin token, seeded credentials).
# Started as a job of its own (set -m): npx runs the emulator as its child, which a kill of npx
# alone would leave running after the script.
set -m
npx --no-install pagerduty-emulator --port 0 >"$work/emulator.json" 2>"$work/emulator.log" &
emulator_pid=$!
set +m
for _ in $(seq 300); do
  if [ -s "$work/emulator.json" ] || ! kill -0 "$emulator_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
[ -s "$work/emulator.json" ] || fail "the emulator did not start (is pagerduty-emulator a dev dependency?)" "$work/emulator.log" 3
ready() { node -e 'const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.stdout.write(String(process.argv[2].split(".").reduce((o, k) => o[k], l)))' "$work/emulator.json" "$1"; }
url=$(ready url)
if [ -n "${ROUTING_SEED:-}" ]; then
  # The admin token goes in a header file, never on a command line.
  printf 'x-emulator-admin-token: %s\n' "$(ready adminToken)" >"$work/admin-header"
  curl -sS --fail-with-body -H @"$work/admin-header" -H 'content-type: application/json' --data-binary @"$ROUTING_SEED" "$url/_emulator/seed" >"$work/seed.log" 2>&1 ||
    fail "the emulator refused $ROUTING_SEED" "$work/seed.log" 3
fi

# A throwaway stack: a local backend in the temp dir, secrets under a passphrase made for this run.
mkdir -p "$work/state"
export PULUMI_BACKEND_URL="file://$work/state"
PULUMI_CONFIG_PASSPHRASE=$(node -p 'require("crypto").randomBytes(24).toString("hex")')
export PULUMI_CONFIG_PASSPHRASE
make_stack() {
  pulumi stack init --non-interactive "$stack" || return
  local pair
  for pair in url:pagerduty:apiUrl url:pagerduty:authUrl account.subdomain:pagerduty:subdomain account.region:pagerduty:serviceRegion \
    oauth.clientId:pagerduty:clientId escalationPolicyId:escalationPolicyId; do
    pulumi config set --non-interactive --stack "$stack" -- "${pair#*:}" "$(ready "${pair%%:*}")" || return
  done
  ready oauth.clientSecret | pulumi config set --non-interactive --stack "$stack" --secret pagerduty:clientSecret
}
make_stack >"$work/stack.log" 2>&1 || fail "the throwaway stack could not be made" "$work/stack.log" 3
pulumi up --yes --skip-preview --non-interactive --color never --suppress-progress --stack "$stack" >"$work/up.log" 2>&1 ||
  fail "the program could not be deployed to the emulator" "$work/up.log" $?

node "$routing_cli" --cases "$cases" --emulator "$work/emulator.json" --stack "$stack" --junit "$junit" 2>&1 | tee "$work/out.txt"
code=${PIPESTATUS[0]}
case "$code" in
  0) title="Routing test of \`$cases\`: every case passed" ;;
  1) title="Routing test of \`$cases\`: $(grep -c '^FAIL ' "$work/out.txt") case(s) failed" ;;
  *) title="Routing test of \`$cases\`: not run (exit $code)" ;;
esac
SUMMARY_OPEN=" open" summarize "$title" "$work/out.txt"
grep '^FAIL ' "$work/out.txt" | while read -r _ line; do echo "::error title=Routing case failed::$line"; done
exit "$code"

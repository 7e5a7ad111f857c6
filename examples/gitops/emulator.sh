# Sourced by routing-test.sh and routing-replay.sh, in the project's folder: the run's temp dir
# ($work) and a throwaway PagerDuty emulator, both gone at exit, and the objects the program looks
# up. The caller defines `fail TITLE LOG [OUTPUT-NAME]` (it exits 3).

project=$(pwd)
# The files the user names are the project's, whatever directory the commands run in.
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$project" "$1" ;; esac; }
work=$(mktemp -d)
emulator_pid=
cleanup() {
  # The emulator runs under npx in a process group of its own: the group goes, the emulator with it.
  if [ -n "$emulator_pid" ]; then kill -- "-$emulator_pid" 2>/dev/null || kill "$emulator_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Starts the emulator; its ready line (URL, admin token, seeded credentials) in $work/emulator.json.
# Started as a job of its own (set -m): npx runs the emulator as its child, which a kill of npx
# alone would leave running after the script.
start_emulator() {
  set -m
  npx --no-install pagerduty-emulator --port 0 >"$work/emulator.json" 2>"$work/emulator.log" &
  emulator_pid=$!
  set +m
  for _ in $(seq 300); do
    if [ -s "$work/emulator.json" ] || ! kill -0 "$emulator_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  [ -s "$work/emulator.json" ] || fail "the emulator did not start (is pagerduty-emulator a dev dependency?)" "$work/emulator.log" "emulator log"
  url=$(ready url)
}

# A field of the ready line: `ready oauth.clientId`.
ready() { node -e 'const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.stdout.write(String(process.argv[2].split(".").reduce((o, k) => o[k], l)))' "$work/emulator.json" "$1"; }

# Adds ROUTING_SEED's objects (a seed document's path in the project, or the JSON itself, starting
# with "{") to the emulator; nothing without it.
seed_emulator() {
  [ -n "${ROUTING_SEED:-}" ] || return 0
  local seed seed_name
  if [[ $ROUTING_SEED =~ ^[[:space:]]*\{ ]]; then
    seed="$work/seed.json" seed_name="ROUTING_SEED's JSON"
    printf '%s' "$ROUTING_SEED" >"$seed"
  else
    seed=$(absolute "$ROUTING_SEED") seed_name=$ROUTING_SEED
  fi
  if [ ! -f "$seed" ]; then
    echo "ROUTING_SEED is neither a seed document's path in the project nor JSON (a document starts with {): no file $seed" >"$work/seed.log"
    fail "ROUTING_SEED names no file" "$work/seed.log" "seed"
  fi
  # The admin token goes in a header file, never on a command line.
  printf 'x-emulator-admin-token: %s\n' "$(ready adminToken)" >"$work/admin-header"
  curl -sS --fail-with-body -H @"$work/admin-header" -H 'content-type: application/json' --data-binary @"$seed" "$url/_emulator/seed" >"$work/seed.log" 2>&1 ||
    fail "the emulator refused $seed_name" "$work/seed.log" "the emulator's answer"
}

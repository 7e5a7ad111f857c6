#!/usr/bin/env bash
# The demo (README's first command): emulator + `pulumi up` of examples/quickstart, then a no-drift
# check. Offline: local file backend, passphrase secrets, update checks off. Starts clean each run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
demo=$root/.work/demo
# Node.js of the development line first on PATH (scripts/setup-node.sh says when it brings it).
PATH="$(bash scripts/setup-node.sh):$PATH"
export PATH

echo "==> installing and building"
# `npm install` rather than `npm ci`: npm 11 leaves optional platform bindings out of the lock file
# and `npm ci` then refuses it; --no-save keeps the clone clean.
npm install --no-audit --no-fund --no-save --loglevel=error
npm run build --silent
bin=$(bash scripts/setup-pulumi.sh)
rm -rf "$demo" && mkdir -p "$demo/state"
tarball=$demo/$(npm pack --silent --pack-destination "$demo" | tail -n1)

echo "==> starting the emulator (HTTPS, with a local CA made at start)"
node emulator/dist/cli.js --port 0 --tls >"$demo/emulator.json" 2>"$demo/emulator.log" &
emulator_pid=$!
trap 'kill $emulator_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$demo/emulator.json" ] && break; sleep 0.1; done
field() { node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(process.argv[2].split(".").reduce((v,k)=>v[k],o))' "$demo/emulator.json" "$1"; }
echo "    $(field url) (CA $(field caFile))"

export PATH="$bin:$PATH"
export PULUMI_HOME=$demo/pulumi-home
export PULUMI_BACKEND_URL=file://$demo/state
export PULUMI_CONFIG_PASSPHRASE=demo
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
# The provider checks certificates: trust the emulator's CA (Node reads this at process start, and
# the dynamic provider's process inherits it from the pulumi CLI).
export NODE_EXTRA_CA_CERTS=$(field caFile)

# A copy of examples/quickstart outside the workspaces, with the packed package installed as a user
# installs it (examples/quickstart itself links the checkout).
echo "==> installing the packed package into a copy of examples/quickstart"
mkdir "$demo/quickstart"
cp examples/quickstart/{Pulumi.yaml,index.ts,package.json,tsconfig.json} "$demo/quickstart/"
cd "$demo/quickstart"
# (renamed: jest's module map would meet two packages named pagerduty-quickstart)
npm pkg set name=pagerduty-demo "dependencies.pulumi-pagerduty-dynamic=file:$tarball"
npm install --no-audit --no-fund --loglevel=error
pulumi stack init demo --non-interactive >/dev/null 2>&1 || pulumi stack select demo --non-interactive
pulumi config set -- pagerduty:apiUrl "$(field apiUrl)"
pulumi config set -- pagerduty:authUrl "$(field authUrl)"
pulumi config set -- pagerduty:subdomain "$(field account.subdomain)"
pulumi config set -- pagerduty:serviceRegion "$(field account.region)"
pulumi config set -- pagerduty:clientId "$(field oauth.clientId)"
field oauth.clientSecret | pulumi config set --secret pagerduty:clientSecret
pulumi config set -- escalationPolicyId "$(field escalationPolicyId)"

echo "==> pulumi up"
pulumi up --yes --non-interactive
echo "==> no-drift check: preview and refresh must both find nothing to change"
pulumi preview --expect-no-changes --non-interactive
pulumi refresh --preview-only --expect-no-changes --run-program --non-interactive
echo "==> demo done: two services created, no drift. State in $demo/state; rerun starts clean."

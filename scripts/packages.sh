#!/usr/bin/env bash
# `npm run packages`: packs this clone's two packages (pulumi-pagerduty-dynamic and
# pagerduty-emulator), already built, into .work/packages and prints their paths, one a line: what
# the quick start installs until both are on the npm registry. Each tarball is packed aside and then
# renamed into place, so two runs at once never leave a half-written one to install.
set -euo pipefail
cd "$(dirname "$0")/.."
for built in dist/provider/index.js emulator/dist/cli.js; do
  [ -f "$built" ] || { echo "packages: $built is missing: run \`npm run build\` (or \`npm run demo\`) first" >&2; exit 1; }
done
out=$PWD/.work/packages
mkdir -p "$out"
aside=$(mktemp -d "$out/.packing.XXXXXX")
trap 'rm -rf "$aside"' EXIT
for workspace in "" emulator; do
  name=$(npm pack --silent --pack-destination "$aside" ${workspace:+--workspace "$workspace"} | tail -n1)
  mv -f "$aside/$name" "$out/$name"
  echo "$out/$name"
done

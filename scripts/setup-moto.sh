#!/usr/bin/env bash
# Makes moto's S3-compatible server (moto_server, from PyPI) that the package's fresh-runner tests
# keep a stack's state in (tests/e2e/plugin-fresh-runner.test.ts: Pulumi's S3 backend on loopback),
# and prints its path (last line of stdout). Installed once into a virtual environment cached beside
# the Pulumi CLI of scripts/setup-pulumi.sh; moto rather than MinIO because it is a pip install,
# where MinIO is a Go build of several minutes that the module proxy is not meant to serve.
set -euo pipefail

version=${MOTO_VERSION:-5.2.5}
# shellcheck source=scripts/cache-dir.sh
. "$(dirname "$0")/cache-dir.sh"
cache=$(cache_dir)
venv="$cache/tools/moto-$version"
log() { echo "setup-moto: $*" >&2; }

if [ -x "$venv/bin/moto_server" ] && [ -f "$venv/.complete" ]; then
  log "using $venv"
  echo "$venv/bin/moto_server"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { log "no python3 to install moto with"; exit 1; }
log "installing moto[server]==$version into $venv (first run only)"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$version" >&2
touch "$venv/.complete"
echo "$venv/bin/moto_server"

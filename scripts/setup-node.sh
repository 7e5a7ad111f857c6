#!/usr/bin/env bash
# Prints the directory holding a `node` of the line asked for (default: the development line of
# scripts/support-matrix.json). The machine's own Node.js is used when it is of that major line;
# otherwise the release is taken from the npm registry, where Node.js publishes its binaries as
# the packages node-<os>-<arch> (what the `node` package installs), and cached outside the clone.
# Usage: setup-node.sh [VERSION]   (e.g. 22.23.3)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# Any Node.js reads the JSON (npm brought one): the version is read, not matched out of the text.
want=${1:-$(node -p "require('$here/scripts/support-matrix.json').node.development")}
[ -n "$want" ] || { echo "setup-node: no development line in scripts/support-matrix.json" >&2; exit 1; }
major=${want%%.*}
# shellcheck source=scripts/cache-dir.sh
. "$here/scripts/cache-dir.sh"
cache=$(cache_dir)
dir="$cache/node-v$want"
log() { echo "setup-node: $*" >&2; }

have=$(node -p 'process.versions.node' 2>/dev/null || echo "")
if [ "${have%%.*}" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi

if [ ! -x "$dir/bin/node" ]; then
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) log "no Node.js $major package for $(uname -s)"; exit 1 ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) log "no Node.js $major package for $(uname -m)"; exit 1 ;; esac
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-$os-$arch@$want" >/dev/null)
  mkdir -p "$work/x" && tar -xzf "$work"/node-*.tgz -C "$work/x"
  "$work/x/package/bin/node" -e 0 # a binary that does not run here is not cached
  mkdir -p "$cache" && rm -rf "$dir.partial" && mv "$work/x/package" "$dir.partial" && mv "$dir.partial" "$dir"
fi
log "Node.js ${have:-(none)} on PATH is not of the $major line: using Node.js $want from the npm registry (cached in $dir)"
echo "$dir/bin"

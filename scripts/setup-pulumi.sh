#!/usr/bin/env bash
# Makes a Pulumi CLI + Node.js language host available offline and prints the directory holding
# them (last line of stdout). Uses a `pulumi` on PATH when it is at least the SDK's version;
# otherwise builds both from Go modules at the SDK's version and caches them outside the clone.
# Usage: setup-pulumi.sh [VERSION]: another release than the SDK's (the support matrix's oldest).
#
# Why a wrapper module: pkg/go.mod carries replace directives, so `go install pkg@v` is refused.
# Only the main module's replaces apply, so the wrapper requires pkg/v3 and sdk/v3 at one version
# and repeats the tag's non-local replace.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
sdk_pkg="$here/node_modules/@pulumi/pulumi/package.json"
[ -f "$sdk_pkg" ] || { echo "setup-pulumi: run npm ci first (no $sdk_pkg)" >&2; exit 1; }
version=${1:-$(node -p "require('$sdk_pkg').version")}
# shellcheck source=scripts/cache-dir.sh
. "$here/scripts/cache-dir.sh"
cache=$(cache_dir)
bin="$cache/pulumi-v$version/bin"
log() { echo "setup-pulumi: $*" >&2; }

version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

install_dynamic_provider() {
  # The dynamic provider plugin is a shell script shipped in the npm package; the engine finds it
  # beside the CLI binary.
  cp "$here/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$1/"
  chmod +x "$1/pulumi-resource-pulumi-nodejs"
}

# 1. A suitable pulumi on PATH (with its language host) wins.
if command -v pulumi >/dev/null 2>&1 && command -v pulumi-language-nodejs >/dev/null 2>&1; then
  have=$(pulumi version 2>/dev/null | sed 's/^v//')
  # An asked-for release must be that release; otherwise any at least the SDK's.
  if [ -n "$have" ] && { [ "$have" = "$version" ] || { [ -z "${1:-}" ] && version_ge "$have" "$version"; }; }; then
    log "using pulumi $have from PATH"
    dirname "$(command -v pulumi)"
    exit 0
  fi
fi

# 2. The cache from an earlier build.
if [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ] && [ -f "$bin/.complete" ]; then
  install_dynamic_provider "$bin"
  log "using cached build in $bin"
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "no pulumi >= $version on PATH and no Go toolchain to build one"; exit 1; }
log "building pulumi v$version from Go modules (first run only; cached in $bin)"
mkdir -p "$bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"

# shellcheck source=scripts/go-in.sh
. "$here/scripts/go-in.sh"

wrapper() { # wrapper DIR MODULE-NAME IMPORT REQUIRES... (each "path version")
  local dir=$1 name=$2 import=$3; shift 3
  mkdir -p "$dir"
  {
    echo "module $name"
    echo
    echo "go 1.25"
    echo
    for req in "$@"; do echo "require $req"; done
    echo
    echo "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e"
  } >"$dir/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$import" >"$dir/tools.go"
}

# The CLI.
wrapper "$work/cli" pulumi-cli-build github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
  "github.com/pulumi/pulumi/pkg/v3 v$version" "github.com/pulumi/pulumi/sdk/v3 v$version"
GOFLAGS=-mod=mod go_in "$work/cli" mod tidy
GOFLAGS=-mod=mod go_in "$work/cli" build -trimpath -ldflags "$ldflags" -o "$bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
log "built $("$bin/pulumi" version)"

# The Node.js language host. Its module has no version tags, so the SDK release is pinned by the
# release commit's pseudo-version (the commit comes from the proxy's Origin record).
lh_module=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
lh_pkg=$lh_module
lh_version=""
origin=$(cd "$work/cli" && GOFLAGS=-mod=mod go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$version" 2>/dev/null || true)
commit=$(printf '%s' "$origin" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const o=JSON.parse(s);process.stdout.write((o.Origin&&o.Origin.Hash)||"")}catch{}})')
stamp=$(printf '%s' "$origin" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const t=JSON.parse(s).Time;process.stdout.write(t.replace(/[-:TZ]/g,"").slice(0,14))}catch{}})')
if [ -n "$commit" ] && [ -n "$stamp" ]; then
  lh_version="v3.0.0-$stamp-${commit:0:12}"
elif [ -n "${PULUMI_LANGUAGE_NODEJS_VERSION:-}" ]; then
  lh_version=$PULUMI_LANGUAGE_NODEJS_VERSION
elif [ "$version" = "3.248.0" ]; then
  # Release commit a88168d865b7 (2026-06-24T12:07:34Z), read from the v3.248.0 tags.
  lh_version=v3.0.0-20260624120734-a88168d865b7
fi
built_lh=""
if [ -n "$lh_version" ]; then
  wrapper "$work/lh" pulumi-language-nodejs-build "$lh_pkg" \
    "$lh_module $lh_version" "github.com/pulumi/pulumi/pkg/v3 v$version" "github.com/pulumi/pulumi/sdk/v3 v$version"
  if GOFLAGS=-mod=mod go_in "$work/lh" mod tidy &&
     GOFLAGS=-mod=mod go_in "$work/lh" build -trimpath -ldflags "$ldflags" -o "$bin/pulumi-language-nodejs" "$lh_pkg"; then
    built_lh="$lh_version"
  fi
else
  log "no release commit known for sdk/v3@v$version"
fi

if [ -z "$built_lh" ]; then
  # Fallback, announced loudly: the last SDK release whose module still contained the language
  # host as a package (before it became a module of its own). It speaks the same LanguageRuntime
  # gRPC protocol and runs the installed @pulumi/pulumi $version program runner.
  fallback=${PULUMI_LANGUAGE_NODEJS_FALLBACK:-3.68.0}
  log "WARNING: $lh_module is not available from the module proxy at the v$version release commit;"
  log "WARNING: building the language host from github.com/pulumi/pulumi/sdk/v3@v$fallback instead"
  lh_pkg=github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
  mkdir -p "$work/lh-fallback"
  printf 'module pulumi-language-nodejs-build\n\ngo 1.21\n\nrequire github.com/pulumi/pulumi/sdk/v3 v%s\n\nreplace golang.org/x/text => golang.org/x/text v0.3.6\n' "$fallback" >"$work/lh-fallback/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$lh_pkg" >"$work/lh-fallback/tools.go"
  GOFLAGS=-mod=mod go_in "$work/lh-fallback" mod tidy
  GOFLAGS=-mod=mod go_in "$work/lh-fallback" build -trimpath \
    -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$fallback" \
    -o "$bin/pulumi-language-nodejs" "$lh_pkg"
  built_lh="sdk/v3@v$fallback (fallback)"
fi

install_dynamic_provider "$bin"
printf 'pulumi v%s\npulumi-language-nodejs %s\n' "$version" "$built_lh" >"$bin/.complete"
log "ready: $bin"
echo "$bin"

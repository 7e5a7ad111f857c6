#!/usr/bin/env bash
# Makes the language hosts and the SDK generator that programs in other languages than Node.js
# need, offline, and prints the directory holding them (last line of stdout). Built from Go
# modules once, cached beside the Pulumi CLI of scripts/setup-pulumi.sh (docs/building-pulumi.md).
#
#   scripts/setup-language-hosts.sh [VERSION]
#
# VERSION is the Pulumi CLI's (default: the installed @pulumi/pulumi's, as setup-pulumi.sh builds);
# the support matrix builds the hosts of its oldest Pulumi (scripts/support-matrix.json) with it.
# - pulumi-language-python from its own module, github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3,
#   at the CLI release commit's pseudo-version (the commit and time from the module proxy's Origin
#   record of github.com/pulumi/pulumi/sdk/v3@vVERSION, as setup-pulumi.sh for the Node.js host;
#   PULUMI_LANGUAGE_PYTHON_VERSION names it instead), with its exec shim (pulumi-language-python-exec)
#   from the same release. Where the proxy has no Origin record or refuses that module, it falls
#   back, loudly, to the last github.com/pulumi/pulumi/sdk/v3 release that held the host as a
#   package (v3.68.0), which does not read a program's `virtualenv` option nor answer
#   GeneratePackage, Link or GenerateProgram. What was built is in hosts.json beside the binaries.
# - pulumi-language-yaml from github.com/pulumi/pulumi-yaml at the release the CLI bundles where
#   that can be established, else the newest release the proxy serves that builds with the pkg/sdk
#   versions it was released with, not newer than the CLI: the proxy does not serve the Pulumi
#   repository's own files that name the bundled release (its release scripts live outside the Go
#   modules; neither pkg/v3 nor sdk/v3 of 3.248.0 or 3.276.0 names it). So: v1.38.3 (pkg/sdk
#   v3.257.0, the newest served: v1.38.4 and v1.39+ are refused) for a CLI of 3.257.0 or later;
#   v1.30.0 (pkg/sdk v3.224.0) for an older one such as 3.248.0, whose own release (v1.37.0,
#   pkg/sdk v3.247.0, by its date the one 3.248.0 bundles) cannot be built here: pkg/v3 v3.247.0
#   is refused and v1.37.0 does not compile against 3.248.0's. Both answer GeneratePackage and
#   Link (since v1.26.2), which `pulumi package add` asks of the host since CLI 3.219, and
#   GenerateProgram (`pulumi import --out`). PULUMI_YAML_VERSION names another.
# - pulumi-sdkgen (scripts/sdkgen/main.go): SDKs from a schema with pkg/v3's code generators, for
#   hosts without GeneratePackage (the fallback Python host, setup-pulumi.sh's fallback Node.js host).
# A user with a current Pulumi install needs none of this: its hosts generate SDKs themselves.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-$(node -p "require('$here/node_modules/@pulumi/pulumi/package.json').version")}
version=${version#v}
# shellcheck source=scripts/cache-dir.sh
. "$here/scripts/cache-dir.sh"
cache=$(cache_dir)
log() { echo "setup-language-hosts: $*" >&2; }
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

if [ -n "${PULUMI_YAML_VERSION:-}" ]; then
  yaml_version=$PULUMI_YAML_VERSION
elif version_ge "$version" 3.257.0; then
  yaml_version=1.38.3
else
  yaml_version=1.30.0
fi
python_fallback=${PULUMI_LANGUAGE_PYTHON_FALLBACK:-3.68.0}
python_module=github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3
# The generator's source is part of the key: a change to it rebuilds.
sdkgen_hash=$(sha256sum "$here/scripts/sdkgen/main.go" | cut -c1-12)
# The key names what is tried, not what the proxy answered: a build that fell back is kept, and
# building again gives the same answer until the recipe changes.
stamp="yaml $yaml_version; python ${PULUMI_LANGUAGE_PYTHON_VERSION:-release commit} else sdk/v3@v$python_fallback; sdkgen $sdkgen_hash"
# One directory per build: checkouts of other versions of this script (other branches, worktrees)
# sharing the cache each keep theirs instead of rebuilding over one another's.
bin="$cache/language-hosts-v$version/$(printf '%s' "$stamp" | sha256sum | cut -c1-12)/bin"

if [ -f "$bin/.complete" ] && [ "$(cat "$bin/.complete")" = "$stamp" ]; then
  log "using cached build in $bin"
  echo "$bin"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "no Go toolchain to build the language hosts"; exit 1; }
log "building the YAML and Python language hosts and the SDK generator for Pulumi $version (first run only; cached in $bin)"
rm -rf "$bin"
mkdir -p "$bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export GOFLAGS=-mod=mod
# shellcheck source=scripts/go-in.sh
. "$here/scripts/go-in.sh"

module() { # module DIR NAME GO-VERSION REQUIRES...: a wrapper module (only the main module's replaces apply)
  local dir=$1 name=$2 gover=$3; shift 3
  mkdir -p "$dir"
  {
    printf 'module %s\n\ngo %s\n\n' "$name" "$gover"
    for req in "$@"; do echo "require $req"; done
    echo
    echo "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e"
  } >"$dir/go.mod"
}
tools() { printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$2" >"$1/tools.go"; }
json_field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const v=process.argv[1].split(".").reduce((o,k)=>o[k],JSON.parse(s));process.stdout.write(String(v??""))}catch{}})' "$1"; }

# YAML: the release's host with the pkg/sdk versions it was released with (it does not compile
# against newer ones); it speaks the same LanguageRuntime protocol to the CLI.
module "$work/yaml" yaml-host-build 1.25 "github.com/pulumi/pulumi-yaml v$yaml_version"
tools "$work/yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
go_in "$work/yaml" mod tidy
go_in "$work/yaml" build -trimpath -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$yaml_version" \
  -o "$bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
log "built pulumi-language-yaml v$yaml_version"

# Python: the host's own module at the CLI release commit's pseudo-version (its module has no
# version tags), built against pkg/sdk of the CLI's version.
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
python_version=${PULUMI_LANGUAGE_PYTHON_VERSION:-}
mkdir -p "$work/origin"
printf 'module origin\n\ngo 1.25\n' >"$work/origin/go.mod"
origin=$(cd "$work/origin" && go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$version" 2>/dev/null || true)
# As go_in: when the checksum database cannot vouch for the release, the proxy's own checksums.
[ -n "$(printf '%s' "$origin" | json_field Dir)" ] ||
  origin=$(cd "$work/origin" && GOSUMDB=off go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$version" 2>/dev/null || true)
sdk_dir=$(printf '%s' "$origin" | json_field Dir)
if [ -z "$python_version" ]; then
  commit=$(printf '%s' "$origin" | json_field Origin.Hash)
  time=$(printf '%s' "$origin" | json_field Time | tr -d -- '-:TZ' | cut -c1-14)
  if [ -n "$commit" ] && [ -n "$time" ]; then
    python_version="v3.0.0-$time-${commit:0:12}"
  else
    log "the module proxy gives no release commit (Origin) for github.com/pulumi/pulumi/sdk/v3@v$version"
  fi
fi
python_built=""
if [ -n "$python_version" ]; then
  module "$work/python" python-host-build 1.25 "$python_module $python_version" \
    "github.com/pulumi/pulumi/pkg/v3 v$version" "github.com/pulumi/pulumi/sdk/v3 v$version"
  tools "$work/python" "$python_module"
  if go_in "$work/python" mod tidy && go_in "$work/python" build -trimpath -ldflags "$ldflags" -o "$bin/pulumi-language-python" "$python_module"; then
    # The host runs programs through this shim, found beside it: in the host's module where it
    # ships there, else in sdk/v3 of the same release.
    host_dir=$(cd "$work/python" && go list -m -f '{{.Dir}}' "$python_module")
    shim=$host_dir/pulumi-language-python-exec
    [ -f "$shim" ] || shim=$sdk_dir/python/cmd/pulumi-language-python-exec
    install -m 0755 "$shim" "$bin/pulumi-language-python-exec"
    python_built="$python_module@$python_version"
  fi
fi
if [ -z "$python_built" ]; then
  log "WARNING: $python_module is not available from the module proxy at the v$version release commit;"
  log "WARNING: building the Python host from github.com/pulumi/pulumi/sdk/v3@v$python_fallback instead: it does"
  log "WARNING: not read runtime.options.virtualenv (set PULUMI_PYTHON_CMD) nor answer GeneratePackage, Link, GenerateProgram"
  mkdir -p "$work/python-fallback"
  printf 'module python-host-build\n\ngo 1.21\n\nrequire github.com/pulumi/pulumi/sdk/v3 v%s\n\nreplace golang.org/x/text => golang.org/x/text v0.3.6\n' \
    "$python_fallback" >"$work/python-fallback/go.mod"
  tools "$work/python-fallback" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
  go_in "$work/python-fallback" mod tidy
  go_in "$work/python-fallback" build -trimpath -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$python_fallback" \
    -o "$bin/pulumi-language-python" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
  # The host runs programs through this shim, found beside it; it ships in the same module.
  shim=$(cd "$work/python-fallback" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec
  install -m 0755 "$shim" "$bin/pulumi-language-python-exec"
  python_built="github.com/pulumi/pulumi/sdk/v3@v$python_fallback (fallback)"
fi
log "built pulumi-language-python from $python_built"

# The SDK generator, against the CLI's pkg/v3.
module "$work/sdkgen" pulumi-sdkgen 1.25 "github.com/pulumi/pulumi/pkg/v3 v$version" "github.com/pulumi/pulumi/sdk/v3 v$version"
cp "$here/scripts/sdkgen/main.go" "$work/sdkgen/main.go"
go_in "$work/sdkgen" mod tidy
go_in "$work/sdkgen" build -trimpath -o "$bin/pulumi-sdkgen" .
log "built pulumi-sdkgen"

# What was built, for the tests (tests/e2e/plugin-support.ts) and for a reader: a fallback host
# lacks what the current ones answer.
case "$python_built" in *"(fallback)") python_current=false ;; *) python_current=true ;; esac
printf '{"pulumi":"%s","yaml":"v%s","python":"%s","pythonCurrent":%s}\n' \
  "$version" "$yaml_version" "${python_built% (fallback)}" "$python_current" >"$bin/hosts.json"
printf '%s' "$stamp" >"$bin/.complete"
log "ready: $bin"
echo "$bin"

#!/usr/bin/env bash
# Makes the language hosts and the SDK generator that programs in other languages than Node.js
# need, offline, and prints the directory holding them (last line of stdout). Built from Go
# modules once, cached beside the Pulumi CLI of scripts/setup-pulumi.sh (docs/building-pulumi.md):
# - pulumi-language-yaml from github.com/pulumi/pulumi-yaml: v1.30.0, a release with GeneratePackage and
#   Link (since v1.26.2), which `pulumi package add` asks of the host since CLI 3.219, that the proxy
#   serves and that builds with the pkg/sdk versions it was released with;
# - pulumi-language-python from github.com/pulumi/pulumi/sdk/v3 at the last release that held it as
#   a package (the proxy refuses its own module, as for Node.js), with its exec shim
#   (pulumi-language-python-exec) taken from the same module;
# - pulumi-sdkgen (scripts/sdkgen/main.go): SDKs from a schema with pkg/v3's code generators, since
#   neither of the Python and Node.js hosts answers GeneratePackage (`--local` as `pulumi package add`).
# A user with a current Pulumi install needs none of this: its hosts generate SDKs themselves.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
version=$(node -p "require('$here/node_modules/@pulumi/pulumi/package.json').version")
# shellcheck source=scripts/cache-dir.sh
. "$here/scripts/cache-dir.sh"
cache=$(cache_dir)
yaml_version=${PULUMI_YAML_VERSION:-1.30.0}
python_version=${PULUMI_LANGUAGE_PYTHON_FALLBACK:-3.68.0}
# The generator's source is part of the key: a change to it rebuilds.
sdkgen_hash=$(sha256sum "$here/scripts/sdkgen/main.go" | cut -c1-12)
stamp="yaml $yaml_version; python sdk/v3@v$python_version; sdkgen $sdkgen_hash"
# One directory per build: checkouts of other versions of this script (other branches, worktrees)
# sharing the cache each keep theirs instead of rebuilding over one another's.
bin="$cache/language-hosts-v$version/$(printf '%s' "$stamp" | sha256sum | cut -c1-12)/bin"
log() { echo "setup-language-hosts: $*" >&2; }

if [ -f "$bin/.complete" ] && [ "$(cat "$bin/.complete")" = "$stamp" ]; then
  log "using cached build in $bin"
  echo "$bin"
  exit 0
fi
command -v go >/dev/null 2>&1 || { log "no Go toolchain to build the language hosts"; exit 1; }
log "building the YAML and Python language hosts and the SDK generator (first run only; cached in $bin)"
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

# YAML: the release's host with the pkg/sdk versions it was released with (it does not compile
# against newer ones); it speaks the same LanguageRuntime protocol to the CLI.
module "$work/yaml" yaml-host-build 1.25 "github.com/pulumi/pulumi-yaml v$yaml_version"
tools "$work/yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
go_in "$work/yaml" mod tidy
go_in "$work/yaml" build -trimpath -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$yaml_version" \
  -o "$bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
log "built pulumi-language-yaml v$yaml_version"

# Python: the last sdk/v3 release holding the host as a package (as setup-pulumi.sh's Node.js fallback).
mkdir -p "$work/python"
printf 'module python-host-build\n\ngo 1.21\n\nrequire github.com/pulumi/pulumi/sdk/v3 v%s\n\nreplace golang.org/x/text => golang.org/x/text v0.3.6\n' \
  "$python_version" >"$work/python/go.mod"
tools "$work/python" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
go_in "$work/python" mod tidy
go_in "$work/python" build -trimpath -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$python_version" \
  -o "$bin/pulumi-language-python" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
# The host runs programs through this shim, found beside it; it ships in the same module.
shim=$(cd "$work/python" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec
install -m 0755 "$shim" "$bin/pulumi-language-python-exec"
log "built pulumi-language-python (sdk/v3@v$python_version)"

# The SDK generator, against the CLI's pkg/v3.
module "$work/sdkgen" pulumi-sdkgen 1.25 "github.com/pulumi/pulumi/pkg/v3 v$version" "github.com/pulumi/pulumi/sdk/v3 v$version"
cp "$here/scripts/sdkgen/main.go" "$work/sdkgen/main.go"
go_in "$work/sdkgen" mod tidy
go_in "$work/sdkgen" build -trimpath -o "$bin/pulumi-sdkgen" .
log "built pulumi-sdkgen"

printf '%s' "$stamp" >"$bin/.complete"
log "ready: $bin"
echo "$bin"

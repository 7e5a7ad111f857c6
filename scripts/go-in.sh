# Sourced by scripts/setup-pulumi.sh and scripts/setup-language-hosts.sh, which define `log` and
# `work` (a temp directory). go_in DIR CMD...: runs go in DIR, first with the checksum database,
# then (if the database cannot vouch for these modules) trusting the module proxy's content over
# TLS (GOSUMDB=off), saying so; docs/building-pulumi.md explains why.
go_in() {
  local dir=$1; shift
  if (cd "$dir" && go "$@" >"$work/go.log" 2>&1); then return 0; fi
  if grep -qE 'verifying|sumdb|checksum database' "$work/go.log"; then
    log "checksum database cannot verify these modules; relying on the module proxy's checksums (GOSUMDB=off)"
    (cd "$dir" && GOSUMDB=off go "$@" >"$work/go.log" 2>&1) && return 0
  fi
  cat "$work/go.log" >&2
  return 1
}

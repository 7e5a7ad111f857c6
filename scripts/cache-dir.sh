# Sourced by the scripts: cache_dir prints the package's cache directory, the rule of
# provider/fs/durable-file.ts's cacheRoot (tests/unit/provider/fs/durable-file.test.ts holds the
# two to each other): $PULUMI_PAGERDUTY_CACHE, else $XDG_CACHE_HOME/pulumi-pagerduty-dynamic, else
# $HOME/.cache/pulumi-pagerduty-dynamic; a relative or blank path in either variable is ignored.
cache_dir() {
  local own xdg
  own=$(printf '%s' "${PULUMI_PAGERDUTY_CACHE:-}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  case "$own" in /*) printf '%s\n' "$own"; return ;; esac
  xdg=$(printf '%s' "${XDG_CACHE_HOME:-}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  case "$xdg" in /*) ;; *) xdg=${HOME:-$(cd ~ && pwd)}/.cache ;; esac
  printf '%s\n' "$xdg/pulumi-pagerduty-dynamic"
}

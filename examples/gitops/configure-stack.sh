#!/usr/bin/env bash
# Selects the stack and puts the PagerDuty credentials from the environment (repository secrets)
# into its config as Pulumi secrets. Values travel through stdin, never argv, and are never echoed.
# Other settings (subdomain, region, escalation policy, ...) are committed in Pulumi.<stack>.yaml.
set -euo pipefail
: "${PULUMI_STACK:?PULUMI_STACK must name the stack (repository variable)}"

if [ -z "${PAGERDUTY_CLIENT_SECRET:-}" ] && [ -z "${PAGERDUTY_TOKEN:-}" ]; then
  # Pull requests from forks get no repository secrets: say so instead of a green preview.
  echo "::error title=No PagerDuty credentials::PAGERDUTY_CLIENT_SECRET (or PAGERDUTY_TOKEN) is empty: add it as a repository secret; pull requests from forks do not receive secrets"
  exit 1
fi

pulumi stack select --create --non-interactive "$PULUMI_STACK"
if [ -n "${PAGERDUTY_CLIENT_ID:-}" ]; then
  pulumi config set --non-interactive -- pagerduty:clientId "$PAGERDUTY_CLIENT_ID"
fi
if [ -n "${PAGERDUTY_CLIENT_SECRET:-}" ]; then
  printf '%s' "$PAGERDUTY_CLIENT_SECRET" | pulumi config set --non-interactive --secret pagerduty:clientSecret
fi
if [ -n "${PAGERDUTY_TOKEN:-}" ]; then
  printf '%s' "$PAGERDUTY_TOKEN" | pulumi config set --non-interactive --secret pagerduty:token
fi
echo "stack $PULUMI_STACK selected; credentials set from the environment as secrets"

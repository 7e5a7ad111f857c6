#!/usr/bin/env node
// pagerduty-login: gets a user token by the authorization-code flow with PKCE (login-flow.ts) and
// stores the refresh token as a Pulumi secret of the stack (`pulumi config set --secret
// pagerduty:refreshToken`, or `--path --secret pagerduty:accounts.NAME.refreshToken` with
// --account; value on stdin), with the account's region and subdomain the verified id_token names;
// or prints it with --print. This file is the command line; no secret is ever taken from it.
import { accountNameProblem } from "../config";
import { UsageError, type FlagValues } from "./command-line";
import { login, systemIo, type LoginOptions } from "./login-flow";
import { main, type Command } from "./main";

const HELP = `usage: pagerduty-login [options]

Logs in to PagerDuty in a browser (OAuth authorization code + PKCE) and stores the refresh token as
the secret "pagerduty:refreshToken" of a Pulumi stack (with --account NAME:
"pagerduty:accounts.NAME.refreshToken"), for the provider's user-token mode. The id_token of the
reply is verified against the keys the identity service publishes, and the account's region and
subdomain it names are set as "pagerduty:serviceRegion" and "pagerduty:subdomain" (with --account:
"pagerduty:accounts.NAME.serviceRegion" and ".subdomain"); a stack that already holds other values
for them is an error and nothing is stored.

Options:
  --account NAME      log in for the named account of "pagerduty:accounts" (default: the top-level
                      pagerduty:* settings, also named "default"); its settings are read from
                      pagerduty:accounts.NAME.* and never from the environment, except the secret
  --client-id ID      the OAuth app's client id (default: pagerduty:clientId, env PAGERDUTY_CLIENT_ID;
                      with --account: pagerduty:accounts.NAME.clientId)
  --auth-url URL      identity service base URL (default: pagerduty:authUrl, env PAGERDUTY_AUTH_URL,
                      https://identity.pagerduty.com; with --account: pagerduty:accounts.NAME.authUrl)
  --scopes "A B"      scopes to request and require (default: pagerduty:scopes, env PAGERDUTY_SCOPES,
                      the scopes the resources need; with --account: pagerduty:accounts.NAME.scopes)
  --port N            port of the redirect URI http://127.0.0.1:N/callback; use the one registered
                      with the app (default: a free port)
  --stack NAME        stack to store the token in (default: the selected stack)
  --print             print the refresh token on stdout instead of storing it; nothing is written,
                      the settings to set are printed
  --no-browser        do not open a browser; only print the URL to open
  --timeout SECONDS   how long to wait for the browser (default: 300)
  -h, --help          show this help
  --version           show the version

The client secret is read from the environment (PAGERDUTY_CLIENT_SECRET) or from the stack's
"pagerduty:clientSecret" (with --account: "pagerduty:accounts.NAME.clientSecret"); it is never
taken from the command line.

Exit codes: 0 stored (or printed), 1 other error, 2 usage, 3 access denied, 4 state mismatch,
5 timed out, 6 authorization code refused (expired or used), 7 scopes missing from the grant,
8 the id_token failed verification (signature, issuer, audience, expiry, or the identity service's
keys could not be read), 9 the id_token's account region or subdomain differs from the stack's.
Only exit code 0 stores the refresh token.`;

const FLAGS = {
  account: { type: "string" },
  "client-id": { type: "string" },
  "auth-url": { type: "string" },
  scopes: { type: "string" },
  port: { type: "string" },
  stack: { type: "string" },
  timeout: { type: "string" },
  print: { type: "boolean" },
  "no-browser": { type: "boolean" },
} as const;

function loginOptions(values: FlagValues<typeof FLAGS>): LoginOptions {
  const int = (flag: "port" | "timeout", min: number, max: number, fallback: number): number => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  const account = values.account?.trim();
  const problem = account === undefined ? undefined : accountNameProblem(account);
  if (problem) throw new UsageError(`--account ${problem}`);
  return {
    ...(account !== undefined ? { account } : {}),
    clientId: values["client-id"]?.trim(),
    authUrl: values["auth-url"]?.trim(),
    scopes: values.scopes?.trim(),
    port: int("port", 0, 65535, 0),
    stack: values.stack?.trim(),
    print: values.print === true,
    browser: values["no-browser"] !== true,
    timeoutMs: int("timeout", 1, 86_400, 300) * 1000,
  };
}

export const LOGIN: Command<typeof FLAGS, LoginOptions> = {
  bin: "pagerduty-login",
  help: HELP,
  flags: FLAGS,
  options: loginOptions,
  run: (opts, terminal) => login(opts, systemIo(opts, terminal)),
};

if (require.main === module) main(LOGIN);

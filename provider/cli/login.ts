#!/usr/bin/env node
// pagerduty-login: gets a user token by the authorization-code flow with PKCE, the way CLIs do it.
// A loopback listener on 127.0.0.1 receives the redirect; the URL to open is always printed (and
// handed to a browser when one can be opened); the code is exchanged at once (codes live 30 s);
// the granted scope is checked; the id_token is verified against the identity service's published
// keys and its account's region and subdomain are compared with (and written to) the stack; the
// refresh token is stored as a Pulumi secret (`pulumi config set --secret pagerduty:refreshToken`,
// or `--path --secret pagerduty:accounts.NAME.refreshToken` with --account; value on stdin) or
// printed with --print. No token, code, verifier or client secret is ever written to stderr, argv
// or a URL.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { Dispatcher } from "undici";
import { clientSecretPost } from "../auth/client-auth";
import { idTokenOf, IdTokenError, verifyIdToken, type IdTokenIdentity } from "../auth/id-token";
import { codeChallenge, createCodeVerifier } from "../auth/pkce";
import { missingScopes } from "../http/credential";
import { authorizationCodeGrant, processTokenResponse, type TokenSet } from "../auth/token-endpoint";
import { accountNameProblem, ACCOUNTS_KEY, CONFIG_KEYS, describeSetting, resolveSettings } from "../config";
import { ConfigError, PagerDutyError, TokenError, scrub } from "../errors";
import type { RetryOptions } from "../http/retry";
import { Transport } from "../http/transport";
import { AccountMismatchError, accountSettingSteps, loginAccount, type AccountSettingStep, type LoginAccount } from "./login-account";
import { LoopbackServer, type Redirect } from "./loopback-server";
import { configValues } from "./stack-config";
import { packageVersion } from "./package-version";

/** Exit codes, one per way the flow can end (also listed in --help). */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  denied: 3,
  state: 4,
  timeout: 5,
  codeRefused: 6,
  scope: 7,
  idToken: 8,
  accountMismatch: 9,
} as const;

export const USAGE = `usage: pagerduty-login [options]

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

export interface LoginOptions {
  /** A name of `pagerduty:accounts`; undefined or "default": the top-level settings. */
  account?: string;
  clientId?: string;
  authUrl?: string;
  scopes?: string;
  port: number;
  stack?: string;
  print: boolean;
  browser: boolean;
  timeoutMs: number;
}

export class LoginError extends Error {
  constructor(message: string, readonly exitCode: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LoginError";
  }
}

const usage = (message: string) => new LoginError(`${message}\n(see pagerduty-login --help)`, EXIT.usage);

/** Parses argv; `help` / `version` are answered by the caller. */
export function parseLoginArgs(argv: readonly string[]): LoginOptions & { help: boolean; version: boolean } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        account: { type: "string" },
        "client-id": { type: "string" },
        "auth-url": { type: "string" },
        scopes: { type: "string" },
        port: { type: "string" },
        stack: { type: "string" },
        print: { type: "boolean" },
        "no-browser": { type: "boolean" },
        timeout: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    }));
  } catch (e) {
    throw usage((e as Error).message);
  }
  const int = (flag: string, min: number, max: number, fallback: number): number => {
    const raw = values[flag];
    if (raw === undefined) return fallback;
    if (typeof raw !== "string" || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw usage(`--${flag} must be an integer from ${min} to ${max}; got ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  };
  const str = (flag: string): string | undefined => {
    const v = values[flag];
    if (v === undefined) return undefined;
    if (typeof v !== "string" || !v.trim()) throw usage(`--${flag} needs a value`);
    return v.trim();
  };
  const account = str("account");
  const problem = account === undefined ? undefined : accountNameProblem(account);
  if (problem) throw usage(`--account ${problem}`);
  return {
    ...(account !== undefined ? { account } : {}),
    clientId: str("client-id"),
    authUrl: str("auth-url"),
    scopes: str("scopes"),
    port: int("port", 0, 65535, 0),
    stack: str("stack"),
    print: values.print === true,
    browser: values["no-browser"] !== true,
    timeoutMs: int("timeout", 1, 86_400, 300) * 1000,
    help: values.help === true,
    version: values.version === true,
  };
}

/** How the flow talks to the world; tests replace parts of it. */
export interface LoginIo {
  /** Progress and errors (stderr). Never receives a token. */
  say(line: string): void;
  /** stdout: only the token under --print. */
  out(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Runs `pulumi` with stdin `input`; returns its result. */
  pulumi(args: string[], input?: string): Pick<SpawnSyncReturns<string>, "status" | "stdout" | "stderr" | "error">;
  openBrowser(url: string): void;
  dispatcher?: Dispatcher;
}

export const systemIo = (): LoginIo => ({
  say: (line) => void process.stderr.write(`${line}\n`),
  out: (text) => void process.stdout.write(text),
  env: process.env,
  pulumi: (args, input) => spawnSync("pulumi", ["--non-interactive", ...args], { encoding: "utf8", input, env: process.env, maxBuffer: 16 << 20 }),
  openBrowser,
});

/** $BROWSER, else the platform's opener. Failure (no display, no opener) is fine: the URL is printed. */
function openBrowser(url: string): void {
  const [cmd, args] = process.env.BROWSER
    ? [process.env.BROWSER, [url]]
    : process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // The printed URL is the fallback.
  }
}

interface ResolvedLogin {
  account: LoginAccount;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  scopes: string[];
  userAgent: string;
  retry: Required<RetryOptions>;
  /** Whether the stack config already holds the client settings the provider will need. */
  stackHasClient: boolean;
}

/** Stack config (secrets decrypted) as plain strings; undefined when there is no stack to read. */
function readStackConfig(opts: LoginOptions, io: LoginIo): Record<string, string> | undefined {
  const r = io.pulumi(["config", "--json", "--show-secrets", ...(opts.stack ? ["--stack", opts.stack] : [])]);
  if (r.error || r.status !== 0) {
    const why = r.error ? `cannot run pulumi (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` : lastLines(r.stderr);
    // Printing the token needs no stack; storing it does, so that failure ends the run before login.
    if (opts.print && !opts.stack) return undefined;
    throw new LoginError(`cannot read the stack's config to store the token in: ${why}\nRun pagerduty-login in the Pulumi project's directory (with --stack NAME if no stack is selected), or use --print.`, EXIT.error);
  }
  // The CLIs' one reading of `config --json --show-secrets` (structured values as JSON text; a parse
  // failure never quotes the decrypted text).
  return Object.fromEntries(configValues(r.stdout));
}

function lastLines(text: string | undefined): string {
  return (text ?? "").trim().split("\n").slice(-3).join(" ").replace(/\s+/g, " ") || "pulumi failed";
}

/**
 * The provider's own resolution (flags > stack config > environment), as if a refresh token were
 * set: it validates the URL (https, or http to loopback, before the secret is sent anywhere), the
 * scopes, and demands the client id and secret with messages naming the keys.
 */
function resolveLogin(opts: LoginOptions, stack: Record<string, string> | undefined, env: NodeJS.ProcessEnv): ResolvedLogin {
  const account = loginAccount(opts.account);
  if (account.named) return resolveNamedLogin(account, opts, stack, env);
  const flags: Record<string, string | undefined> = {
    [CONFIG_KEYS.clientId[0]]: opts.clientId,
    [CONFIG_KEYS.authUrl[0]]: opts.authUrl,
    [CONFIG_KEYS.scopes[0]]: opts.scopes,
    [CONFIG_KEYS.refreshToken[0]]: "(being obtained)",
  };
  const get = (key: string) => flags[key] ?? stack?.[key];
  // Said in login terms first; resolveSettings would word these relative to the refresh token.
  const [idKey, idEnv] = CONFIG_KEYS.clientId;
  const [secretKey, secretEnv] = CONFIG_KEYS.clientSecret;
  if (!get(idKey)?.trim() && !env[idEnv]?.trim()) throw new ConfigError(`no client id: pass --client-id, or set "${idKey}" in the stack or ${idEnv}`);
  if (!get(secretKey)?.trim() && !env[secretEnv]?.trim()) throw new ConfigError(`no client secret: set ${secretEnv} in the environment, or "${secretKey}" in the stack (pulumi config set --secret ${secretKey})`);
  return fromSettings(account, get, env, stack !== undefined && CONFIG_KEYS.clientId[0] in stack && CONFIG_KEYS.clientSecret[0] in stack);
}

/**
 * A named account: its entry of `pagerduty:accounts` with the flags laid over it. Like the
 * provider it reads nothing from the environment, except the client secret (the login's documented
 * way to keep it off the command line and out of the stack).
 */
function resolveNamedLogin(account: LoginAccount, opts: LoginOptions, stack: Record<string, string> | undefined, env: NodeJS.ProcessEnv): ResolvedLogin {
  const stored = account.entry(stack);
  const entry: Record<string, unknown> = { ...stored };
  if (opts.clientId) entry.clientId = opts.clientId;
  if (opts.authUrl) entry.authUrl = opts.authUrl;
  if (opts.scopes) entry.scopes = opts.scopes;
  const has = (v: unknown) => typeof v === "string" && v.trim() !== "";
  if (!has(entry.clientId)) throw new ConfigError(`no client id for account "${account.name}": pass --client-id, or set "${account.key("clientId")}" in the stack`);
  const secretEnv = CONFIG_KEYS.clientSecret[1];
  if (!has(entry.clientSecret)) {
    if (!env[secretEnv]?.trim()) {
      throw new ConfigError(
        `no client secret for account "${account.name}": set ${secretEnv} in the environment, or "${account.key("clientSecret")}" in the stack ` +
          `(pulumi config set --path --secret ${account.key("clientSecret")})`,
      );
    }
    entry.clientSecret = env[secretEnv]!.trim();
  }
  entry.refreshToken = "(being obtained)";
  const accounts = JSON.stringify({ [account.name]: entry });
  return fromSettings(account, (key) => (key === ACCOUNTS_KEY ? accounts : undefined), env, has(stored.clientId) && has(stored.clientSecret));
}

function fromSettings(account: LoginAccount, get: (key: string) => string | undefined, env: NodeJS.ProcessEnv, stackHasClient: boolean): ResolvedLogin {
  const settings = resolveSettings(get, env, account.name);
  if (settings.credentials.kind !== "refresh_token") throw new LoginError("internal: expected refresh-token settings", EXIT.error);
  return {
    account,
    clientId: settings.credentials.clientId,
    clientSecret: settings.credentials.clientSecret,
    authUrl: settings.authUrl,
    scopes: settings.scopes,
    userAgent: settings.userAgent,
    retry: settings.retry,
    stackHasClient,
  };
}

/**
 * The authorization code the redirect carries, or a LoginError after telling the browser why not.
 * The state is checked before anything else: a redirect this run did not start is refused whatever
 * it carries.
 */
function authorizationCode(redirect: Redirect, state: string): string {
  const q = redirect.params;
  if (q.get("state") !== state) {
    redirect.reply(400, "Login failed", "The state parameter does not match this login. Nothing was stored; run pagerduty-login again.");
    throw new LoginError("the redirect's state parameter does not match the one this login sent (a stale tab or a forged request); nothing was stored. Run pagerduty-login again.", EXIT.state);
  }
  const error = q.get("error");
  if (error) {
    const description = q.get("error_description") ?? "";
    if (error === "access_denied") {
      redirect.reply(403, "Access denied", "You denied the request. Nothing was stored.");
      throw new LoginError(`access was denied in the browser${description ? ` (${description})` : ""}; nothing was stored.`, EXIT.denied);
    }
    redirect.reply(400, "Login failed", `The identity service answered ${error}${description ? `: ${description}` : ""}.`);
    throw new LoginError(`the identity service refused the authorization: ${error}${description ? `: ${description}` : ""}; nothing was stored.`, EXIT.error);
  }
  const code = q.get("code");
  if (!code) {
    redirect.reply(400, "Login failed", "The redirect carries no authorization code.");
    throw new LoginError("the redirect carries neither a code nor an error; nothing was stored.", EXIT.error);
  }
  return code;
}

/** The whole flow. Returns the exit code; throws only on bugs. */
export async function login(opts: LoginOptions, io: LoginIo): Promise<number> {
  const listener = new LoopbackServer();
  const transport = new Transport({}, io.dispatcher);
  const secrets: string[] = [];
  try {
    const stack = readStackConfig(opts, io);
    const settings = resolveLogin(opts, stack, io.env);
    secrets.push(settings.clientSecret);
    await listener.listen(opts.port).catch((e: NodeJS.ErrnoException) => {
      const hint = e.code === "EADDRINUSE" ? " (the port is in use; pick another with --port)" : "";
      throw new LoginError(`cannot listen on 127.0.0.1:${opts.port}: ${e.code ?? e.message}${hint}`, EXIT.error);
    });

    const verifier = createCodeVerifier();
    const state = randomBytes(16).toString("base64url");
    secrets.push(verifier);
    const authorize = new URL(`${settings.authUrl}/oauth/authorize`);
    const params = {
      client_id: settings.clientId,
      redirect_uri: listener.redirectUri,
      response_type: "code",
      scope: settings.scopes.join(" "),
      state,
      code_challenge: codeChallenge(verifier),
      code_challenge_method: "S256",
    };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);

    io.say(`Open this URL in a browser to log in to PagerDuty (waiting ${Math.round(opts.timeoutMs / 1000)} s):\n\n  ${authorize}\n`);
    if (opts.browser) io.openBrowser(authorize.toString());

    const callback = await listener.nextRedirect(opts.timeoutMs);
    if (!callback) {
      throw new LoginError(`timed out after ${Math.round(opts.timeoutMs / 1000)} s waiting for the browser to come back to ${listener.redirectUri}; nothing was stored. Run pagerduty-login again (or raise --timeout).`, EXIT.timeout);
    }
    const code = authorizationCode(callback, state);
    secrets.push(code);
    let tokens: TokenSet;
    let idToken: string | undefined;
    try {
      const reply = await authorizationCodeGrant(
        { url: `${settings.authUrl}/oauth/token`, transport, retry: settings.retry, userAgent: settings.userAgent },
        clientSecretPost(settings.clientId, settings.clientSecret),
        { code, redirectUri: listener.redirectUri, codeVerifier: verifier },
      );
      tokens = processTokenResponse(reply, { secrets });
      idToken = idTokenOf(reply);
    } catch (e) {
      const failure = exchangeFailure(e, settings.account, secrets);
      callback.reply(400, "Login failed", `${failure.message} See the terminal.`);
      throw failure;
    }
    if (tokens.refreshToken) secrets.push(tokens.refreshToken);
    secrets.push(tokens.accessToken);
    if (idToken) secrets.push(idToken);

    const missing = tokens.scopes ? missingScopes(tokens.scopes, settings.scopes) : [];
    if (missing.length) {
      callback.reply(403, "Login incomplete", `The grant lacks ${missing.join(", ")}. Nothing was stored; see the terminal.`);
      throw new LoginError(
        `the granted scope lacks ${missing.map((s) => `"${s}"`).join(", ")} (granted: "${tokens.scopes!.join(" ")}"); nothing was stored. ` +
          `Add the scopes to the app's configuration in PagerDuty (or check your role allows them) and run pagerduty-login again.`,
        EXIT.scope,
      );
    }
    if (!tokens.scopes) io.say("warning: the token reply does not say which scopes were granted; they could not be checked.");
    if (!tokens.refreshToken) {
      callback.reply(502, "Login failed", "The identity service issued no refresh token.");
      throw new LoginError("the token reply carries no refresh_token; nothing was stored.", EXIT.error);
    }

    const steps = await accountSettings(idToken, settings, stack, { transport, io, callback });
    const where = opts.stack ? `stack ${opts.stack}` : "the selected stack";
    const stackArgs = opts.stack ? ["--stack", opts.stack] : [];
    const tokenKey = settings.account.key("refreshToken");

    if (opts.print) {
      callback.reply(200, "Logged in", "You are logged in. You can close this tab and return to the terminal.");
      io.out(`${tokens.refreshToken}\n`);
      io.say(`Printed the refresh token on stdout. Store it as a secret: ${shellWords(["pulumi", ...settings.account.setSecretArgs("refreshToken", [])])} (value on stdin)`);
      const toSet = (steps ?? []).filter((s) => !s.matches);
      if (toSet.length) {
        io.say("Set these too, in the stack that uses the token (from the id_token):");
        for (const s of toSet) io.say(`  ${shellWords(["pulumi", ...settings.account.setArgs(s.setting, s.value, [])])}`);
      }
      for (const s of (steps ?? []).filter((s) => s.matches)) io.say(`"${s.key}" is already ${JSON.stringify(s.value)} in the stack (matches the id_token).`);
      return EXIT.ok;
    }
    // The settings first: they are facts the verified id_token states, right whether or not the
    // token is then stored; a token stored without them would be used against the wrong region.
    for (const s of steps ?? []) {
      if (s.matches) {
        io.say(`"${s.key}" is already ${JSON.stringify(s.value)} (matches the id_token).`);
        continue;
      }
      const set = io.pulumi(settings.account.setArgs(s.setting, s.value, stackArgs));
      if (set.error || set.status !== 0) {
        callback.reply(500, "Login failed", "The stack's settings could not be written; see the terminal.");
        throw new LoginError(`pulumi config set ${s.key} failed: ${scrub(set.error?.message ?? lastLines(set.stderr), secrets)}; the refresh token was not stored.`, EXIT.error);
      }
      io.say(`Set ${s.key} = ${s.value} (from the id_token) in ${where}.`);
    }
    const stored = io.pulumi(settings.account.setSecretArgs("refreshToken", stackArgs), tokens.refreshToken);
    if (stored.error || stored.status !== 0) {
      callback.reply(500, "Login failed", "The token could not be stored in the stack; see the terminal.");
      throw new LoginError(`pulumi config set failed: ${scrub(stored.error?.message ?? lastLines(stored.stderr), secrets)}`, EXIT.error);
    }
    callback.reply(200, "Logged in", "You are logged in and the token is stored. You can close this tab and return to the terminal.");
    io.say(`Logged in. Stored the refresh token as the secret "${tokenKey}" of ${where}.`);
    if (!settings.stackHasClient) io.say(clientHint(settings.account));
    return EXIT.ok;
  } catch (e) {
    const exitCode = e instanceof LoginError ? e.exitCode : e instanceof PagerDutyError ? EXIT.error : undefined;
    if (exitCode === undefined) throw e;
    io.say(`pagerduty-login: ${scrub(e instanceof Error ? e.message : String(e), secrets)}`);
    return exitCode;
  } finally {
    await listener.close();
    await transport.close();
  }
}

/** A refused code gets its own exit code; a refused client names the settings to fix. */
function exchangeFailure(e: unknown, account: LoginAccount, secrets: string[]): LoginError {
  if (e instanceof TokenError && e.oauthError === "invalid_grant") {
    return new LoginError(`the authorization code was refused (${e.message}): codes live 30 seconds and work once. Nothing was stored; run pagerduty-login again.`, EXIT.codeRefused);
  }
  if (e instanceof TokenError && e.oauthError === "invalid_client") {
    const secret = account.named ? `"${account.key("clientSecret")}" (or env ${CONFIG_KEYS.clientSecret[1]})` : `"${CONFIG_KEYS.clientSecret[0]}" (env ${CONFIG_KEYS.clientSecret[1]})`;
    return new LoginError(`the identity service refused the client (${e.message}): check ${secret} and "${account.key("clientId")}" (--client-id). Nothing was stored.`, EXIT.error);
  }
  return new LoginError(`the code exchange failed: ${scrub(e instanceof Error ? e.message : String(e), secrets)}; nothing was stored.`, EXIT.error);
}

/**
 * The settings the verified id_token determines (the account's region and subdomain), checked
 * against the stack; undefined, with a warning, when the reply carries no id_token. A token that
 * fails verification or names another account than the stack ends the login before anything is
 * written; the browser tab is told first.
 */
async function accountSettings(
  idToken: string | undefined,
  settings: ResolvedLogin,
  stack: Record<string, string> | undefined,
  ctx: { transport: Transport; io: LoginIo; callback: Redirect },
): Promise<AccountSettingStep[] | undefined> {
  const { account } = settings;
  if (!idToken) {
    ctx.io.say(
      `warning: the token reply carries no id_token, so the account logged in to could not be verified and "${account.key("serviceRegion")}" ` +
        `and "${account.key("subdomain")}" were not set from it; check them yourself.`,
    );
    return undefined;
  }
  let identity: IdTokenIdentity;
  try {
    identity = await verifyIdToken(idToken, {
      authUrl: settings.authUrl,
      setting: describeSetting("authUrl", account.name),
      clientId: settings.clientId,
      transport: ctx.transport,
      retry: settings.retry,
      userAgent: settings.userAgent,
    });
  } catch (e) {
    ctx.callback.reply(502, "Login failed", "The identity token could not be verified. Nothing was stored; see the terminal.");
    if (e instanceof IdTokenError) throw new LoginError(`the id_token failed verification: ${e.message}. Nothing was stored.`, EXIT.idToken, { cause: e });
    throw e;
  }
  const who = [identity.email, identity.accountName && `account ${identity.accountName}`].filter(Boolean).join(", ");
  ctx.io.say(`The id_token is verified${who ? ` (${who})` : ""}.`);
  for (const [setting, value] of [["serviceRegion", identity.region], ["subdomain", identity.subdomain]] as const) {
    if (value === undefined) ctx.io.say(`warning: the id_token does not name the account's ${setting}; check "${account.key(setting)}" yourself.`);
  }
  try {
    return accountSettingSteps(account, stack, identity);
  } catch (e) {
    if (!(e instanceof AccountMismatchError)) throw e;
    ctx.callback.reply(409, "Login failed", "You logged in to another account than the stack is configured for. Nothing was stored; see the terminal.");
    throw new LoginError(e.message, EXIT.accountMismatch, { cause: e });
  }
}

/** What the provider still needs for the account's user-token mode. */
function clientHint(account: LoginAccount): string {
  if (account.named) {
    return `The provider also needs "${account.key("clientId")}" and "${account.key("clientSecret")}" (pulumi config set --path --secret ${account.key("clientSecret")}) in that stack; named accounts do not read the environment.`;
  }
  return `The provider also needs "${CONFIG_KEYS.clientId[0]}" and "${CONFIG_KEYS.clientSecret[0]}" (pulumi config set --secret ${CONFIG_KEYS.clientSecret[0]}) in that stack, or ${CONFIG_KEYS.clientId[1]} and ${CONFIG_KEYS.clientSecret[1]} in the environment.`;
}

/** A command line to show the user; words with shell metacharacters single-quoted. */
function shellWords(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

async function main(): Promise<number> {
  const io = systemIo();
  let opts: ReturnType<typeof parseLoginArgs>;
  try {
    opts = parseLoginArgs(process.argv.slice(2));
  } catch (e) {
    io.say(`pagerduty-login: ${(e as Error).message}`);
    return (e as LoginError).exitCode ?? EXIT.usage;
  }
  if (opts.help) {
    io.out(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (opts.version) {
    io.out(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  return login(opts, io);
}

if (require.main === module) {
  main().then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`pagerduty-login: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT.error;
    },
  );
}

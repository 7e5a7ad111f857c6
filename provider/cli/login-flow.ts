// pagerduty-login's flow: the authorization-code grant with PKCE, the way CLIs do it. A loopback
// listener on 127.0.0.1 receives the redirect; the URL to open is always printed (and handed to a
// browser when one can be opened); the code is exchanged at once (codes live 30 s); the granted
// scope is checked; the id_token is verified and its account compared with (and written to) the
// stack; then the refresh token is stored as a Pulumi secret (value on stdin) or printed with
// --print. No token, code, verifier or client secret is ever written to stderr, argv or a URL: a
// failure's message has every secret of the run taken out before it leaves the flow.
import { randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import { clientSecretPost } from "../auth/client-auth";
import { idTokenOf } from "../auth/id-token";
import { codeChallenge, createCodeVerifier } from "../auth/pkce";
import { authorizationCodeGrant, processTokenResponse, type TokenSet } from "../auth/token-endpoint";
import { CONFIG_KEYS } from "../config";
import { TokenError, scrub, messageOf } from "../errors";
import { missingScopes } from "../http/credential";
import { Transport } from "../http/transport";
import type { AccountSettingStep, LoginAccount } from "./login-account";
import { EXIT, LoginError } from "./login-exit";
import { identitySettings } from "./login-identity";
import { clientHint, loginSettings, type ClientFlags, type LoginSettings } from "./login-settings";
import { LoopbackServer, type Redirect } from "./loopback-server";
import type { Terminal } from "./main";
import { openBrowser } from "./open-browser";
import { PulumiError, pulumiRunner, type Pulumi } from "./pulumi-runner";
import { stackConfig } from "./stack-config";

export interface LoginOptions extends ClientFlags {
  /** The redirect URI's port; 0: a free one. */
  port: number;
  stack?: string;
  print: boolean;
  browser: boolean;
  timeoutMs: number;
}

/** How the flow talks to the world; tests replace parts of it. */
export interface LoginIo extends Terminal {
  env: NodeJS.ProcessEnv;
  /** `pulumi` on the stack the token is for. */
  pulumi: Pulumi;
  openBrowser(url: string): void;
  dispatcher?: Dispatcher;
}

export const systemIo = (opts: Pick<LoginOptions, "stack">, terminal: Terminal): LoginIo => ({
  ...terminal,
  env: process.env,
  pulumi: pulumiRunner({ stack: opts.stack }),
  openBrowser,
});

/** The whole flow; a failure is thrown (a LoginError with its exit code), nothing secret in its message. */
export async function login(opts: LoginOptions, io: LoginIo): Promise<void> {
  const listener = new LoopbackServer();
  const transport = new Transport({}, io.dispatcher);
  const secrets: string[] = [];
  try {
    const stack = readStackConfig(opts, io);
    const settings = loginSettings(opts, stack, io.env);
    secrets.push(settings.clientSecret);
    await listener.listen(opts.port).catch((e: NodeJS.ErrnoException) => {
      const hint = e.code === "EADDRINUSE" ? " (the port is in use; pick another with --port)" : "";
      throw new LoginError(`cannot listen on 127.0.0.1:${opts.port}: ${e.code ?? e.message}${hint}`, EXIT.failed);
    });
    const { callback, code, verifier } = await authorize(settings, listener, opts, io, secrets);
    const { refreshToken, idToken } = await exchange(settings, { code, verifier, redirectUri: listener.redirectUri }, { transport, io, callback, secrets });
    const steps = (await identitySettings(idToken, settings, stack, { transport, say: io.say, callback })) ?? [];
    if (opts.print) printToken(refreshToken, steps, settings.account, io, callback);
    else storeToken(refreshToken, steps, settings, opts, io, callback);
  } catch (e) {
    // A message may quote what was sent or received (a reply's description, pulumi's stderr).
    if (e instanceof Error) e.message = scrub(e.message, secrets);
    throw e;
  } finally {
    await listener.close();
    await transport.close();
  }
}

/** Stack config (secrets decrypted) as plain strings; undefined when there is no stack to read. */
function readStackConfig(opts: LoginOptions, io: LoginIo): Record<string, string> | undefined {
  try {
    return Object.fromEntries(stackConfig(io.pulumi));
  } catch (e) {
    if (!(e instanceof PulumiError)) throw e;
    // Printing the token needs no stack; storing it does, so that failure ends the run before login.
    if (opts.print && !opts.stack) return undefined;
    throw new LoginError(
      `cannot read the stack's config to store the token in: ${e.detail}\nRun pagerduty-login in the Pulumi project's directory (with --stack NAME if no ` +
        `stack is selected), or use --print.`,
      EXIT.failed,
    );
  }
}

/** The browser's round trip: the URL printed (and opened), the redirect awaited and its code read. */
async function authorize(
  settings: LoginSettings,
  listener: LoopbackServer,
  opts: LoginOptions,
  io: LoginIo,
  secrets: string[],
): Promise<{ callback: Redirect; code: string; verifier: string }> {
  const verifier = createCodeVerifier();
  const state = randomBytes(16).toString("base64url");
  secrets.push(verifier);
  const url = new URL(`${settings.authUrl}/oauth/authorize`);
  const params = {
    client_id: settings.clientId,
    redirect_uri: listener.redirectUri,
    response_type: "code",
    scope: settings.scopes.join(" "),
    state,
    code_challenge: codeChallenge(verifier),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);

  const seconds = Math.round(opts.timeoutMs / 1000);
  io.say(`Open this URL in a browser to log in to PagerDuty (waiting ${seconds} s):\n\n  ${url}\n`);
  if (opts.browser) io.openBrowser(url.toString());

  const callback = await listener.nextRedirect(opts.timeoutMs);
  if (!callback) {
    throw new LoginError(
      `timed out after ${seconds} s waiting for the browser to come back to ${listener.redirectUri}; nothing was stored. Run pagerduty-login again (or ` +
        `raise --timeout).`,
      EXIT.timeout,
    );
  }
  const code = authorizationCode(callback, state);
  secrets.push(code);
  return { callback, code, verifier };
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
    throw new LoginError(
      "the redirect's state parameter does not match the one this login sent (a stale tab or a forged request); nothing was stored. Run pagerduty-login again.",
      EXIT.state,
    );
  }
  const error = q.get("error");
  if (error) {
    const description = q.get("error_description") ?? "";
    if (error === "access_denied") {
      redirect.reply(403, "Access denied", "You denied the request. Nothing was stored.");
      throw new LoginError(`access was denied in the browser${description ? ` (${description})` : ""}; nothing was stored.`, EXIT.denied);
    }
    redirect.reply(400, "Login failed", `The identity service answered ${error}${description ? `: ${description}` : ""}.`);
    throw new LoginError(`the identity service refused the authorization: ${error}${description ? `: ${description}` : ""}; nothing was stored.`, EXIT.failed);
  }
  const code = q.get("code");
  if (!code) {
    redirect.reply(400, "Login failed", "The redirect carries no authorization code.");
    throw new LoginError("the redirect carries neither a code nor an error; nothing was stored.", EXIT.failed);
  }
  return code;
}

interface Exchange {
  transport: Transport;
  io: LoginIo;
  callback: Redirect;
  secrets: string[];
}

/** The code exchanged for tokens: the grant must hold the scopes asked for and a refresh token. */
async function exchange(
  settings: LoginSettings,
  grant: { code: string; verifier: string; redirectUri: string },
  { transport, io, callback, secrets }: Exchange,
): Promise<{ refreshToken: string; idToken?: string }> {
  let tokens: TokenSet;
  let idToken: string | undefined;
  try {
    const reply = await authorizationCodeGrant(
      { url: `${settings.authUrl}/oauth/token`, transport, retry: settings.retry, userAgent: settings.userAgent },
      clientSecretPost(settings.clientId, settings.clientSecret),
      { code: grant.code, redirectUri: grant.redirectUri, codeVerifier: grant.verifier },
    );
    tokens = processTokenResponse(reply, { secrets });
    idToken = idTokenOf(reply);
  } catch (e) {
    const failure = exchangeFailure(e, settings.account, secrets);
    callback.reply(400, "Login failed", `${scrub(failure.message, secrets)} See the terminal.`);
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
    throw new LoginError("the token reply carries no refresh_token; nothing was stored.", EXIT.failed);
  }
  return { refreshToken: tokens.refreshToken, ...(idToken ? { idToken } : {}) };
}

/** A refused code gets its own exit code; a refused client names the settings to fix. */
function exchangeFailure(e: unknown, account: LoginAccount, secrets: string[]): LoginError {
  if (e instanceof TokenError && e.oauthError === "invalid_grant") {
    return new LoginError(
      `the authorization code was refused (${e.message}): codes live 30 seconds and work once. Nothing was stored; run pagerduty-login again.`,
      EXIT.codeRefused,
    );
  }
  if (e instanceof TokenError && e.oauthError === "invalid_client") {
    const secret = account.named
      ? `"${account.key("clientSecret")}" (or env ${CONFIG_KEYS.clientSecret[1]})`
      : `"${CONFIG_KEYS.clientSecret[0]}" (env ${CONFIG_KEYS.clientSecret[1]})`;
    return new LoginError(
      `the identity service refused the client (${e.message}): check ${secret} and "${account.key("clientId")}" (--client-id). Nothing was stored.`,
      EXIT.failed,
    );
  }
  return new LoginError(`the code exchange failed: ${scrub(messageOf(e), secrets)}; nothing was stored.`, EXIT.failed);
}

/** --print: the token on stdout, and on stderr the commands that would store it and the id_token's settings. */
function printToken(refreshToken: string, steps: readonly AccountSettingStep[], account: LoginAccount, io: LoginIo, callback: Redirect): void {
  callback.reply(200, "Logged in", "You are logged in. You can close this tab and return to the terminal.");
  io.out(`${refreshToken}\n`);
  io.say(`Printed the refresh token on stdout. Store it as a secret: ${shellWords(["pulumi", ...account.setSecretArgs("refreshToken")])} (value on stdin)`);
  const toSet = steps.filter((s) => !s.matches);
  if (toSet.length) {
    io.say("Set these too, in the stack that uses the token (from the id_token):");
    for (const s of toSet) io.say(`  ${shellWords(["pulumi", ...account.setArgs(s.setting, s.value)])}`);
  }
  for (const s of steps.filter((s) => s.matches)) io.say(`"${s.key}" is already ${JSON.stringify(s.value)} in the stack (matches the id_token).`);
}

/**
 * The id_token's settings first: they are facts the verified token states, right whether or not the
 * token is then stored; a token stored without them would be used against the wrong region.
 */
function storeToken(
  refreshToken: string,
  steps: readonly AccountSettingStep[],
  settings: LoginSettings,
  opts: LoginOptions,
  io: LoginIo,
  callback: Redirect,
): void {
  const { account } = settings;
  const where = opts.stack ? `stack ${opts.stack}` : "the selected stack";
  /** One `pulumi config set`; a failure tells the tab (`page`) and ends the login. */
  const write = (args: string[], input: string | undefined, page: string, failed: (detail: string) => string) => {
    try {
      io.pulumi(args, input);
    } catch (e) {
      callback.reply(500, "Login failed", `${page}; see the terminal.`);
      throw new LoginError(failed(e instanceof PulumiError ? e.detail : String(e)), EXIT.failed, { cause: e });
    }
  };
  for (const s of steps) {
    if (s.matches) {
      io.say(`"${s.key}" is already ${JSON.stringify(s.value)} (matches the id_token).`);
      continue;
    }
    write(
      account.setArgs(s.setting, s.value),
      undefined,
      "The stack's settings could not be written",
      (detail) => `pulumi config set ${s.key} failed: ${detail}; the refresh token was not stored.`,
    );
    io.say(`Set ${s.key} = ${s.value} (from the id_token) in ${where}.`);
  }
  write(account.setSecretArgs("refreshToken"), refreshToken, "The token could not be stored in the stack", (detail) => `pulumi config set failed: ${detail}`);
  callback.reply(200, "Logged in", "You are logged in and the token is stored. You can close this tab and return to the terminal.");
  io.say(`Logged in. Stored the refresh token as the secret "${account.key("refreshToken")}" of ${where}.`);
  if (!settings.stackHasClient) io.say(clientHint(account));
}

/** A command line to show the user; words with shell metacharacters single-quoted. */
function shellWords(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

// GET /oauth/authorize validates the request and renders a plain HTML login + consent form;
// POST /oauth/authorize is that form's submit. Problems with client_id or redirect_uri get an
// error page (never a redirect to an unverified URI); later problems redirect with `error`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../core";
import { OAUTH_ERRORS, OAuthError, type OAuthErrorName } from "../errors";
import { secret } from "../ids";
import { type App, appByClientId } from "../store";
import { CODE_TTL_MS, PENDING_TTL_MS, type PendingAuthorization } from "./codes";
import { CHALLENGE } from "./pkce";
import { CLASSIC_SCOPES, OPENID } from "./scopes";

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`);
}

/** An error page for requests that must not be redirected; JSON error fields are in the page too. */
function errorPage(reply: FastifyReply, e: OAuthError) {
  return page(reply, e.status, "Authorization failed", `<p id="error">${escape(e.error)}</p><p id="error_description">${escape(e.description)}</p>`);
}

function redirect(reply: FastifyReply, uri: string, params: Record<string, string | undefined>) {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.code(302).header("location", url.toString()).header("cache-control", "no-store").send();
}

function redirectError(reply: FastifyReply, uri: string, error: OAuthErrorName, description: string, state?: string) {
  return redirect(reply, uri, { error, error_description: description, state });
}

const one = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Requested scopes the app may grant; unknown or unconfigured ones are dropped, `openid` always added. */
function grantable(app: App, requested: string[]): string[] {
  const allowed = app.kind === "classic" ? app.scopes.filter((s) => (CLASSIC_SCOPES as readonly string[]).includes(s)) : app.scopes;
  return [...new Set([...requested.filter((s) => allowed.includes(s)), OPENID])];
}

function consentForm(reply: FastifyReply, app: App, id: string, scopes: string[], problem?: string) {
  const list = scopes.map((s) => `<li>${escape(s)}</li>`).join("");
  return page(
    reply,
    problem ? OAUTH_ERRORS.login_failed.status : 200,
    `Authorize ${app.name}`,
    `${problem ? `<p id="error" role="alert">${escape(problem)}</p>` : ""}
<p>Sign in to let <strong>${escape(app.name)}</strong> access your account with these scopes:</p><ul id="scopes">${list}</ul>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request_id" value="${escape(id)}">
<label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function registerAuthorize(app: FastifyInstance, core: EmulatorCore): void {
  app.get("/oauth/authorize", { config: { area: "oauth" } }, (req: FastifyRequest, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    if (q.client_secret !== undefined) {
      return errorPage(reply, new OAuthError("invalid_request", "client_secret must never be sent in a query string"));
    }
    const client = appByClientId(core.state, one(q.client_id) ?? "");
    if (!client || !client.oauthEnabled) return errorPage(reply, new OAuthError("invalid_client", "Unknown client_id"));
    const redirectUri = one(q.redirect_uri);
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
      return errorPage(reply, new OAuthError("invalid_request", "redirect_uri is missing or not registered with the app (exact match)"));
    }
    const state = one(q.state);
    const fail = (e: OAuthErrorName, d: string) => redirectError(reply, redirectUri, e, d, state);
    if (one(q.response_type) !== "code") return fail("unsupported_response_type", "response_type must be code");
    const scope = one(q.scope);
    if (!scope) return fail("invalid_request", "scope is required");
    const challenge = one(q.code_challenge);
    const method = one(q.code_challenge_method);
    if (method !== undefined && method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
    if (challenge !== undefined && method === undefined) return fail("invalid_request", "code_challenge_method=S256 is required with code_challenge");
    if (method !== undefined && challenge === undefined) return fail("invalid_request", "code_challenge is required with code_challenge_method");
    if (challenge !== undefined && !CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge must be 43 base64url characters (S256)");
    if (!challenge && (client.kind === "scoped" || !client.confidential)) {
      return fail("invalid_request", "This client must use PKCE (code_challenge with code_challenge_method=S256)");
    }
    const pending: PendingAuthorization = {
      appId: client.id,
      clientId: client.clientId,
      redirectUri,
      scopes: grantable(client, scope.split(/\s+/).filter(Boolean)),
      state,
      nonce: one(q.nonce),
      codeChallenge: challenge,
      expiresAt: core.clock.now() + PENDING_TTL_MS,
    };
    const id = secret(16);
    core.pending.set(id, pending);
    return consentForm(reply, client, id, pending.scopes);
  });

  app.post("/oauth/authorize", { config: { area: "oauth" } }, (req, reply) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const id = one(form.request_id) ?? "";
    const pending = core.pending.get(id);
    if (!pending || pending.expiresAt <= core.clock.now()) {
      core.pending.delete(id);
      return errorPage(reply, new OAuthError("invalid_request", "The authorization request is unknown or expired; start again"));
    }
    const client = core.state.apps[pending.appId];
    if (!client?.oauthEnabled || client.clientId !== pending.clientId) {
      core.pending.delete(id);
      return errorPage(reply, new OAuthError("invalid_client", "The app's OAuth functionality was deleted"));
    }
    const email = one(form.email);
    const user = Object.values(core.state.users).find((u) => u.email === email && !u.removed);
    // A failed login issues nothing and redirects nowhere: the form is shown again.
    if (!user || one(form.password) !== user.password) {
      return consentForm(reply, client, id, pending.scopes, OAUTH_ERRORS.login_failed.message);
    }
    core.pending.delete(id);
    const back = (e: OAuthErrorName, d: string) => redirectError(reply, pending.redirectUri, e, d, pending.state);
    if (one(form.decision) !== "approve") return back("access_denied", "The user denied the authorization request");
    const installed = user.accountId === client.accountId || (client.published && client.installs.includes(user.accountId));
    if (client.kind === "scoped" && !installed) {
      return back("unauthorized_client", "This Scoped OAuth app is not installed on the user's account (it must be published and installed by an admin)");
    }
    const code = secret();
    core.codes.set(code, {
      appId: client.id,
      clientId: client.clientId,
      redirectUri: pending.redirectUri,
      userId: user.id,
      accountId: user.accountId,
      scopes: pending.scopes,
      nonce: pending.nonce,
      codeChallenge: pending.codeChallenge,
      expiresAt: core.clock.now() + CODE_TTL_MS,
      used: false,
      issued: [],
    });
    return redirect(reply, pending.redirectUri, { code, state: pending.state });
  });
}

// GET /oauth/authorize validates the request and renders an HTML login + consent page;
// POST /oauth/authorize is that form's submit. Problems with client_id or redirect_uri get an
// error page (never a redirect to an unverified URI); later problems redirect with `error`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../core";
import { OAUTH_ERRORS, OAuthError, type OAuthErrorName } from "../errors";
import { secret } from "../ids";
import { type App, appByClientId } from "../store";
import { CODE_TTL_MS, PENDING_TTL_MS, type PendingAuthorization } from "../auth-codes";
import { CHALLENGE } from "./pkce";
import { CLASSIC_SCOPES, OPENID } from "../scopes";

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** Inline so the page needs nothing else from the emulator; plain system fonts, one card. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f3f4f6;
 font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933}
main{width:100%;max-width:27rem;margin:2rem 1rem;background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.12);overflow:hidden}
.brand{background:#06ac38;color:#fff;padding:.9rem 1.5rem;font-weight:700;letter-spacing:.02em}
.brand small{font-weight:400;opacity:.85;margin-left:.4rem}
.content{padding:1.25rem 1.5rem 1.5rem}
h1{font-size:1.3rem;margin:0 0 .5rem}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:#52606d;margin:1.25rem 0 .5rem}
.account{margin:0;color:#52606d}
.scopes{list-style:none;margin:0;padding:0;border:1px solid #e4e7eb;border-radius:8px}
.scopes li{padding:.55rem .8rem;border-top:1px solid #e4e7eb}
.scopes li:first-child{border-top:0}
.scopes code{display:block;font:600 .85rem ui-monospace,SFMono-Regular,Menlo,monospace;color:#047a28}
.scopes span{font-size:.88rem;color:#3e4c59}
form{margin-top:1.25rem}
label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}
input[type=email],input[type=password]{width:100%;padding:.55rem .7rem;border:1px solid #cbd2d9;border-radius:6px;font:inherit}
input:focus{outline:2px solid #06ac38;outline-offset:1px}
.actions{display:flex;flex-direction:row-reverse;gap:.75rem;margin-top:1.25rem}
button{flex:1;padding:.6rem 1rem;border-radius:6px;font:600 1rem system-ui,sans-serif;cursor:pointer}
.approve{background:#06ac38;border:1px solid #06ac38;color:#fff}
.deny{background:#fff;border:1px solid #cbd2d9;color:#1f2933}
.alert{background:#fdecea;border:1px solid #f5c2c0;color:#8a1c13;border-radius:6px;padding:.5rem .75rem}
.note{font-size:.8rem;color:#7b8794;margin:1rem 0 0}
`;

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>` +
        `<div class="brand">PagerDuty<small>emulator</small></div><div class="content"><h1>${escapeHtml(title)}</h1>${body}</div></main></body></html>`,
    );
}

/** An error page for requests that must not be redirected; JSON error fields are in the page too. */
function errorPage(reply: FastifyReply, e: OAuthError) {
  return page(
    reply,
    e.status,
    "Authorization failed",
    `<p id="error" class="alert">${escapeHtml(e.error)}</p><p id="error_description">${escapeHtml(e.description)}</p>`,
  );
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

/** One line per scope on the consent page; unknown names are shown as they are. */
const SCOPE_TEXT: Record<string, string> = {
  [OPENID]: "Confirm who you are (always included)",
  "services.read": "See services and their integrations, event rules, custom field values and enablements",
  "services.write": "Create, change and delete services and their integrations, event rules and enablements",
  "custom_fields.read": "See custom field definitions",
  "custom_fields.write": "Change custom field definitions and values",
  "audit_records.read": "See the audit records of services",
  "escalation_policies.read": "See escalation policies",
  read: "See everything your user can see",
  write: "See and change everything your user can change",
};

function consentForm(reply: FastifyReply, core: EmulatorCore, app: App, id: string, scopes: string[], problem?: string, email?: string) {
  const account = core.state.accounts[app.accountId];
  const owner = account
    ? `${escapeHtml(account.name)} (${escapeHtml(account.subdomain)}, ${escapeHtml(account.region.toUpperCase())} service region)`
    : "another account";
  const list = scopes.map((s) => `<li><code>${escapeHtml(s)}</code><span>${escapeHtml(SCOPE_TEXT[s] ?? "Access granted by this scope")}</span></li>`).join("");
  return page(
    reply,
    problem ? OAUTH_ERRORS.login_failed.status : 200,
    `Authorize ${app.name}`,
    `<p class="account" id="app">Sign in to let <strong>${escapeHtml(app.name)}</strong>, an app of <strong id="account">${owner}</strong>, act as you.</p>
${problem ? `<p id="error" class="alert" role="alert">${escapeHtml(problem)}</p>` : ""}
<h2>It asks to</h2>
<ul id="scopes" class="scopes">${list}</ul>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request_id" value="${escapeHtml(id)}">
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" value="${escapeHtml(email ?? "")}">
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password">
<div class="actions"><!-- Approve first in the DOM: pressing Enter submits the first button -->
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="deny">Deny</button>
</div>
</form>
<p class="note">Approving gives this app a token for these scopes, limited to what your role allows. Deny sends you back without one.</p>`,
  );
}

export function registerAuthorize(app: FastifyInstance, core: EmulatorCore): void {
  app.get("/oauth/authorize", { config: { area: "oauth" } }, (req: FastifyRequest, reply) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    if (q.client_secret !== undefined) {
      return errorPage(reply, new OAuthError("invalid_request", "client_secret must never be sent in a query string"));
    }
    const client = appByClientId(core.state, one(q.client_id) ?? "");
    if (!client?.oauthEnabled) return errorPage(reply, new OAuthError("invalid_client", "Unknown client_id"));
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
    return consentForm(reply, core, client, id, pending.scopes);
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
      return consentForm(reply, core, client, id, pending.scopes, OAUTH_ERRORS.login_failed.message, email);
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

// POST /oauth/token: client_credentials (Scoped app tokens, creating account only),
// authorization_code (user tokens, PKCE per the contract's client-type table) and
// refresh_token (rotation: the used refresh token stops working).
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SignJWT } from "jose";
import type { EmulatorCore } from "../core";
import { OAuthError } from "../errors";
import { tokenHash } from "../ids";
import { origin, restBase } from "../region";
import { accountBySubdomain, type App, appByClientId } from "../store";
import { signingKey } from "./keys";
import { OPENID } from "../scopes";
import { s256, VERIFIER } from "./pkce";
import { issueAccessToken, issueRefreshToken, revokeHashes } from "./tokens";

type Form = Record<string, string | undefined>;

const SELECTOR = /^as_account-([a-z]+)\.([a-z0-9-]+)$/;

function equalSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The form body as single strings; repeated parameters are a malformed request. */
function readForm(req: FastifyRequest): Form {
  if (Object.hasOwn(req.query ?? {}, "client_secret")) {
    throw new OAuthError("invalid_request", "client_secret must never be sent in the query string; send it in the form body");
  }
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "")) {
    throw new OAuthError("invalid_request", "The token request must be application/x-www-form-urlencoded");
  }
  if (req.headers.authorization) {
    throw new OAuthError("invalid_client", "Send client_id and client_secret in the form body (client_secret_post); HTTP authentication is not accepted");
  }
  const form: Form = {};
  for (const [k, v] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    if (typeof v !== "string") throw new OAuthError("invalid_request", `Parameter "${k}" is given more than once`);
    form[k] = v;
  }
  return form;
}

function required(form: Form, name: string): string {
  const v = form[name];
  if (!v) throw new OAuthError("invalid_request", `Parameter "${name}" is required`);
  return v;
}

function client(core: EmulatorCore, form: Form): App {
  const app = appByClientId(core.state, required(form, "client_id"));
  if (!app?.oauthEnabled) throw new OAuthError("invalid_client", "Unknown client_id (or its OAuth functionality was deleted)");
  return app;
}

function checkSecret(app: App, given: string | undefined): void {
  if (given === undefined) throw new OAuthError("invalid_client", "client_secret is required");
  if (!equalSecret(given, app.clientSecret)) throw new OAuthError("invalid_client", "client_secret is wrong");
}

function clientCredentials(core: EmulatorCore, form: Form) {
  const app = client(core, form);
  if (app.kind !== "scoped") throw new OAuthError("unauthorized_client", "Only Scoped OAuth apps may use the client_credentials grant");
  checkSecret(app, form.client_secret);
  const [selector, ...requested] = required(form, "scope").split(/\s+/).filter(Boolean);
  const m = SELECTOR.exec(selector ?? "");
  if (!m) throw new OAuthError("invalid_scope", 'The scope must start with the account selector "as_account-<region>.<subdomain>"');
  const account = accountBySubdomain(core.state, m[2]);
  if (!account || account.region !== m[1]) throw new OAuthError("invalid_scope", `No account "${m[2]}" in region "${m[1]}"`);
  if (account.id !== app.accountId) {
    throw new OAuthError("unauthorized_client", "The client_credentials grant works only on the account that created the app");
  }
  // Scope names are case sensitive; what the app is not configured with is dropped, not refused
  // (contract, authentication rule 6): the grant is what is valid, and always `openid`, so a
  // request naming no valid scope gets a token for `openid` only, never an empty scope.
  const granted = [...new Set([...requested.filter((s) => app.scopes.includes(s)), OPENID])];
  const t = issueAccessToken(core, app, { accountId: account.id, scopes: granted, kind: "app" });
  core.stats.tokensIssued.client_credentials++;
  return { access_token: t.token, token_type: "bearer", expires_in: t.expiresIn, scope: granted.join(" ") };
}

async function idToken(core: EmulatorCore, req: FastifyRequest, app: App, userId: string, nonce?: string): Promise<string> {
  const user = core.state.users[userId];
  const account = core.state.accounts[user.accountId];
  const key = signingKey(core.state);
  const now = Math.floor(core.clock.now() / 1000);
  // `aud` names the REST base of the account's region (where its data must be sent: the root or
  // /eu) and the client, with `azp`, so standard OIDC libraries accept the token too. `iss` is the
  // identity origin, the same for every region.
  return new SignJWT({
    ...(nonce ? { nonce } : {}),
    azp: app.clientId,
    email: user.email,
    name: user.name,
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    account: { id: account.id, subdomain: account.subdomain, name: account.name },
    region: account.region,
  })
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
    .setIssuer(origin(core, req))
    .setSubject(user.id)
    .setAudience([restBase(core, req, account.region), app.clientId])
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(key.privateKey);
}

async function authorizationCode(core: EmulatorCore, req: FastifyRequest, form: Form) {
  const app = client(core, form);
  const code = required(form, "code");
  const redirectUri = required(form, "redirect_uri");
  const c = core.codes.get(code);
  if (!c || c.clientId !== app.clientId) throw new OAuthError("invalid_grant", "Unknown authorization code");
  if (c.used) {
    // A replayed code revokes what it issued (RFC 6749 §4.1.2).
    revokeHashes(core, c.issued);
    throw new OAuthError("invalid_grant", "The authorization code was already used");
  }
  if (c.expiresAt <= core.clock.now()) throw new OAuthError("invalid_grant", "The authorization code expired (codes live 30 seconds)");
  if (redirectUri !== c.redirectUri) throw new OAuthError("invalid_grant", "redirect_uri differs from the one of the authorization request");
  if (form.client_secret !== undefined || app.confidential) checkSecret(app, form.client_secret);
  const verifier = form.code_verifier;
  if (verifier !== undefined && !VERIFIER.test(verifier)) {
    throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]");
  }
  if (c.codeChallenge) {
    if (verifier === undefined) throw new OAuthError("invalid_grant", "code_verifier is required: the authorization request used PKCE");
    if (s256(verifier) !== c.codeChallenge) throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
  } else if (verifier !== undefined) {
    throw new OAuthError("invalid_grant", "code_verifier was sent but the authorization request had no code_challenge");
  }
  c.used = true;
  const user = core.state.users[c.userId];
  if (!user || user.removed) throw new OAuthError("invalid_grant", "The user is no longer a member of the account");
  const grant = { accountId: c.accountId, userId: c.userId, scopes: c.scopes };
  const access = issueAccessToken(core, app, { ...grant, kind: "user" });
  const refresh = issueRefreshToken(core, app, grant);
  c.issued.push(access.hash, refresh.hash);
  core.stats.tokensIssued.authorization_code++;
  return {
    client_info: Buffer.from(JSON.stringify({ uid: c.userId, utid: c.accountId })).toString("base64url"),
    id_token: await idToken(core, req, app, c.userId, c.nonce),
    token_type: "bearer",
    access_token: access.token,
    refresh_token: refresh.token,
    scope: c.scopes.join(" "),
    expires_in: access.expiresIn,
  };
}

function refreshToken(core: EmulatorCore, form: Form) {
  const app = client(core, form);
  // The contract requires client_secret on refresh, also from non-confidential clients.
  checkSecret(app, form.client_secret);
  const hash = tokenHash(required(form, "refresh_token"));
  const r = core.state.refreshTokens[hash];
  if (!r || r.appId !== app.id) throw new OAuthError("invalid_grant", "Unknown, used or revoked refresh token");
  if (r.expiresAt <= core.clock.now()) throw new OAuthError("invalid_grant", "The refresh token expired");
  const user = core.state.users[r.userId];
  if (!user || user.removed) throw new OAuthError("invalid_grant", "The user is no longer a member of the account");
  delete core.state.refreshTokens[hash];
  const access = issueAccessToken(core, app, { accountId: r.accountId, userId: r.userId, scopes: r.scopes, kind: "user" });
  const refresh = issueRefreshToken(core, app, r);
  core.stats.tokensIssued.refresh_token++;
  return {
    token_type: "bearer",
    access_token: access.token,
    refresh_token: refresh.token,
    scope: r.scopes.join(" "),
    expires_in: access.expiresIn,
  };
}

export function registerTokenEndpoint(app: FastifyInstance, core: EmulatorCore): void {
  app.post("/oauth/token", { config: { area: "oauth" } }, async (req, reply) => {
    const form = readForm(req);
    reply.header("cache-control", "no-store").header("pragma", "no-cache");
    switch (form.grant_type) {
      case "client_credentials":
        return clientCredentials(core, form);
      case "authorization_code":
        return authorizationCode(core, req, form);
      case "refresh_token":
        return refreshToken(core, form);
      case undefined:
      case "":
        throw new OAuthError("invalid_request", 'Parameter "grant_type" is required');
      default:
        throw new OAuthError("unsupported_grant_type", `grant_type "${form.grant_type}" is not supported`);
    }
  });
}

// REST authentication: `Authorization: Bearer <oauth token>` or `Authorization: Token token=<key>`.
// The emulator's admin token is deliberately not recognised here (and vice versa in admin.ts).
import { ApiError } from "./errors";
import { tokenHash } from "./ids";
import { effectiveScopes, KNOWN_SCOPES, roleAllows } from "./scopes";
import type { Role, State } from "./store";

export interface Principal {
  accountId: string;
  kind: "app_token" | "user_token" | "account_key" | "user_key";
  appId?: string;
  userId?: string;
  apiKeyId?: string;
  /** Scopes the credential carries (Classic read/write already expanded). */
  scopes: ReadonlySet<string>;
  /** The acting user's role: effective access = scopes ∩ role permissions. */
  role?: Role;
  readOnly: boolean;
  /** Last characters of the credential, for audit records. */
  tail: string;
  /** Rate limits apply per app (or per key) per account. */
  rateKey: string;
}

const fail = (why: string): ApiError => new ApiError("AUTHENTICATION_FAILED", [why]);
const ALL_SCOPES: ReadonlySet<string> = new Set(KNOWN_SCOPES);

export function authenticate(state: State, header: string | undefined, now: number): Principal {
  if (!header) throw fail("The Authorization header is missing");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return fromAccessToken(state, bearer[1], now);
  const key = /^Token token=(\S+)$/.exec(header);
  if (key) return fromApiKey(state, key[1]);
  throw fail('The Authorization header must be "Bearer <token>" or "Token token=<key>"');
}

function activeUser(state: State, userId: string, accountId: string) {
  const user = state.users[userId];
  return user && !user.removed && user.accountId === accountId ? user : undefined;
}

function fromAccessToken(state: State, token: string, now: number): Principal {
  const t = state.accessTokens[tokenHash(token)];
  if (!t) throw fail("The access token is invalid or was revoked");
  if (t.expiresAt <= now) throw fail("The access token has expired");
  const base = {
    accountId: t.accountId,
    appId: t.appId,
    scopes: effectiveScopes(t.scopes),
    readOnly: false,
    tail: token.slice(-4),
    rateKey: `app:${t.appId}:${t.accountId}`,
  };
  if (t.kind === "app") return { ...base, kind: "app_token" };
  const user = t.userId ? activeUser(state, t.userId, t.accountId) : undefined;
  if (!user) throw fail("The user of this token is no longer a member of the account");
  return { ...base, kind: "user_token", userId: user.id, role: user.role };
}

function fromApiKey(state: State, token: string): Principal {
  const key = Object.values(state.apiKeys).find((k) => k.token === token);
  if (!key) throw fail("The API key is invalid");
  const base = {
    accountId: key.accountId,
    apiKeyId: key.id,
    scopes: ALL_SCOPES,
    readOnly: key.readOnly,
    tail: token.slice(-4),
    rateKey: `key:${key.id}:${key.accountId}`,
  };
  if (key.kind === "account") return { ...base, kind: "account_key" };
  const user = key.userId ? activeUser(state, key.userId, key.accountId) : undefined;
  if (!user) throw fail("The user of this API key left the account; the key is disabled");
  return { ...base, kind: "user_key", userId: user.id, role: user.role };
}

/** 403 unless the credential carries `scope` and its user (if any) is allowed to use it. */
export function requireScope(p: Principal, scope: string): void {
  if (!p.scopes.has(scope)) {
    throw new ApiError("MISSING_SCOPE", [`This call needs the scope "${scope}"`], { required_scopes: [scope] });
  }
  if (p.readOnly && !scope.endsWith(".read")) throw new ApiError("ACCESS_DENIED", ["This API key is read-only"]);
  if (p.role && !roleAllows(p.role, scope)) {
    throw new ApiError("ACCESS_DENIED", [`A user with role "${p.role}" may not use "${scope}"`]);
  }
}

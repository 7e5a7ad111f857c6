// Short-lived OAuth records kept in memory only: consent pages awaiting a submit and issued
// authorization codes (30 s, single use).
export const CODE_TTL_MS = 30_000;
export const PENDING_TTL_MS = 10 * 60_000;

/** A validated authorization request, waiting for the login + consent form. */
export interface PendingAuthorization {
  appId: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  expiresAt: number;
}

export interface AuthCode {
  appId: string;
  clientId: string;
  redirectUri: string;
  userId: string;
  accountId: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  expiresAt: number;
  used: boolean;
  /** Access/refresh token hashes issued from it, revoked if the code is replayed. */
  issued: string[];
}

/** Drop entries past their expiry (plus a grace period so a late replay is still recognised). */
export function purgeExpired(map: Map<string, { expiresAt: number }>, now: number, graceMs = CODE_TTL_MS): void {
  for (const [k, v] of map) if (v.expiresAt + graceMs <= now) map.delete(k);
}

// PKCE (RFC 7636, S256) as two pure helpers for the authorization-code flow.
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes as base64url: 43 characters, inside PKCE's 43–128 range. */
export function createCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

/** base64url (no padding) of SHA-256 over the verifier's ASCII bytes. */
export function codeChallenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

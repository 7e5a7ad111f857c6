// PKCE (RFC 7636), S256 only: the challenge is base64url(no padding) of SHA-256 of the verifier.
import { createHash } from "node:crypto";

/** Verifier alphabet and length limits (43..128 unreserved characters). */
export const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A S256 challenge is always 43 base64url characters. */
export const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const s256 = (verifier: string): string => createHash("sha256").update(verifier, "ascii").digest("base64url");

import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Random string over an alphabet (rejection-free thanks to randomInt). */
export function randomString(length: number, alphabet = ID_ALPHABET): string {
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

/** An opaque secret (client secrets, tokens), URL-safe. */
export const secret = (bytes = 32): string => randomBytes(bytes).toString("base64url");

/** 32-char routing key like the real integration_key. */
export const integrationKey = (): string => randomString(32, KEY_ALPHABET);

/** Tokens are stored by hash, so a data file never holds a usable token. */
export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("base64url");

/**
 * Allocates ids that are never reused: the used-set survives deletion (and persistence), which
 * is what makes (id, type) identify an object forever.
 */
export class IdAllocator {
  constructor(readonly used: Set<string> = new Set()) {}

  /** "P" + 6 uppercase alphanumerics, PagerDuty style. */
  next(): string {
    for (;;) {
      const id = `P${randomString(6)}`;
      if (!this.used.has(id)) return this.claim(id);
    }
  }

  uuid(): string {
    for (;;) {
      const id = randomUUID();
      if (!this.used.has(id)) return this.claim(id);
    }
  }

  /** Record an id chosen elsewhere (seed files); false when it was taken already. */
  claim(id: string): string {
    this.used.add(id);
    return id;
  }
}

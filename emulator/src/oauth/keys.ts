// The id_token signing key: RS256, created on first use (startup stays fast) and kept in the
// state so a persisted emulator's tokens stay verifiable after a restart.
import { createHash, type JsonWebKey, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { State } from "../store";

export interface SigningKey {
  privateKey: KeyObject;
  kid: string;
  publicJwk: JsonWebKey & { kid: string; alg: string; use: string };
}

const cache = new WeakMap<JsonWebKey, SigningKey>();

export function signingKey(state: State): SigningKey {
  if (!state.signingKey) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    state.signingKey = privateKey.export({ format: "jwk" });
  }
  const jwk = state.signingKey;
  let key = cache.get(jwk);
  if (!key) {
    const privateKey = createPrivateKey({ key: jwk, format: "jwk" });
    const pub = createPublicKey(privateKey).export({ format: "jwk" });
    const kid = createHash("sha256").update(String(pub.n)).digest("base64url").slice(0, 16);
    key = { privateKey, kid, publicJwk: { ...pub, kid, alg: "RS256", use: "sig" } };
    cache.set(jwk, key);
  }
  return key;
}

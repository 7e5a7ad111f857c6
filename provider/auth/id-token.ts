// The id_token of an authorization-code reply, verified before anything it says is trusted: the
// identity service's discovery document and JWKS are fetched through the provider's Transport (the
// same CA trust, NODE_EXTRA_CA_CERTS and https rules as the token call), then the signature,
// issuer, audience and expiry are checked. `jose` does the JWS/JWT work: key import, matching a key
// to the token's `alg`/`kid` and the claim checks are easy to get subtly wrong by hand.
import { createLocalJWKSet, errors as jose, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { isLoopback, SUBDOMAIN, type ServiceRegion } from "../config";
import { redactUrl, TokenError } from "../errors";
import { withRetry, type RetryOptions } from "../http/retry";
import type { HttpResponse, Transport } from "../http/transport";

/** Which check an id_token failed. */
export type IdTokenCheck = "discovery" | "jwks" | "malformed" | "signature" | "issuer" | "audience" | "expired" | "claims";

/** The id_token cannot be trusted (or not be verified); nothing it says may be used. */
export class IdTokenError extends TokenError {
  readonly check: IdTokenCheck;
  constructor(check: IdTokenCheck, message: string) {
    super(message);
    this.name = "IdTokenError";
    this.check = check;
  }
}

/** What a verified id_token says about the account logged in to. */
export interface IdTokenIdentity {
  /** `region`, when the token carries it. */
  region?: ServiceRegion;
  /** `account.subdomain`, lower-cased, when the token carries it. */
  subdomain?: string;
  accountName?: string;
  /** The user, for messages: `user.email` (or `email`). */
  email?: string;
}

export interface IdTokenVerifier {
  /** The identity service's base URL (the provider's resolved authUrl, no trailing slash). */
  authUrl: string;
  /** The setting authUrl came from, for network error messages. */
  setting: string;
  clientId: string;
  transport: Transport;
  retry: Required<RetryOptions>;
  userAgent: string;
  /** Epoch milliseconds; tests pin it. */
  now?: number;
}

/** Clocks of this machine and the identity service may differ this much. */
const CLOCK_TOLERANCE_S = 60;

/** Signature algorithms with a public key; HMAC ("HS*") would need a shared secret, "none" is never accepted. */
const ASYMMETRIC = new Set(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]);

/** The `id_token` of a token reply, if it carries one (processTokenResponse keeps only what the provider needs). */
export function idTokenOf(response: HttpResponse): string | undefined {
  try {
    const body: unknown = JSON.parse(response.text);
    const v = typeof body === "object" && body !== null ? (body as Record<string, unknown>).id_token : undefined;
    return typeof v === "string" && v ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Verifies `idToken` against the keys the identity service publishes; throws IdTokenError. */
export async function verifyIdToken(idToken: string, v: IdTokenVerifier): Promise<IdTokenIdentity> {
  const discoveryUrl = `${v.authUrl}/.well-known/openid-configuration`;
  const discovery = await getJson(v, discoveryUrl, "discovery");
  const issuer = discoveryIssuer(discovery, v.authUrl, discoveryUrl);
  const jwksUri = discoveryJwksUri(discovery, discoveryUrl);
  const algorithms = signingAlgorithms(discovery, discoveryUrl);

  const jwks = await getJson(v, jwksUri, "jwks");
  let keys: ReturnType<typeof createLocalJWKSet>;
  try {
    keys = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
  } catch {
    throw new IdTokenError("jwks", `the identity service's key set (${jwksUri}) is not a JSON Web Key Set`);
  }

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer,
      audience: v.clientId,
      algorithms,
      requiredClaims: ["exp", "sub"],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(v.now ?? Date.now()),
    }));
  } catch (e) {
    throw verificationFailure(e, { issuer, clientId: v.clientId, jwksUri, algorithms });
  }
  // OIDC: with several audiences the authorized party names the client the token was issued to.
  if (payload.azp !== undefined && payload.azp !== v.clientId) {
    throw new IdTokenError("audience", `the id_token was issued to the client ${JSON.stringify(payload.azp)} ("azp"), not to ${JSON.stringify(v.clientId)}`);
  }
  return identityOf(payload);
}

async function getJson(v: IdTokenVerifier, url: string, what: "discovery" | "jwks"): Promise<Record<string, unknown>> {
  const { response } = await withRetry("GET", v.retry, () =>
    v.transport.send({ method: "GET", url: new URL(url), setting: v.setting, headers: { accept: "application/json", "user-agent": v.userAgent } }),
  );
  const name = what === "discovery" ? "discovery document" : "key set (JWKS)";
  if (response.status !== 200)
    throw new IdTokenError(what, `GET ${url} answered ${response.status}: the id_token cannot be verified without the identity service's ${name}`);
  try {
    const body: unknown = JSON.parse(response.text);
    if (typeof body === "object" && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Worded below.
  }
  throw new IdTokenError(what, `GET ${url} did not answer a JSON object: the id_token cannot be verified without the identity service's ${name}`);
}

/**
 * The issuer every id_token must name. OIDC discovery requires it to be the URL the document was
 * fetched under; a document naming another issuer is not this identity service's.
 */
function discoveryIssuer(discovery: Record<string, unknown>, authUrl: string, url: string): string {
  const issuer = discovery.issuer;
  if (typeof issuer !== "string" || !issuer) throw new IdTokenError("discovery", `the discovery document (${url}) names no "issuer"`);
  const trimmed = issuer.replace(/\/+$/, "");
  if (trimmed !== authUrl && trimmed !== new URL(authUrl).origin) {
    throw new IdTokenError(
      "issuer",
      `the discovery document (${url}) names the issuer ${JSON.stringify(issuer)}, not the identity service ${JSON.stringify(authUrl)}`,
    );
  }
  return issuer;
}

/** The key set's URL, held to the rule the token endpoint is: https, or http to a loopback host. */
function discoveryJwksUri(discovery: Record<string, unknown>, url: string): string {
  const raw = discovery.jwks_uri;
  let jwks: URL;
  try {
    jwks = new URL(String(raw));
  } catch {
    throw new IdTokenError("discovery", `the discovery document (${url}) has no valid "jwks_uri"`);
  }
  if (jwks.protocol !== "https:" && !(jwks.protocol === "http:" && isLoopback(jwks.hostname))) {
    throw new IdTokenError(
      "discovery",
      `the discovery document (${url}) names a key set at ${redactUrl(jwks.toString())}: it must use https (plain http is allowed for loopback hosts only)`,
    );
  }
  return jwks.toString();
}

/** The announced signing algorithms that use a public key; OIDC's default RS256 when none are announced. */
function signingAlgorithms(discovery: Record<string, unknown>, url: string): string[] {
  const announced = discovery.id_token_signing_alg_values_supported;
  if (announced === undefined) return ["RS256"];
  const algorithms = Array.isArray(announced) ? announced.filter((a): a is string => typeof a === "string" && ASYMMETRIC.has(a)) : [];
  if (!algorithms.length)
    throw new IdTokenError(
      "discovery",
      `the discovery document (${url}) announces no public-key signing algorithm for id_tokens (${JSON.stringify(announced)})`,
    );
  return algorithms;
}

/** jose's error, worded for the user; claim values are not secret, the token itself never appears. */
function verificationFailure(e: unknown, ctx: { issuer: string; clientId: string; jwksUri: string; algorithms: string[] }): IdTokenError {
  if (e instanceof jose.JWTExpired) {
    const exp = Number(e.payload.exp);
    return new IdTokenError(
      "expired",
      `the id_token expired${Number.isFinite(exp) ? ` at ${new Date(exp * 1000).toISOString()}` : ""}; check this machine's clock`,
    );
  }
  if (e instanceof jose.JWTClaimValidationFailed) {
    if (e.claim === "iss")
      return new IdTokenError("issuer", `the id_token's issuer ${JSON.stringify(e.payload.iss)} is not the identity service's ${JSON.stringify(ctx.issuer)}`);
    if (e.claim === "aud")
      return new IdTokenError(
        "audience",
        `the id_token's audience ${JSON.stringify(e.payload.aud)} does not contain the client id ${JSON.stringify(ctx.clientId)}`,
      );
    return new IdTokenError("claims", `the id_token's "${e.claim}" claim is ${e.reason === "missing" ? "missing" : "invalid"}`);
  }
  if (e instanceof jose.JWSSignatureVerificationFailed)
    return new IdTokenError("signature", `the id_token's signature does not verify against the keys the identity service publishes (${ctx.jwksUri})`);
  if (e instanceof jose.JWKSNoMatchingKey || e instanceof jose.JWKSMultipleMatchingKeys) {
    return new IdTokenError("signature", `no single key the identity service publishes (${ctx.jwksUri}) matches the id_token's key id and algorithm`);
  }
  if (e instanceof jose.JOSEAlgNotAllowed)
    return new IdTokenError("signature", `the id_token is not signed with an algorithm the identity service announces (${ctx.algorithms.join(", ")})`);
  if (e instanceof jose.JOSEError) return new IdTokenError("malformed", `the id_token is not a valid signed JWT (${e.code})`);
  return new IdTokenError("malformed", `the id_token could not be verified (${e instanceof Error ? e.name : "unknown error"})`);
}

function identityOf(payload: JWTPayload): IdTokenIdentity {
  const identity: IdTokenIdentity = {};
  const region = payload.region;
  if (region !== undefined) {
    const r = typeof region === "string" ? region.toLowerCase() : region;
    if (r !== "us" && r !== "eu")
      throw new IdTokenError("claims", `the id_token names the service region ${JSON.stringify(region)}; this provider knows "us" and "eu"`);
    identity.region = r;
  }
  const account = record(payload.account);
  const subdomain = account?.subdomain;
  if (subdomain !== undefined) {
    if (typeof subdomain !== "string" || !SUBDOMAIN.test(subdomain))
      throw new IdTokenError("claims", `the id_token's account subdomain ${JSON.stringify(subdomain)} is not a subdomain`);
    identity.subdomain = subdomain.toLowerCase();
  }
  if (typeof account?.name === "string") identity.accountName = account.name;
  const email = record(payload.user)?.email ?? payload.email;
  if (typeof email === "string") identity.email = email;
  return identity;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

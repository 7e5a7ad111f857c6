// The identity service: token and authorization endpoints plus OIDC discovery and the JWKS that
// verifies id_tokens. Registered in its own plugin so only it parses form bodies.
import formbody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";
import type { EmulatorCore } from "../core";
import { origin } from "../region";
import { registerAuthorize } from "./authorize";
import { purgeExpired } from "../auth-codes";
import { signingKey } from "./keys";
import { KNOWN_SCOPES, OPENID } from "../scopes";
import { registerTokenEndpoint } from "./token-endpoint";

export function registerOAuth(app: FastifyInstance, core: EmulatorCore): void {
  app.register(async (scope) => {
    await scope.register(formbody);
    scope.addHook("onRequest", async () => {
      purgeExpired(core.codes, core.clock.now());
      purgeExpired(core.pending, core.clock.now(), 0);
    });
    registerTokenEndpoint(scope, core);
    registerAuthorize(scope, core);
    scope.get("/oauth/jwks", { config: { area: "oauth" } }, () => ({ keys: [signingKey(core.state).publicJwk] }));
    scope.get("/.well-known/openid-configuration", { config: { area: "oauth" } }, (req) => {
      const base = origin(core, req);
      return {
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        jwks_uri: `${base}/oauth/jwks`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "none"],
        id_token_signing_alg_values_supported: ["RS256"],
        subject_types_supported: ["public"],
        scopes_supported: [OPENID, "read", "write", ...KNOWN_SCOPES],
      };
    });
  });
}

// A user logs in through the emulator's HTML consent form (authorization code + PKCE), as a person
// with a browser would, and the code is exchanged for tokens. Used to obtain refresh tokens.
import { request } from "undici";
import { clientSecretPost } from "../../provider/auth/client-auth";
import { codeChallenge, createCodeVerifier } from "../../provider/auth/pkce";
import { authorizationCodeGrant, processTokenResponse } from "../../provider/auth/token-endpoint";
import { DEFAULT_RETRY } from "../../provider/http/retry";
import { Transport } from "../../provider/http/transport";

export interface Login {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  email: string;
  password: string;
  scope: string;
  redirectUri?: string;
}

export async function loginForRefreshToken(l: Login): Promise<string> {
  const redirectUri = l.redirectUri ?? "http://127.0.0.1:8765/callback";
  const verifier = createCodeVerifier();
  const authorize = new URL(`${l.authUrl}/oauth/authorize`);
  const params = {
    client_id: l.clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: l.scope,
    code_challenge: codeChallenge(verifier),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
  const page = await (await request(authorize)).body.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(page)![1]!;
  const submit = await request(`${l.authUrl}/oauth/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request_id: requestId, email: l.email, password: l.password, decision: "approve" }).toString(),
  });
  await submit.body.dump();
  const code = new URL(String(submit.headers.location)).searchParams.get("code")!;
  const endpoint = { url: `${l.authUrl}/oauth/token`, transport: new Transport(), retry: DEFAULT_RETRY, userAgent: "test" };
  try {
    const auth = clientSecretPost(l.clientId, l.clientSecret);
    return processTokenResponse(await authorizationCodeGrant(endpoint, auth, { code, redirectUri, codeVerifier: verifier })).refreshToken!;
  } finally {
    await endpoint.transport.close();
  }
}

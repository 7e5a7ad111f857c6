// How a client proves its identity on a token request, as a small strategy applied to the form
// body. Secrets only ever go in the body: never in a query string or a header we might log.

export type ClientAuth = (form: URLSearchParams) => void;

/** Confidential clients (every Scoped OAuth app): id and secret in the form body. */
export function clientSecretPost(clientId: string, clientSecret: string): ClientAuth {
  return (form) => {
    form.set("client_id", clientId);
    form.set("client_secret", clientSecret);
  };
}

/** Public clients (Classic User OAuth without a secret): the id only; PKCE proves the rest. */
export function none(clientId: string): ClientAuth {
  return (form) => form.set("client_id", clientId);
}

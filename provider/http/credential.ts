// What the HTTP client asks for before each call, and how it compares what was granted with what a
// call needs. The auth layer implements the source (auth/token-source.ts); the client only uses it,
// so http depends on no auth module.

export interface AccessGrant {
  readonly authorization: string;
  /** Granted scopes; undefined when there is nothing to check (API keys, replies without `scope`). */
  readonly scopes?: readonly string[];
}

export interface TokenSource {
  /** Whether `invalidate` + `get` can yield a different credential (false for API keys). */
  readonly renewable: boolean;
  get(): Promise<AccessGrant>;
  /** Forgets `grant` if it is still the current one (after a 401), so the next `get` fetches anew. */
  invalidate(grant: AccessGrant): void;
}

/**
 * The required scopes the grant does not cover (PagerDuty grants less than asked without an
 * error). Classic user tokens carry `read` / `write` instead of per-resource scopes: `write` covers
 * everything, `read` every `*.read`.
 */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return required.filter((s) => !have.has(s) && !have.has("write") && !(have.has("read") && s.endsWith(".read")));
}

// Every secret the emulator handed out since it started, in clear, for secret scans
// (`GET /_emulator/secrets`): the state keeps tokens only as hashes, and a routing key goes with its
// integration, yet a client may have written either where it must not (a state file, a log). Kept
// in memory only: never persisted, kept across a reset (a stack may still hold what came before).
export type IssuedKind = "access_token" | "refresh_token" | "routing_key" | "client_secret";

/** Enough for any test run; past it nothing more is recorded, and the listing says so. */
const MAX_ISSUED = 100_000;

export class IssuedSecrets {
  private readonly byValue = new Map<string, IssuedKind>();
  truncated = false;

  record(kind: IssuedKind, value: string): void {
    if (this.byValue.size >= MAX_ISSUED) this.truncated = true;
    else this.byValue.set(value, kind);
  }

  list(): { kind: IssuedKind; value: string }[] {
    return [...this.byValue].map(([value, kind]) => ({ kind, value }));
  }
}

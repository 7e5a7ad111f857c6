// How a bin ends: the exit codes every bin shares, and the failure that carries its own code.
import { messageOf } from "../errors";

/** 0 done, 1 failed (a PagerDuty, pulumi or settings error, or a bug), 2 a wrong command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A failure that ends the bin with its own exit code (a wrong command line, pagerduty-login's 3 to 9). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExitError";
  }
}

/** `e` as the bin's failure: its own exit code when it has one, else `code` (e.g. a routing run's 3, "not run"). */
export const exitErrorOf = (e: unknown, code: number): ExitError => (e instanceof ExitError ? e : new ExitError(messageOf(e), code, { cause: e }));

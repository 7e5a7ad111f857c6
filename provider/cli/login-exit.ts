// How pagerduty-login ends: one exit code per way the flow can fail (listed in --help, for scripts
// that retry a timeout but not a denial), and the LoginError that carries it.
import { EXIT as CLI_EXIT, ExitError } from "./exit";

export const EXIT = {
  ...CLI_EXIT,
  denied: 3,
  state: 4,
  timeout: 5,
  codeRefused: 6,
  scope: 7,
  idToken: 8,
  accountMismatch: 9,
} as const;

export class LoginError extends ExitError {
  constructor(message: string, exitCode: number, options?: { cause?: unknown }) {
    super(message, exitCode, options);
    this.name = "LoginError";
  }
}

// What recovery tells the user, apart from the control flow that decides when: each message says
// what happened, what was (not) done about it, and the way out.
import { messageOf } from "../errors";

/** The command that recovers what the provider cannot prove on its own. */
export const RECOVER_COMMAND = "npx --no-install pagerduty-recover";

/** Why an object found by a search was adopted: the journal kept its id. */
export const JOURNAL_KEPT_ID =
  "an earlier deployment was interrupted after PagerDuty made it: this machine's journal recorded its id, the stack's state never did";

/** Why an object found by a search was adopted: the journal kept the request only. */
export const JOURNAL_KEPT_REQUEST =
  "an earlier deployment was interrupted after sending its create (this machine's journal recorded the request, no reply was recorded), " +
  "and it is the one object made since then by the same credential that no resource of the stack holds";

export const lostReplyStory = (reason: string): string => `the reply to its create was lost: ${reason}`;

export const adoptedInstead = (what: string, id: string, story: string): string => `${what}: adopted ${id} instead of creating a second one: ${story}`;

export const adoptedFromState = (what: string, id: string): string =>
  adoptedInstead(
    what,
    id,
    "an earlier deployment of this stack was interrupted while creating it (its create is still pending in the stack's state), " +
      `and ${id} is the one matching object no resource of the stack holds`,
  );

export const NO_STACK_NAME = "the program does not name its stack (it was built with an older pulumi-pagerduty-dynamic)";

export const holderUnknown = (what: string, id: string, cause: unknown): string =>
  `${what}: ${id} may be the object an interrupted create of this resource made, but whether another resource of the stack ` +
  `holds it cannot be checked (${messageOf(cause)}), so it is not adopted. Run \`${RECOVER_COMMAND}\` in the project directory, then \`pulumi up\``;

// Only the read failed: it says what was skipped, not that a run was interrupted.
export const stateUnreadable = (cause: unknown): string =>
  `creates go on without checking the stack's state for creates an earlier run left pending, as reading it failed (${messageOf(cause)}). ` +
  "This is no sign that a run was interrupted; it matters only if an earlier `pulumi up` of this stack was cut off (killed, runner lost) " +
  `on another machine, whose creates this machine's journal does not know: then run \`${RECOVER_COMMAND}\` before \`pulumi up\`, so that ` +
  "what that run made is recorded instead of made again";

export const severalInState = (what: string, ids: readonly string[]): string =>
  `${what}: an earlier deployment of this stack was interrupted while creating it, and ${ids.length} objects that no resource of the stack ` +
  `holds match it (${ids.join(", ")}); none is adopted because it is not certain which one it made. Delete the extra ones in PagerDuty ` +
  `(keep one), then run \`pulumi up\` again, or run \`${RECOVER_COMMAND}\` in the project directory to see them`;

export const severalFound = (what: string, ids: readonly string[]): string =>
  `${what}: an earlier create of this resource may have made it, and ${ids.length} objects match (${ids.join(", ")}); ` +
  "none is adopted because it is not certain which one. Delete the extra ones in PagerDuty (keep one), then run `pulumi up` again, " +
  `or run \`${RECOVER_COMMAND}\` in the project directory to see the candidates of every interrupted create`;

export const journalUnwritable = (dir: string, cause: unknown): string =>
  `cannot write the intent journal in ${dir} (${messageOf(cause)}): creates go on, but if this deployment is interrupted, ` +
  `run \`${RECOVER_COMMAND}\` before the next \`pulumi up\` (set PAGERDUTY_JOURNAL_DIR to a writable directory)`;

/** A lost reply, and the search for what it made failed too. */
export const searchFailed = (what: string, reason: string, cause: unknown, journaled: boolean): string =>
  `creating ${what} failed: ${reason}, so PagerDuty may or may not have made it, and looking for it failed too (${messageOf(cause)}). ` +
  (journaled ? "Run `pulumi up` again: it looks for the object first and adopts it if it exists" : "Check PagerDuty for it before running `pulumi up` again");

/** A lost reply, nothing was made, and the create sent once more failed: `again` when its outcome is unknown too. */
export const resendFailed = (what: string, reason: string, failure: string, again: boolean, journaled: boolean): string =>
  `creating ${what} failed: ${reason}; it was not made (no matching object exists), so the create was sent once more and that failed too: ` +
  `${failure}. ` +
  (!again
    ? "Nothing was created."
    : journaled
      ? "That second create may have been carried out; `pulumi up` looks for it before creating again."
      : "That second create may have been carried out; check PagerDuty before running `pulumi up` again.");

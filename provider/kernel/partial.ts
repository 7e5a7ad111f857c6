// A create that fails after the remote object exists must not lose the object: the dynamic-provider
// host turns an error carrying `id` and `properties` into ErrorResourceInitFailed, and the engine
// records the object in state (marked as failed to initialize) so the next `up` can update it.
import { PagerDutyError, messageOf } from "../errors";

export class PartialCreateError extends PagerDutyError {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];
  constructor(id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = messageOf(cause);
    super("ERR_API", `created ${id} but a later step failed; it is kept in state and the next update finishes it: ${reason}`, { cause });
    this.name = "PartialCreateError";
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}

/** Runs the follow-up steps of a create; on failure rethrows as PartialCreateError for `id`. */
export async function finishCreate<T extends Record<string, unknown>>(id: string, created: T, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (e) {
    throw new PartialCreateError(id, created, e);
  }
}

// 404 means the object is gone. What that makes of each operation: a read drops it from the state,
// a delete is done already, an update fails saying how to reconcile, a lookup gets undefined.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isNotFound, PagerDutyError } from "../errors";

/** `get` with 404 meaning "gone": undefined. */
export async function orGone<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** A read whose 404 means the object is gone: an empty id makes refresh drop it from the state. */
export async function readOrGone(read: () => Promise<dynamic.ReadResult>): Promise<dynamic.ReadResult> {
  return (await orGone(read)) ?? { id: "", props: {} };
}

/** A delete where 404 means someone deleted the object already: done, not an error. */
export async function deleteOrGone(del: () => Promise<unknown>): Promise<void> {
  await orGone(del);
}

/**
 * An update where 404 means the object (or the service it belongs to) was deleted outside Pulumi:
 * a bare 404 would not say what to do, so the error names the object and the way out.
 */
export async function updateOrGone<T>(what: string, update: () => Promise<T>): Promise<T> {
  try {
    return await update();
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw new PagerDutyError(
      "ERR_NOT_FOUND",
      `${what} is gone: it was deleted outside Pulumi (${(e as Error).message}). ` +
        `Run "pulumi refresh" to reconcile the state with PagerDuty; the next "pulumi up" then creates it again.`,
      { cause: e },
    );
  }
}

/** The parent service a child object's state records (its Pulumi id is the child's own id). */
export function parentService(props: Record<string, unknown> | undefined, what: string): string {
  if (typeof props?.service === "string" && props.service) return props.service;
  throw new PagerDutyError("ERR_INPUT", `${what} has no "service" in its state, so it cannot be located`);
}

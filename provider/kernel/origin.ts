// The provenance key of a resource whose create makes a remote object (its definition's `creates`):
// a hash of the URN the engine gives the resource, which names project, stack, type, parents' types
// and name. A create receives only inputs, never the URN; with this key among them (`__origin`) it
// can tell that it is the retry of an interrupted create of the same declared resource
// (operations/recovery.ts). Both doors make it with this one function: a TypeScript program from the
// URN it computes before registering (sdk/origin.ts), the plugin from the URN the engine names in
// Check. It holds no user data and no secret, and diff ignores it (keys starting with "__").
import { createHash } from "node:crypto";

/** The provenance key of the resource `urn` names: 32 hex digits. */
export const originKey = (urn: string): string => createHash("sha256").update(urn).digest("hex").slice(0, 32);

// Which kinds create remote objects, and the type the state records for each: plain data the stack's
// state and recovery read without loading the resources (the registry checks it against the
// definitions' \`origin\`).

/** Kinds whose create makes a remote object (journaled, recovered after an interruption). */
export type CreatedKind = "Service" | "ServiceIntegration" | "ServiceEventRule";

export const CREATED_KINDS: readonly CreatedKind[] = ["Service", "ServiceIntegration", "ServiceEventRule"];

/** The type the state records for a resource of \`kind\`. */
export const recordedType = (kind: string) => `pulumi-nodejs:dynamic/pagerduty:${kind}`;

/** The created kinds by the type the state records for them. */
export const RECORDED_KINDS: Readonly<Record<string, CreatedKind>> = Object.fromEntries(CREATED_KINDS.map((k) => [recordedType(k), k]));

/** The created kind a state's resource type names, if it is one. */
export const createdKindOf = (type: string): CreatedKind | undefined => (Object.hasOwn(RECORDED_KINDS, type) ? RECORDED_KINDS[type] : undefined);

// The type the stack's state records for a resource of this package: the SDK's classes pass the
// module "pagerduty" and their kind to `dynamic.Resource`. Plain text, so the stack's state and
// recovery tell this package's resources apart without loading them (the registry says which kinds
// create objects: their definitions' `origin`).

const PREFIX = "pulumi-nodejs:dynamic/pagerduty:";

/** The type the state records for a resource of `kind`. */
export const recordedType = (kind: string) => PREFIX + kind;

/** The kind a state's resource type names, if it is one of this package's. */
export const recordedKind = (type: string): string | undefined => (type.startsWith(PREFIX) ? type.slice(PREFIX.length) : undefined);

// The types the state records for this package's resources, through either door: the SDK's classes
// pass the module "pagerduty" and their kind to `dynamic.Resource` (`pulumi-nodejs:dynamic/pagerduty:Service`),
// the plugin serves the package "pagerduty-dynamic" (`pagerduty-dynamic:index:Service`). Plain text,
// so the stack's state and recovery tell this package's resources apart without loading them (the
// registry says which kinds create objects: their definitions' `creates`). Each door reads its
// settings under its own config namespace (settings.ts, NAMESPACES): `pagerduty:*` for the dynamic
// providers, the package's name for the plugin (`pagerduty:*` there belongs to @pulumi/pagerduty).
import { type Door, NAMESPACES } from "../settings";

export type { Door };

/** The package's name: its type tokens' and config keys' namespace, and its plugin's (`pulumi-resource-pagerduty-dynamic`). */
export const PACKAGE_NAME = NAMESPACES.package;

/** The one module of the package's type tokens. */
export const PACKAGE_MODULE = "index";

interface DoorTerms {
  /** What the state's type of a resource starts with. */
  typePrefix: string;
}

export const DOORS: Readonly<Record<Door, DoorTerms>> = {
  dynamic: { typePrefix: "pulumi-nodejs:dynamic/pagerduty:" },
  package: { typePrefix: `${PACKAGE_NAME}:${PACKAGE_MODULE}:` },
};

/** The type the state records for a resource of `kind` (the dynamic providers' unless `door` says otherwise). */
export const recordedType = (kind: string, door: Door = "dynamic") => DOORS[door].typePrefix + kind;

/** The door a state's resource type came through, if it is one of this package's. */
export const doorOfType = (type: string): Door | undefined => (Object.keys(DOORS) as Door[]).find((d) => type.startsWith(DOORS[d].typePrefix));

/** The kind a state's resource type names, if it is one of this package's (either door). */
export function recordedKind(type: string): string | undefined {
  const door = doorOfType(type);
  return door ? type.slice(DOORS[door].typePrefix.length) : undefined;
}

/**
 * The object's own id from the id the state records: the package door keeps the id a resource was
 * imported with, `<service id>/<id>` for an object under its service (plugin/import-ids.ts).
 * PagerDuty's ids hold no "/".
 */
export const ownId = (id: string) => id.slice(id.lastIndexOf("/") + 1);

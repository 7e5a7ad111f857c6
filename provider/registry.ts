// Every resource kind, by name, and every lookup, by function: the one lists the doors (door.ts),
// the generators (scripts/generate-sdk.ts: the SDK's classes, provider modules, exports and
// lookups; plugin/schema.ts: the package's resources and functions), recovery, the CLIs and the
// tests read. A kind or a lookup is one line here; which kinds create remote objects is read off
// their definitions (`creates`). Each module loads on first use, so a provider process loads the
// kinds its stack has and no others (a tenth of a small stack's first answer loaded them all); the
// lists of every kind and lookup (`definitions()`, ...) load them all, for the generators and CLIs.
import type { LookupDefinition, ResourceDefinition } from "./kernel/define";
import type { Lookup } from "./operations/lookup";
import { DOORS, type Door, recordedType } from "./kernel/recorded-type";
import type { AnyResource } from "./operations/resource";

/** An object whose properties are the loaders' results, each loaded when first read (then kept). */
function onFirstUse<T extends Record<string, () => unknown>>(loaders: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const out = {};
  for (const [name, load] of Object.entries(loaders)) {
    let value: unknown;
    Object.defineProperty(out, name, { enumerable: true, get: () => (value ??= load()) });
  }
  return out as { readonly [K in keyof T]: ReturnType<T[K]> };
}

const KINDS = onFirstUse({
  Service: () => (require("./resources/service") as typeof import("./resources/service")).resource,
  ServiceIntegration: () => (require("./resources/service-integration") as typeof import("./resources/service-integration")).resource,
  ServiceEventRule: () => (require("./resources/service-event-rule") as typeof import("./resources/service-event-rule")).resource,
  ServiceEventRulesConversion: () =>
    (require("./resources/service-event-rules-conversion") as typeof import("./resources/service-event-rules-conversion")).resource,
  ServiceOrchestration: () => (require("./resources/service-orchestration") as typeof import("./resources/service-orchestration")).resource,
  ServiceOrchestrationCacheVariable: () =>
    (require("./resources/service-orchestration-cache-variable") as typeof import("./resources/service-orchestration-cache-variable")).resource,
  ServiceCustomField: () => (require("./resources/service-custom-field") as typeof import("./resources/service-custom-field")).resource,
  ServiceCustomFieldValues: () => (require("./resources/service-custom-field-values") as typeof import("./resources/service-custom-field-values")).resource,
  ServiceEnablement: () => (require("./resources/service-enablement") as typeof import("./resources/service-enablement")).resource,
  AlertGroupingSetting: () => (require("./resources/alert-grouping-setting") as typeof import("./resources/alert-grouping-setting")).resource,
  ServiceDependency: () => (require("./resources/service-dependency") as typeof import("./resources/service-dependency")).resource,
  MaintenanceWindow: () => (require("./resources/maintenance-window") as typeof import("./resources/maintenance-window")).resource,
});

export type ResourceKind = keyof typeof KINDS;

/** Erased: each module's code is typed by its definition, the kinds together are not. Reading a kind loads its module. */
export const RESOURCES: Readonly<Record<ResourceKind, AnyResource>> = KINDS;

export const isResourceKind = (kind: string): kind is ResourceKind => Object.hasOwn(RESOURCES, kind);

/** Kinds whose create makes a remote object (journaled, recovered after an interruption): `creates: true`. */
export type CreatingKind = { [K in ResourceKind]: (typeof KINDS)[K]["definition"]["creates"] extends true ? K : never }[ResourceKind];

/** Every lookup, by the package's function (its definition's `functionName`), in the order the SDK, the package schema and the reference list them. */
const LOOKUP_MODULES = onFirstUse({
  getService: () => (require("./lookups/service") as typeof import("./lookups/service")).lookup,
  getEscalationPolicy: () => (require("./lookups/escalation-policy") as typeof import("./lookups/escalation-policy")).lookup,
  getVendor: () => (require("./lookups/vendor") as typeof import("./lookups/vendor")).lookup,
  getPriority: () => (require("./lookups/priority") as typeof import("./lookups/priority")).lookup,
  getBusinessService: () => (require("./lookups/business-service") as typeof import("./lookups/business-service")).lookup,
  getAlertGroupingSetting: () => (require("./lookups/alert-grouping-setting") as typeof import("./lookups/alert-grouping-setting")).lookup,
  getServiceIntegration: () => (require("./lookups/service-integration") as typeof import("./lookups/service-integration")).lookup,
  getServiceEventRules: () => (require("./lookups/service-event-rules") as typeof import("./lookups/service-event-rules")).lookup,
  getServiceEnablements: () => (require("./lookups/service-enablements") as typeof import("./lookups/service-enablements")).lookup,
  getServiceCustomFieldValues: () => (require("./lookups/service-custom-field-values") as typeof import("./lookups/service-custom-field-values")).lookup,
  getServiceAuditRecords: () => (require("./lookups/service-audit-records") as typeof import("./lookups/service-audit-records")).lookup,
});

/** The lookup behind a function of the package (`getService`), if there is one: its module alone loads. */
export const lookupByFunction = (name: string): Lookup | undefined =>
  Object.hasOwn(LOOKUP_MODULES, name) ? (LOOKUP_MODULES[name as keyof typeof LOOKUP_MODULES] as Lookup) : undefined;

/** A Lookup resource's query of a package's function: `getService` → `service` (registry.test.ts holds every definition to it). */
const queryOf = (functionName: string) => functionName.charAt(3).toLowerCase() + functionName.slice(4);

/** The lookup behind a Lookup resource's query (`service`), if there is one: its module alone loads. */
export const lookupByQuery = (query: string): Lookup | undefined => {
  const functionName = `get${query.charAt(0).toUpperCase()}${query.slice(1)}`;
  return queryOf(functionName) === query ? lookupByFunction(functionName) : undefined;
};

/** Every lookup's query, in the registry's order, without loading a module. */
export const lookupQueries = (): readonly string[] => Object.keys(LOOKUP_MODULES).map(queryOf);

/** A list made on first use. */
const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

/** Every kind's definition (every module loads). */
export const definitions = once((): readonly ResourceDefinition[] => Object.values(RESOURCES).map((r) => r.definition));

/** The kinds whose create makes a remote object (every module loads). */
export const creatingKinds = once((): readonly CreatingKind[] =>
  (Object.keys(KINDS) as ResourceKind[]).filter((k): k is CreatingKind => KINDS[k].definition.creates),
);

/** The same kinds by each type the state records for them, through either door (a dynamic provider, the package's plugin). */
const creatingByType = once(
  (): ReadonlyMap<string, CreatingKind> =>
    new Map((Object.keys(DOORS) as Door[]).flatMap((door) => creatingKinds().map((k) => [recordedType(k, door), k] as const))),
);

/** Which of the creating kinds a resource the state records as `type` is (undefined: none of them). */
export const creatingKindOf = (type: string): CreatingKind | undefined => creatingByType().get(type);

/** Every lookup (every module loads). */
export const lookups = once((): readonly Lookup[] => Object.values(LOOKUP_MODULES) as Lookup[]);

export const lookupDefinitions = once((): readonly LookupDefinition[] => lookups().map((l) => l.definition));

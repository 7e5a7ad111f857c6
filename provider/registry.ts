// Every resource kind, by name, and every lookup: the one lists the provider entry point, the
// plugin, the generators (scripts/generate-sdk.ts: the SDK's classes, provider modules, exports and
// lookups; plugin/schema.ts: the package's resources and functions), recovery, the CLIs and the
// tests read. A kind or a lookup is one import and one line here; which kinds create remote objects
// is read off their definitions (`origin`).
import { resource as service } from "./resources/service";
import { resource as alertGroupingSetting } from "./resources/alert-grouping-setting";
import { resource as serviceDependency } from "./resources/service-dependency";
import { resource as customField } from "./resources/service-custom-field";
import { resource as customFieldValues } from "./resources/service-custom-field-values";
import { resource as enablement } from "./resources/service-enablement";
import { resource as rule } from "./resources/service-event-rule";
import { resource as integration } from "./resources/service-integration";
import { resource as conversion } from "./resources/service-event-rules-conversion";
import { resource as orchestration } from "./resources/service-orchestration";
import { resource as cacheVariable } from "./resources/service-orchestration-cache-variable";
import { lookup as getService } from "./lookups/service";
import { lookup as getEscalationPolicy } from "./lookups/escalation-policy";
import { lookup as getVendor } from "./lookups/vendor";
import { lookup as getPriority } from "./lookups/priority";
import { lookup as getBusinessService } from "./lookups/business-service";
import { lookup as getAlertGroupingSetting } from "./lookups/alert-grouping-setting";
import { lookup as getServiceIntegration } from "./lookups/service-integration";
import { lookup as getServiceEventRules } from "./lookups/service-event-rules";
import { lookup as getServiceEnablements } from "./lookups/service-enablements";
import { lookup as getServiceCustomFieldValues } from "./lookups/service-custom-field-values";
import { lookup as getServiceAuditRecords } from "./lookups/service-audit-records";
import type { LookupDefinition, ResourceDefinition } from "./kernel/define";
import type { Lookup } from "./engine/lookup";
import { DOORS, type Door, recordedType } from "./kernel/recorded-type";
import type { AnyResource } from "./engine/resource";

const KINDS = {
  Service: service,
  ServiceIntegration: integration,
  ServiceEventRule: rule,
  ServiceEventRulesConversion: conversion,
  ServiceOrchestration: orchestration,
  ServiceOrchestrationCacheVariable: cacheVariable,
  ServiceCustomField: customField,
  ServiceCustomFieldValues: customFieldValues,
  ServiceEnablement: enablement,
  AlertGroupingSetting: alertGroupingSetting,
  ServiceDependency: serviceDependency,
} as const;

export type ResourceKind = keyof typeof KINDS;

/** Erased: each module's code is typed by its definition, the kinds together are not. */
export const RESOURCES: Readonly<Record<ResourceKind, AnyResource>> = KINDS;

export const DEFINITIONS: readonly ResourceDefinition[] = Object.values(RESOURCES).map((r) => r.definition);

/** Kinds whose create makes a remote object (journaled, recovered after an interruption): `origin: true`. */
export type CreatedKind = { [K in ResourceKind]: (typeof KINDS)[K]["definition"]["origin"] extends true ? K : never }[ResourceKind];

export const CREATED_KINDS: readonly CreatedKind[] = (Object.keys(KINDS) as ResourceKind[]).filter((k): k is CreatedKind => KINDS[k].definition.origin);

/** The created kinds by the type the state records for them, through either door (a dynamic provider, the package's plugin). */
export const RECORDED_KINDS: Readonly<Record<string, CreatedKind>> = Object.fromEntries(
  (Object.keys(DOORS) as Door[]).flatMap((door) => CREATED_KINDS.map((k) => [recordedType(k, door), k])),
);

export const isResourceKind = (kind: string): kind is ResourceKind => Object.hasOwn(RESOURCES, kind);

/** Every lookup, in the order the SDK, the package schema and the reference list them. */
export const LOOKUPS: readonly Lookup[] = [
  getService,
  getEscalationPolicy,
  getVendor,
  getPriority,
  getBusinessService,
  getAlertGroupingSetting,
  getServiceIntegration,
  getServiceEventRules,
  getServiceEnablements,
  getServiceCustomFieldValues,
  getServiceAuditRecords,
];

export const LOOKUP_DEFINITIONS: readonly LookupDefinition[] = LOOKUPS.map((l) => l.definition);

/** The lookup behind a function of the package (`getService`), if there is one. */
export const lookupByFunction = (name: string): Lookup | undefined => LOOKUPS.find((l) => l.definition.functionName === name);

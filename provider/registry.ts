// Every resource kind, by name: the one list the provider entry point, the SDK generator
// (scripts/generate-sdk.ts: the SDK's classes, provider modules and exports), recovery, the CLIs and
// the tests read. A kind is one import and one line here; which kinds create remote objects is read
// off their definitions (`origin`).
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
import type { ResourceDefinition } from "./kernel/define";
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

// Every resource kind, by name: the one list the provider entry point, the SDK generator, recovery
// and the CLIs read. Which kinds create remote objects is read off their definitions (`origin`).
import { resource as service } from "./resources/service";
import { resource as customFieldValues } from "./resources/service-custom-field-values";
import { resource as enablement } from "./resources/service-enablement";
import { resource as rule } from "./resources/service-event-rule";
import { resource as integration } from "./resources/service-integration";
import { resource as conversion } from "./resources/service-event-rules-conversion";
import type { ResourceDefinition } from "./kernel/define";
import type { AnyResource } from "./engine/resource";

const KINDS = {
  Service: service,
  ServiceIntegration: integration,
  ServiceEventRule: rule,
  ServiceEventRulesConversion: conversion,
  ServiceCustomFieldValues: customFieldValues,
  ServiceEnablement: enablement,
} as const;

export type ResourceKind = keyof typeof KINDS;

/** Erased: each module's code is typed by its definition, the kinds together are not. */
export const RESOURCES: Readonly<Record<ResourceKind, AnyResource>> = KINDS;

export const DEFINITIONS: readonly ResourceDefinition[] = Object.values(RESOURCES).map((r) => r.definition);

export { CREATED_KINDS, createdKindOf, RECORDED_KINDS, recordedType, type CreatedKind } from "./kernel/created-kinds";

export const isResourceKind = (kind: string): kind is ResourceKind => Object.hasOwn(RESOURCES, kind);

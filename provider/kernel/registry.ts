// Every resource kind, by name: the one list the provider entry point, the SDK generator, recovery
// and the CLIs read. Which kinds create remote objects is read off their definitions (`origin`).
import { resource as service } from "../resources/service";
import { resource as customFieldValues } from "../resources/service-custom-field-values";
import { resource as enablement } from "../resources/service-enablement";
import { resource as rule } from "../resources/service-event-rule";
import { resource as integration } from "../resources/service-integration";
import { resource as conversion } from "../resources/service-event-rules-conversion";
import type { ResourceDefinition } from "./define";
import type { Resource } from "./factory";

export const RESOURCES = { Service: service, ServiceIntegration: integration, ServiceEventRule: rule, ServiceEventRulesConversion: conversion, ServiceCustomFieldValues: customFieldValues, ServiceEnablement: enablement } as const satisfies Record<string, Resource>;

export type ResourceKind = keyof typeof RESOURCES;

export const DEFINITIONS: readonly ResourceDefinition[] = Object.values(RESOURCES).map((r) => r.definition);

/** Kinds whose create makes a remote object (journaled, recovered after an interruption). */
export type CreatedKind = "Service" | "ServiceIntegration" | "ServiceEventRule";

export const CREATED_KINDS = DEFINITIONS.filter((d) => d.origin).map((d) => d.kind) as CreatedKind[];

/** The type the state records for a resource of `kind`. */
export const recordedType = (kind: string) => `pulumi-nodejs:dynamic/pagerduty:${kind}`;

/** The created kinds by the type the state records for them. */
export const RECORDED_KINDS: Readonly<Record<string, CreatedKind>> = Object.fromEntries(CREATED_KINDS.map((k) => [recordedType(k), k]));

/** The created kind a state's resource type names, if it is one. */
export const createdKindOf = (type: string): CreatedKind | undefined =>
  Object.prototype.hasOwnProperty.call(RECORDED_KINDS, type) ? RECORDED_KINDS[type] : undefined;

export const isResourceKind = (kind: string): kind is ResourceKind => Object.prototype.hasOwnProperty.call(RESOURCES, kind);


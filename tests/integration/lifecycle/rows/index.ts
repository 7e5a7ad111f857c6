// The lifecycle table: one row per registered kind, by kind (the compiler holds it to the registry's
// kinds; tests/unit/provider/registry.test.ts to a file per kind and a reason for every step left out).
import type { ResourceKind } from "../../../../provider/registry";
import type { Row } from "../row";
import { row as alertGroupingSetting } from "./alert-grouping-setting";
import { row as maintenanceWindow } from "./maintenance-window";
import { row as service } from "./service";
import { row as customField } from "./service-custom-field";
import { row as customFieldValues } from "./service-custom-field-values";
import { row as dependency } from "./service-dependency";
import { row as enablement } from "./service-enablement";
import { row as rule } from "./service-event-rule";
import { row as conversion } from "./service-event-rules-conversion";
import { row as integration } from "./service-integration";
import { row as orchestration } from "./service-orchestration";
import { row as cacheVariable } from "./service-orchestration-cache-variable";

export const ROWS: Readonly<Record<ResourceKind, Row>> = {
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
  ServiceDependency: dependency,
  MaintenanceWindow: maintenanceWindow,
};

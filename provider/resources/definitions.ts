// Every resource's definition and the lookup result schemas, for scripts/generate-sdk.ts.
import type { ResourceDefinition } from "./define";
import { definition as service } from "./service";
import { definition as customFieldValues } from "./service-custom-field-values";
import { definition as enablement } from "./service-enablement";
import { definition as rule } from "./service-event-rule";
import { definition as integration } from "./service-integration";
import { definition as conversion } from "./service-event-rules-conversion";

export const DEFINITIONS: readonly ResourceDefinition[] = [service, integration, rule, conversion, customFieldValues, enablement];

export { LOOKUP_RESULTS } from "./lookup";

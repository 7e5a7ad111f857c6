// Public API for Pulumi programs. Nothing here does HTTP: the provider does, inside Pulumi's
// dynamic-provider process.
export { Service, ServiceArgs } from "./service";
export { ServiceIntegration, ServiceIntegrationArgs, EmailMatchPredicate } from "./service-integration";
export { ServiceEventRule, ServiceEventRuleArgs } from "./service-event-rule";
export { ServiceEventRulesConversion, ServiceEventRulesConversionArgs } from "./service-event-rules-conversion";
export { ServiceCustomFieldValues, ServiceCustomFieldValuesArgs, CustomFieldValue } from "./service-custom-field-values";
export { ServiceEnablement, ServiceEnablementArgs } from "./service-enablement";
export * from "./lookups";

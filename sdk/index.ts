// Public API for Pulumi programs. Nothing here does HTTP: the provider does, inside Pulumi's
// dynamic-provider process. The resource modules are generated from the resource definitions
// (npm run generate); each exports its class, its Args and the types of its nested fields.
export * from "./service";
export * from "./service-integration";
export * from "./service-event-rule";
export * from "./service-event-rules-conversion";
export * from "./service-custom-field-values";
export * from "./service-enablement";
export * from "./lookups";
export * from "./account";
export * from "./lookup-results";

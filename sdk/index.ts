// Public API for Pulumi programs. Nothing here does HTTP: the provider does, inside Pulumi's
// dynamic-provider process. The resource modules are generated from the resource definitions
// (npm run generate); each exports its class, its Args and the types of its nested fields, and
// resources.ts (generated from the registry) exports them all. The get* lookups (lookups.ts) and
// their result types (lookup-results.ts) are generated from the lookup definitions.
export * from "./resources";
export * from "./lookups";
export * from "./account";
export * from "./lookup-results";

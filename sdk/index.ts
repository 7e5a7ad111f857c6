// Public API for Pulumi programs. Nothing here does HTTP: the provider does, inside Pulumi's
// dynamic-provider process.
export { Service, ServiceArgs } from "./service";

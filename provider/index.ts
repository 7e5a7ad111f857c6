// Entry point the serialized providers call into (`require("pulumi-pagerduty-dynamic/dist/provider")`,
// sdk/providers/entry.ts; older `__provider`s name it too): the dynamic providers' door
// (dynamic-door.ts) as the bundle holds it (bundled.ts), so whichever path a process takes to it,
// there is one door, compiled from the code cache.
import { fromBundle } from "./bundled";

const door = fromBundle<typeof import("./dynamic-door")>("dynamic", () => require("./dynamic-door"));

export const providerOf: typeof door.providerOf = door.providerOf;
/** @deprecated `providerOf` (see dynamic-door.ts: earlier versions' `__provider`s call it). */
export const resource: typeof door.resource = door.resource;
export const configure: typeof door.configure = door.configure;
export const deployment: typeof door.deployment = door.deployment;

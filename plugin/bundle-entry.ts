// The bundle's entry: `npm run build` bundles what this reaches into one file, dist/bundle/provider.js
// (esbuild: `npm run bundle`), which each door's process loads with a code cache
// (provider/bundled.ts). Each door's module runs when it is first asked for, so the dynamic
// providers' process runs only theirs and the plugin only its own; what they share is one copy in
// one compiled file.
export const doors = {
  /** The dynamic providers' door: what the SDK's provider objects call, through provider/index.ts. */
  get dynamic(): typeof import("../provider/dynamic-door") {
    return require("../provider/dynamic-door");
  },
  /** The package's provider: what the plugin's server calls. */
  get plugin(): typeof import("./provider") {
    return require("./provider");
  },
  /** The typed errors whose messages say all, as the bundle's code throws them. */
  get errors(): typeof import("../provider/errors") {
    return require("../provider/errors");
  },
};

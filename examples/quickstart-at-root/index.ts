// The program of the repository root's Pulumi.yaml: examples/quickstart, run from a clone of this
// repository after `npm install` and `npm run build`. The quickstart is an npm workspace that
// depends on this package by path (`file:../..`), so `npm install` links it into the root's
// node_modules and the quickstart's imports resolve there, no copy installed into the example. For
// type checking, this directory's tsconfig.json maps the package name to the sources.

// The quickstart's exports are the stack outputs.
export = require("../quickstart/index");

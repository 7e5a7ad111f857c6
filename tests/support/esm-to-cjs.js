// jose 6 is published as ES modules only. Node.js 22.12+ require()s them natively, but jest's module
// runtime does so only under --experimental-vm-modules, so jest gets them as CommonJS from esbuild
// (already the bundler of dist/bundle): one transform, cached by jest like ts-jest's.
const esbuild = require("esbuild");

module.exports = {
  process(source, filename) {
    const { code, map } = esbuild.transformSync(source, { format: "cjs", loader: "js", target: "node22", sourcefile: filename, sourcemap: "external" });
    return { code, map };
  },
};

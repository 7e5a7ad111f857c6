// The repository root, found from this file's directory, so it holds for the sources (ts-jest) and
// for their copies compiled under .work/ (the benchmarks, the generator).
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "scripts/setup-pulumi.sh"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
})();

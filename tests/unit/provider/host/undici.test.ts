// host/undici.ts requires undici's internal files: the version they were read from is pinned.
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../../../../scripts/repo-root";

const _dynamicHost = () => fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");

test("undici: the package is pinned to the exact version whose internal files host/undici.ts requires", () => {
  const declared = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies.undici;
  expect(declared).toMatch(/^\d+\.\d+\.\d+$/);
  expect(JSON.parse(fs.readFileSync(require.resolve("undici/package.json"), "utf8")).version).toBe(declared);
});

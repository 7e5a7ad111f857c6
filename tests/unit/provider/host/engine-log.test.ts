// host/engine-log.ts relies on the dynamic-provider host's argv: this fails when an upgrade changes it.
import * as fs from "node:fs";

const dynamicHost = () => fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");

test("engine-log: the dynamic-provider host still takes the engine address as its first argument", () => {
  const source = dynamicHost();
  expect(source).toMatch(/main\(process\.argv\.slice\(2\)\)/);
  expect(source).toMatch(/the address of the RPC endpoint for the engine/);
});

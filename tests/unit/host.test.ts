// provider/host/ leans on other projects' internals; each test here reads the installed version of
// what it relies on and fails when that changes, so an upgrade is caught by the suite, not by users.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { hostLine } from "../../provider/host/error-report";
import { pulumiCommand } from "../../provider/host/pulumi-cli";
import { ROOT } from "../../scripts/repo-root";

const dynamicHost = () => fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");

test("error-report: the dynamic-provider host still logs errors with the line hostLine builds", () => {
  const logged = dynamicHost().match(/console\.error\(`\$\{e\}: \$\{e\.stack\}`\)/g) ?? [];
  // check, diff, read and delete log it (create and update answer with the error instead).
  expect(logged.length).toBeGreaterThanOrEqual(4);
  const e = new Error("x");
  expect(hostLine(e)).toBe(`${e}: ${e.stack}`);
});

test("engine-log: the dynamic-provider host still takes the engine address as its first argument", () => {
  const source = dynamicHost();
  expect(source).toMatch(/main\(process\.argv\.slice\(2\)\)/);
  expect(source).toMatch(/the address of the RPC endpoint for the engine/);
});

test("undici: the package is pinned to the exact version whose internal files host/undici.ts requires", () => {
  const declared = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies.undici;
  expect(declared).toMatch(/^\d+\.\d+\.\d+$/);
  expect(JSON.parse(fs.readFileSync(require.resolve("undici/package.json"), "utf8")).version).toBe(declared);
});

describe("pulumi-cli: the CLI that started this process", () => {
  test("a parent whose executable is named pulumi is used as is", () => {
    // A copy of node named `pulumi` starts a child that asks who its parent is.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-pulumi-cli-"));
    const fake = path.join(dir, "pulumi");
    fs.copyFileSync(process.execPath, fake);
    fs.chmodSync(fake, 0o755);
    const child = `console.log(require(${JSON.stringify(path.join(ROOT, "dist/provider/host/pulumi-cli.js"))}).pulumiCommand())`;
    try {
      // The grandchild runs the real node: its parent is the fake `pulumi`.
      const r = spawnSync(
        fake,
        [
          "-e",
          `console.log(require("child_process").execFileSync(${JSON.stringify(process.execPath)}, ["-e", ${JSON.stringify(child)}], { encoding: "utf8" }).trim())`,
        ],
        {
          encoding: "utf8",
        },
      );
      expect(r.stderr).toBe("");
      expect(r.stdout.trim()).toBe(fake);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("any other parent: the pulumi on PATH", () => {
    expect(pulumiCommand()).toBe("pulumi");
  });
});

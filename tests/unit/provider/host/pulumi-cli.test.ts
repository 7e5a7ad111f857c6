// host/pulumi-cli.ts: which pulumi CLI the provider process asks for the stack's state.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiCommand } from "../../../../provider/host/pulumi-cli";
import { ROOT } from "../../../../scripts/repo-root";

const _dynamicHost = () => fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");

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

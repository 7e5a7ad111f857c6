// The package's SDKs in the languages whose toolchain this machine has, beyond the Python and YAML
// programs of example-full-python/example-full-yaml: the Go SDK generated from plugin/schema.json with pkg/v3's
// Go code generator (pulumi-sdkgen) and compiled against Pulumi's Go SDK of the CLI's version. (C#:
// pkg/v3 no longer holds the .NET generator, and there is no dotnet here: docs/building-pulumi.md.)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./harness";
import { languageHosts } from "./plugin-support";

jest.setTimeout(900_000);

const SDK_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

/** Runs go, with the module proxy's checksums when the checksum database cannot vouch (as scripts/setup-pulumi.sh). */
function go(dir: string, args: string[]): void {
  const env = { ...process.env, GOFLAGS: "-mod=mod" };
  try {
    execFileSync("go", args, { cwd: dir, env, stdio: "pipe" });
  } catch {
    execFileSync("go", args, { cwd: dir, env: { ...env, GOSUMDB: "off" }, stdio: "pipe" });
  }
}

test("the Go SDK generates from the schema and compiles, its secret outputs marked", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-plugin-go-"));
  try {
    execFileSync(path.join(languageHosts(), "pulumi-sdkgen"), [path.join(ROOT, "plugin/schema.json"), "go", dir]);
    const pkg = path.join(dir, "pagerdutydynamic");
    expect(fs.readFileSync(path.join(pkg, "serviceIntegration.go"), "utf8")).toMatch(/AdditionalSecretOutputs\(\[\]string\{\s*"integrationKey",?\s*\}\)/);
    expect(fs.existsSync(path.join(pkg, "getServiceEventRules.go"))).toBe(true);
    fs.writeFileSync(path.join(dir, "go.mod"), `module pagerduty-dynamic/sdk/go\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${SDK_VERSION}\n`);
    go(dir, ["mod", "tidy"]);
    go(dir, ["build", "./..."]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

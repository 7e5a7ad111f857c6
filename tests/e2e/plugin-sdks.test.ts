// The package's SDKs in the languages whose toolchain this machine has, beyond the Python and YAML
// programs of example-full-python/example-full-yaml: docs/package-go.md's commands run as written
// (the Go SDK generated from the installed plugin's schema with pkg/v3's Go code generator,
// pulumi-sdkgen, put in a module of its own beside Pulumi's Go SDK of the CLI's version) and the
// page's program built against it. No Go program is deployed: the Go language host's module is
// refused by the module proxy here (docs/building-pulumi.md). C#: no dotnet and no .NET host here.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { docBlock, runBash } from "./doc-blocks";
import { installPlugin, PackageProject } from "./plugin-support";

jest.setTimeout(900_000);

let project: PackageProject;

afterAll(() => project?.remove());

/** Runs go with the module proxy's checksums when the checksum database cannot vouch for them (as scripts/go-in.sh). */
function withGoFallback(script: string): void {
  const first = runBash(script, project);
  if (first.code === 0) return;
  if (!/verifying|sumdb|checksum database/.test(first.stderr)) throw new Error(`bash exited ${first.code}:\n${script}\n${first.stdout}\n${first.stderr}`);
  project.env.GOSUMDB = "off";
  const again = runBash(script, project);
  if (again.code !== 0) throw new Error(`bash exited ${again.code}:\n${script}\n${again.stdout}\n${again.stderr}`);
}

test("docs/package-go.md as written: the Go SDK generated from the plugin's schema, its secret outputs marked, and the page's program built against it", () => {
  const dir = PackageProject.make("go-steps");
  // Go's build cache as the user's shell has it (the project's XDG_CACHE_HOME would start an empty one).
  const goCache = execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim();
  project = new PackageProject(dir, installPlugin(path.join(dir, ".plugin")), { GOFLAGS: "-mod=mod", GOCACHE: goCache });
  withGoFallback(`rm -rf sdk go.mod go.sum\n${docBlock("docs/package-go.md", "package-go")}`);
  const pkg = path.join(dir, "sdk", "go", "pagerdutydynamic");
  expect(fs.readFileSync(path.join(pkg, "serviceIntegration.go"), "utf8")).toMatch(/AdditionalSecretOutputs\(\[\]string\{\s*"integrationKey",?\s*\}\)/);
  expect(fs.existsSync(path.join(pkg, "getServiceEventRules.go"))).toBe(true);
  const cli = execFileSync("pulumi", ["version"], { env: project.env, encoding: "utf8" }).trim();
  expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(`github.com/pulumi/pulumi/sdk/v3 ${cli}`);
  fs.writeFileSync(path.join(dir, "main.go"), docBlock("docs/package-go.md", "package-go-program"));
  withGoFallback("go mod tidy && go build -o checkout .");
  expect(fs.existsSync(path.join(dir, "checkout"))).toBe(true);
});

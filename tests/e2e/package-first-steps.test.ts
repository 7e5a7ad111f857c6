// The package's first steps as the pages write them, with the real CLI, the language hosts of
// scripts/setup-language-hosts.sh and the emulator process: docs/package-python.md's commands, project
// file and program run as written (the SDK from the plugin's schema into sdk/python, pip beside
// Python's pulumi of the CLI's version), then up, a clean preview --refresh and destroy; and
// `pulumi package add` of the plugin in a YAML project (docs/package-yaml.md), which the YAML host
// v1.30 answers (GeneratePackage and Link), then up, a clean preview --refresh and destroy.
import * as fs from "node:fs";
import * as path from "node:path";
import { docBlock, mustBash } from "./doc-blocks";
import { type RunningEmulator, startEmulatorProcess } from "./harness";
import { installPlugin, PackageProject } from "./plugin-support";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let pluginBin: string;
const projects: PackageProject[] = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
  pluginBin = installPlugin(path.join(PackageProject.make("first-steps-plugin"), "plugin"));
});

afterAll(async () => {
  await emu?.stop();
  for (const p of projects) p.remove();
  fs.rmSync(path.dirname(path.dirname(path.dirname(pluginBin))), { recursive: true, force: true });
});

function project(prefix: string, env: (dir: string) => NodeJS.ProcessEnv = () => ({})): PackageProject {
  const dir = PackageProject.make(prefix);
  const p = new PackageProject(dir, pluginBin, env(dir));
  projects.push(p);
  return p;
}

/** Up, a clean preview with a refresh, destroy: the service is made once and gone after; no secret in the state or the output. */
async function deployAndDestroy(p: PackageProject, serviceName: string): Promise<void> {
  p.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
  p.must(["up", "--yes", "--skip-preview"]);
  const service = p.resources().find((r) => r.type === "pagerduty-dynamic:index:Service")!;
  expect(service.outputs.name).toBe(serviceName);
  expect((await emu.api("GET", `/services/${service.id}`)).body.service.name).toBe(serviceName);
  p.must(["preview", "--refresh", "--expect-no-changes"]);
  p.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${service.id}`)).status).toBe(404);
  expect(p.stateText() + p.log).not.toContain(emu.oauth.clientSecret);
}

test("docs/package-python.md as written: the SDK generated into sdk/python and installed, the program deployed, refreshed clean, destroyed", async () => {
  // The Python host v3.68 does not read runtime.options.virtualenv (the page says so): name the interpreter.
  const p = project("python-steps", (dir) => ({ PULUMI_PYTHON_CMD: path.join(dir, "venv", "bin", "python") }));
  mustBash(docBlock("docs/package-python.md", "package-python"), p);
  expect(fs.existsSync(path.join(p.dir, "sdk", "python", "pyproject.toml"))).toBe(true);
  fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), docBlock("docs/package-python.md", "package-python-project"));
  fs.writeFileSync(path.join(p.dir, "__main__.py"), docBlock("docs/package-python.md", "package-python-program"));
  await deployAndDestroy(p, "Checkout");
});

test("`pulumi package add` of the plugin in a YAML project records the package, and the project deploys", async () => {
  const p = project("yaml-package-add");
  const program = `name: yaml-package-add
runtime: yaml
config:
  escalationPolicyId: { type: string }
resources:
  checkout:
    type: pagerduty-dynamic:index:Service
    properties:
      name: yaml-package-add
      escalationPolicy: \${escalationPolicyId}
`;
  fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), program);
  const added = p.must(["package", "add", path.join(pluginBin, "pulumi-resource-pagerduty-dynamic")]);
  expect(added.stdout + added.stderr).toContain("Added package PagerDuty (dynamic)");
  const version = JSON.parse(fs.readFileSync(path.join(pluginBin, "..", "pulumi-pagerduty-dynamic", "package.json"), "utf8")).version;
  const file = fs.readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8");
  expect(file).toMatch(new RegExp(`packages:\\n\\s+pagerduty-dynamic: pagerduty-dynamic@${version.replace(/\./g, "\\.")}\\n`));
  expect(file).toContain("escalationPolicy: ${escalationPolicyId}");
  expect(fs.readFileSync(path.join(p.dir, "sdks", "pagerduty-dynamic", `pagerduty-dynamic-${version}.yaml`), "utf8")).toContain("name: pagerduty-dynamic");
  await deployAndDestroy(p, "yaml-package-add");
});

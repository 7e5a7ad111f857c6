// The package's first steps as the pages write them, with the real CLI, the language hosts of
// scripts/setup-language-hosts.sh and the emulator process: docs/package-python.md's project file,
// commands and program run as written (`pulumi package add` where the Python host answers
// GeneratePackage, else the SDK from the plugin's schema into sdk/python; pip beside Python's pulumi
// of the CLI's version or the newest below it), the program run in the project's `virtualenv`, then
// up, `pulumi import --out` of the deployed service in each language, a clean preview --refresh and
// destroy; and `pulumi package add` of the plugin in a YAML project (docs/package-yaml.md), then up,
// a clean preview --refresh and destroy. What a host built here cannot do (the fallback Python and
// Node.js hosts, no Go or .NET host) is asserted as the failure the pages name, so the test follows
// the hosts: with current ones it runs every step.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { docBlock, mustBash, runBash } from "./doc-blocks";
import { type EmulatorProcess, startEmulatorProcess } from "./harness";
import { builtHosts, installPlugin, nodejsHostCurrent, PackageProject } from "./plugin-support";

jest.setTimeout(600_000);

let emu: EmulatorProcess;
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

/**
 * The languages `pulumi import --out` writes a program in (the project's runtime's host generates
 * it): the runtime, the file, and this machine's host of that runtime: a current one, a fallback
 * without GenerateProgram (scripts/setup-pulumi.sh's Node.js host, scripts/setup-language-hosts.sh's
 * Python host where the module proxy refuses the current ones), or none.
 */
function importLanguages(p: PackageProject): Array<{ runtime: string; file: string; host: "current" | "fallback" | "none" }> {
  const onPath = (bin: string) => (p.env.PATH ?? "").split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, bin)));
  return [
    { runtime: "nodejs", file: "imported.ts", host: nodejsHostCurrent() ? "current" : "fallback" },
    { runtime: "python", file: "imported.py", host: builtHosts().pythonCurrent ? "current" : "fallback" },
    { runtime: "go", file: "imported.go", host: onPath("pulumi-language-go") ? "current" : "none" },
    { runtime: "yaml", file: "imported.yaml", host: "current" },
    { runtime: "dotnet", file: "Imported.cs", host: onPath("pulumi-language-dotnet") ? "current" : "none" },
  ];
}

/**
 * `pulumi import --preview-only --out` of the stack's service into a resource "imported", with the
 * project's runtime switched to each language in turn (the program of the project is put back
 * after): the file names the resource and what it found, or where this machine has no such host
 * (or only a fallback one), the import fails saying so and writes nothing.
 */
function importOutEveryLanguage(p: PackageProject, serviceId: string, serviceName: string): void {
  const projectFile = path.join(p.dir, "Pulumi.yaml");
  const original = fs.readFileSync(projectFile, "utf8");
  try {
    for (const lang of importLanguages(p)) {
      fs.writeFileSync(projectFile, `name: ${/^name: (.*)$/m.exec(original)![1]}\nruntime: ${lang.runtime}\n`);
      const r = p.run(["import", "pagerduty-dynamic:index:Service", "imported", serviceId, "--preview-only", "--out", lang.file]);
      const out = path.join(p.dir, lang.file);
      const said = `${lang.runtime}: pulumi import exited ${r.code}\n${r.stdout}\n${r.stderr}`;
      if (lang.host === "current") {
        if (r.code !== 0) throw new Error(said);
        const program = fs.readFileSync(out, "utf8");
        expect(program).toMatch(/imported/i);
        expect(program).toContain(serviceName);
        expect(program).toContain("Service");
      } else {
        if (r.code === 0) throw new Error(`expected no program from this machine's ${lang.runtime} host (${lang.host}); ${said}`);
        expect(r.stderr).toContain(
          lang.host === "fallback" ? "method GenerateProgram not implemented" : `no language plugin 'pulumi-language-${lang.runtime}' found`,
        );
        // No program: the file is not written, or left empty.
        expect(fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "").not.toContain(serviceName);
      }
    }
  } finally {
    fs.writeFileSync(projectFile, original);
  }
}

/** Up, a clean preview with a refresh, destroy: the service is made once and gone after; no secret in the state or the output. `beforeDestroy` runs with the service deployed. */
async function deployAndDestroy(p: PackageProject, serviceName: string, beforeDestroy: (serviceId: string) => void = () => {}): Promise<void> {
  p.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
  p.must(["up", "--yes", "--skip-preview"]);
  const service = p.resources().find((r) => r.type === "pagerduty-dynamic:index:Service")!;
  expect(service.outputs.name).toBe(serviceName);
  expect((await emu.api("GET", `/services/${service.id}`)).body.service.name).toBe(serviceName);
  p.must(["preview", "--refresh", "--expect-no-changes"]);
  beforeDestroy(service.id!);
  p.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${service.id}`)).status).toBe(404);
  expect(p.stateText() + p.log).not.toContain(emu.oauth.clientSecret);
}

test("docs/package-python.md as written: the SDK added (or generated into sdk/python) and installed in the project's virtualenv, the program run there, deployed, imported in every language, refreshed clean, destroyed", async () => {
  const p = project("python-steps");
  const hosts = builtHosts();
  fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), docBlock("docs/package-python.md", "package-python-project"));
  const added = runBash(docBlock("docs/package-python.md", "package-python-add"), p);
  if (hosts.pythonCurrent) {
    expect(added).toEqual(expect.objectContaining({ code: 0 }));
    expect(fs.existsSync(path.join(p.dir, "sdks", "pagerduty-dynamic"))).toBe(true);
  } else {
    // The fallback host (sdk/v3 v3.68) has no GeneratePackage: the page's other way.
    expect(added.code).not.toBe(0);
    expect(added.stdout + added.stderr).toContain("GeneratePackage not implemented");
    mustBash(docBlock("docs/package-python.md", "package-python"), p);
    expect(fs.existsSync(path.join(p.dir, "sdk", "python", "pyproject.toml"))).toBe(true);
  }
  fs.writeFileSync(path.join(p.dir, "__main__.py"), docBlock("docs/package-python.md", "package-python-program"));
  // Python's pulumi and the SDK are in venv alone, so a program not run there fails.
  expect(spawnSync("python3", ["-c", "import pulumi"], { env: { ...p.env, PYTHONPATH: "" } }).status).not.toBe(0);
  expect(spawnSync(path.join(p.dir, "venv", "bin", "python"), ["-c", "import pulumi, pulumi_pagerduty_dynamic"]).status).toBe(0);
  if (!hosts.pythonCurrent) {
    // The fallback host does not read `virtualenv` (the page says so): without PULUMI_PYTHON_CMD it
    // runs the machine's python3, which has no pulumi; the page's workaround names the interpreter.
    p.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
    const r = p.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("No module named 'pulumi'");
    p.must(["stack", "rm", "--yes", "--force", "dev"]);
    p.env.PULUMI_PYTHON_CMD = path.join(p.dir, "venv", "bin", "python");
  } else {
    delete p.env.PULUMI_PYTHON_CMD; // the project's `virtualenv` alone
  }
  await deployAndDestroy(p, "Checkout", (id) => importOutEveryLanguage(p, id, "Checkout"));
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

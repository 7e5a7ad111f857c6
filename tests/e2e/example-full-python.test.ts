// examples/full-python as a user runs it: the Python program through the Pulumi package (the
// packed package's plugin on PATH), the real CLI and a Python language host against the emulator
// process. The SDK is generated from the schema the installed plugin serves (`pulumi package
// get-schema`) with pkg/v3's Python generator (pulumi-sdkgen, scripts/setup-language-hosts.sh: the
// same files `pulumi package gen-sdk` writes) and installed with pip, beside Python's `pulumi` from
// PyPI (the newest release at or below the CLI's version), into the project's virtualenv (`venv`, as
// its Pulumi.yaml says), once; the program runs there as the project says (the fallback Python host
// alone needs PULUMI_PYTHON_CMD, docs/package-python.md).
// Then the steps every door runs (example-full-support.ts), and before the destroy a hand change
// found by the drift check and put back.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { destroyTest, firstPreviewTest, releaseTests } from "./example-full-support";
import { ROOT, type EmulatorProcess, startEmulatorProcess } from "./harness";
import { builtHosts, installPlugin, languageHosts, PackageProject, pythonSdkRequirement } from "./plugin-support";

jest.setTimeout(15 * 60_000);

const EXAMPLE = path.join(ROOT, "examples/full-python");

let emu: EmulatorProcess;
let project: PackageProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  const dir = PackageProject.make("full-python");
  for (const f of fs.readdirSync(EXAMPLE)) fs.copyFileSync(path.join(EXAMPLE, f), path.join(dir, f));
  const plugin = installPlugin(path.join(dir, ".plugin"));
  // A fallback Python host predates the CLI's way of passing the `virtualenv` option: it runs the
  // interpreter PULUMI_PYTHON_CMD names instead (the same venv).
  project = new PackageProject(dir, plugin, { PULUMI_PYTHON_CMD: path.join(dir, "venv/bin/python") });
  if (builtHosts().pythonCurrent) delete project.env.PULUMI_PYTHON_CMD;
  fs.writeFileSync(path.join(dir, "schema.json"), project.must(["package", "get-schema", path.join(plugin, "pulumi-resource-pagerduty-dynamic")]).stdout);
  // As docs/package-python.md says, into sdk/python (where `pulumi package gen-sdk` writes it too).
  execFileSync(path.join(languageHosts(), "pulumi-sdkgen"), [path.join(dir, "schema.json"), "python", path.join(dir, "sdk/python")]);
  execFileSync("python3", ["-m", "venv", path.join(dir, "venv")]);
  execFileSync(path.join(dir, "venv/bin/pip"), ["install", "--quiet", "--disable-pip-version-check", pythonSdkRequirement(), path.join(dir, "sdk/python")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  project.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const door = { project: () => project, emu: () => emu, type: (kind: string) => `pagerduty-dynamic:index:${kind}` };

firstPreviewTest(door);
const release = releaseTests(door);

test("a hand change is drift: the drift check reports it, up --refresh puts it back, then nothing is left to do", async () => {
  const checkout = release.ids().checkout;
  const description = async () => (await emu.api("GET", `/services/${checkout}`)).body.service.description;
  const declared = await description();
  await emu.api("PUT", `/services/${checkout}`, { service: { type: "service", description: "changed by hand" } });
  expect(project.run(["refresh", "--preview-only", "--expect-no-changes"]).code).not.toBe(0);
  project.must(["up", "--yes", "--refresh", "--skip-preview"]);
  expect(await description()).toBe(declared);
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);
});

destroyTest(door);

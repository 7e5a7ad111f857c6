// The package (plugin) from a Python program, with the real CLI and a Python language host against
// the emulator process. The SDK is generated from the schema the installed plugin serves (`pulumi
// package get-schema`), with pkg/v3's Python code generator (pulumi-sdkgen, built by
// scripts/setup-language-hosts.sh: the Python host the module proxy lets us build has no
// GeneratePackage, so `pulumi package add` cannot generate it), and installed with pip beside
// Python's `pulumi` from PyPI. A service with an integration and an event rule, and a lookup as an
// invoke: preview, up, a refresh that finds no drift, destroy; no secret in the state or the output.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, startEmulatorProcess } from "./harness";
import { installPlugin, integrationKey, languageHosts, PackageProject } from "./plugin-support";

jest.setTimeout(600_000);

const SDK_VERSION = JSON.parse(fs.readFileSync(path.join(__dirname, "../../node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

let emu: RunningEmulator;
let project: PackageProject;

const PROGRAM = `import pulumi
import pulumi_pagerduty_dynamic as pd

config = pulumi.Config()
checkout = pd.Service("checkout", name="py-checkout", description="Checkout", escalation_policy=config.require("escalationPolicyId"))
events = pd.ServiceIntegration("events", service=checkout.id, name="events", type="events_api_v2_inbound_integration")
disk = pd.ServiceEventRule(
    "disk",
    service=checkout.id,
    conditions=pd.ServiceEventRuleConditionsArgs(
        operator="and",
        subconditions=[pd.ServiceEventRuleConditionsSubconditionArgs(
            operator="contains",
            parameters=pd.ServiceEventRuleConditionsSubconditionParametersArgs(path="summary", value="disk"),
        )],
    ),
    actions={"severity": {"value": "warning"}},
)
# A lookup is a function (an invoke) here; it runs once the service exists.
found = pd.get_service_output(name="py-checkout", opts=pulumi.InvokeOutputOptions(depends_on=[checkout]))

pulumi.export("serviceId", checkout.id)
pulumi.export("foundId", found.id)
pulumi.export("integrationId", events.id)
pulumi.export("routingKey", events.integration_key)
pulumi.export("ruleId", disk.id)
`;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  const dir = PackageProject.make("plugin-python");
  const venv = path.join(dir, "venv");
  project = new PackageProject(dir, installPlugin(path.join(dir, ".plugin")), { PULUMI_PYTHON_CMD: path.join(venv, "bin", "python") });
  // The SDK from the schema the installed plugin serves.
  fs.writeFileSync(
    path.join(dir, "schema.json"),
    project.must(["package", "get-schema", path.join(dir, ".plugin/node_modules/.bin/pulumi-resource-pagerduty-dynamic")]).stdout,
  );
  execFileSync(path.join(languageHosts(), "pulumi-sdkgen"), [path.join(dir, "schema.json"), "python", path.join(dir, "sdk")]);
  execFileSync("python3", ["-m", "venv", venv]);
  execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `pulumi==${SDK_VERSION}`, path.join(dir, "sdk")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  // The host runs the interpreter PULUMI_PYTHON_CMD names (the project's venv).
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: plugin-python\nruntime: python\n");
  fs.writeFileSync(path.join(dir, "__main__.py"), PROGRAM);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("a Python program: preview, up, no drift after a refresh, destroy; secrets stay secret", async () => {
  project.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
  const preview = project.must(["preview"]).stdout;
  expect(preview).toMatch(/\+ 4 to create/);

  project.must(["up", "--yes"]);
  const out = project.outputs();
  expect(out.foundId).toBe(out.serviceId);
  expect(out.routingKey).toBe("[secret]");
  const rule = (await emu.api("GET", `/services/${out.serviceId}/rules/${out.ruleId}`)).body.rule;
  expect(rule.conditions.subconditions[0].parameters).toEqual({ path: "summary", value: "disk" });
  const events = project.resources().find((r) => r.id === out.integrationId)!;
  expect(events.type).toBe("pagerduty-dynamic:index:ServiceIntegration");
  expect(events.outputs.integrationKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));

  // Drift: the service changed out of band is reported, put back, then nothing is left to do.
  await emu.api("PUT", `/services/${out.serviceId}`, { service: { type: "service", description: "changed by hand" } });
  expect(project.run(["refresh", "--preview-only", "--expect-no-changes"]).code).not.toBe(0);
  project.must(["up", "--yes", "--refresh"]);
  expect((await emu.api("GET", `/services/${out.serviceId}`)).body.service.description).toBe("Checkout");
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);

  const key = await integrationKey(emu, out.serviceId, out.integrationId);
  project.must(["destroy", "--yes"]);
  expect((await emu.api("GET", `/services/${out.serviceId}`)).status).toBe(404);

  const text = project.stateText() + project.log;
  for (const secret of [emu.oauth.clientSecret, key]) expect(text).not.toContain(secret);
});

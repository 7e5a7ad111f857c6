// The package (plugin) from a YAML program, with the real CLI and the YAML language host against the
// emulator process: a service with an integration and an event rule in the default account, and a
// service in a second account through an explicit provider resource; up, a refresh that finds no
// drift, `pulumi import` of existing objects (one, and a list with --file) followed by a clean
// preview of the program `import` printed, destroy. Secrets never reach the state or the output. A
// function refuses an account name as the TypeScript SDK's lookup does (tests/e2e/lookups.test.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, startEmulatorProcess } from "./harness";
import { euProviderYaml, installPlugin, integrationKey, PackageProject } from "./plugin-support";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let project: PackageProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  const dir = PackageProject.make("plugin-yaml");
  project = new PackageProject(dir, installPlugin(path.join(dir, ".plugin")));
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const program = (e: RunningEmulator) => `name: plugin-yaml
runtime: yaml
${euProviderYaml(e).config}resources:
${euProviderYaml(e).resource}  checkout:
    type: pagerduty-dynamic:index:Service
    properties:
      name: yaml-checkout
      escalationPolicy: ${e.escalationPolicyId}
  events:
    type: pagerduty-dynamic:index:ServiceIntegration
    properties:
      service: \${checkout.id}
      name: events
      type: events_api_v2_inbound_integration
  disk:
    type: pagerduty-dynamic:index:ServiceEventRule
    properties:
      service: \${checkout.id}
      conditions:
        operator: and
        subconditions:
          - operator: contains
            parameters: { path: summary, value: disk }
      actions:
        severity: { value: warning }
  euCheckout:
    type: pagerduty-dynamic:index:Service
    properties:
      name: yaml-checkout-eu
      escalationPolicy: ${e.eu!.escalationPolicyId}
    options:
      provider: \${eu}
outputs:
  serviceId: \${checkout.id}
  euServiceId: \${euCheckout.id}
  integrationId: \${events.id}
  routingKey: \${events.integrationKey}
`;

test("a YAML program: up in two accounts, no drift, import of existing objects, a clean preview, destroy", async () => {
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), program(emu));
  project.initStack(emu, {}, { euClientSecret: emu.eu!.oauth.clientSecret });

  project.must(["up", "--yes"]);
  const out = project.outputs();
  expect(out.routingKey).toBe("[secret]");
  // Each account holds its own service: the explicit provider's settings reached its process.
  expect((await emu.api("GET", `/services/${out.serviceId}`)).status).toBe(200);
  expect((await emu.euApi("GET", `/services/${out.euServiceId}`)).status).toBe(200);
  expect((await emu.api("GET", `/services/${out.euServiceId}`)).status).toBe(404);
  const rules = (await emu.api("GET", `/services/${out.serviceId}/rules`)).body.rules;
  expect(rules).toEqual([expect.objectContaining({ actions: expect.objectContaining({ severity: { value: "warning" } }) })]);
  project.must(["refresh", "--preview-only", "--expect-no-changes"]);

  // Objects made outside Pulumi: one service alone, and a service with an integration and a rule.
  const make = async (name: string) =>
    (
      await emu.api("POST", "/services", {
        service: { type: "service", name, escalation_policy: { id: emu.escalationPolicyId, type: "escalation_policy_reference" } },
      })
    ).body.service.id as string;
  const lone = await make("legacy-lone");
  const billing = await make("legacy-billing");
  const integration = (
    await emu.api("POST", `/services/${billing}/integrations`, { integration: { type: "events_api_v2_inbound_integration", name: "legacy-events" } })
  ).body.integration.id as string;
  const rule = (
    await emu.api("POST", `/services/${billing}/rules`, {
      rule: {
        conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "billing" } }] },
        actions: { severity: { value: "info" } },
      },
    })
  ).body.rule.id as string;

  const printed = (file: string) => fs.readFileSync(path.join(project.dir, file), "utf8");
  project.must(["import", "pagerduty-dynamic:index:Service", "lone", lone, "--yes", "--out", "lone.yaml"]);
  const list = {
    resources: [
      { type: "pagerduty-dynamic:index:Service", name: "billing", id: billing },
      { type: "pagerduty-dynamic:index:ServiceIntegration", name: "billingEvents", id: `${billing}/${integration}` },
      { type: "pagerduty-dynamic:index:ServiceEventRule", name: "billingRule", id: `${billing}/${rule}` },
    ],
  };
  fs.writeFileSync(path.join(project.dir, "import.json"), JSON.stringify(list));
  project.must(["import", "--file", "import.json", "--yes", "--out", "list.yaml"]);
  const byName = Object.fromEntries(project.resources().map((r) => [r.urn.split("::").pop(), r]));
  expect(byName.lone.id).toBe(lone);
  expect(byName.billingEvents.id).toBe(`${billing}/${integration}`);
  expect(byName.billingEvents.inputs).toEqual(expect.objectContaining({ service: billing, name: "legacy-events" }));
  expect(byName.billingRule.inputs.conditions.subconditions[0].parameters.value).toBe("billing");
  expect(byName.billingEvents.outputs.integrationKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));

  // The program `import` printed, added to the stack's program: nothing to change.
  const resources = [printed("lone.yaml"), printed("list.yaml")]
    .map((text) => text.replace(/^resources:\n/, "").replace(/^ {4}options:\n {6}protect: true\n/gm, ""))
    .join("");
  expect(resources).toContain("service: ${billing.id}");
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), program(emu).replace("outputs:\n", `${resources}outputs:\n`));
  project.must(["state", "unprotect", "--all", "--yes"]);
  project.must(["preview", "--expect-no-changes"]);

  const keys = [await integrationKey(emu, out.serviceId, out.integrationId), await integrationKey(emu, billing, integration)];
  project.must(["destroy", "--yes"]);
  for (const id of [out.serviceId, lone, billing]) expect((await emu.api("GET", `/services/${id}`)).status).toBe(404);
  expect((await emu.euApi("GET", `/services/${out.euServiceId}`)).status).toBe(404);

  // Neither account's client secret nor a routing key in plaintext, in state or in anything the CLI printed.
  const text = project.stateText() + project.log;
  for (const secret of [emu.oauth.clientSecret, emu.eu!.oauth.clientSecret, ...keys]) expect(text).not.toContain(secret);
});

test("a function in an account whose name cannot be one fails the preview naming `account`, as the TypeScript lookup does", () => {
  // The YAML engine runs the invoke at preview; the plugin checks the account's name before any request.
  fs.writeFileSync(
    path.join(project.dir, "Pulumi.yaml"),
    `name: plugin-yaml
runtime: yaml
variables:
  found:
    fn::invoke:
      function: pagerduty-dynamic:index:getService
      arguments:
        name: yaml-checkout
        account: e u
outputs:
  foundId: \${found.id}
`,
  );
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('account: must be a letter followed by up to 39 letters, digits, "-" or "_"; got "e u"');
});

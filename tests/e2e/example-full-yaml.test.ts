// examples/full-yaml as a user runs it: the YAML program through the Pulumi package (the packed
// package's plugin on PATH), the real CLI and the YAML language host against the emulator process,
// with the steps every door runs (example-full-support.ts). Before the destroy, what only the
// package door has: `pulumi import` of objects made elsewhere (one, and a list with --file), after
// which the program `import` printed previews clean; and a second account through an explicit
// provider resource, its client secret a secret config value. Last, a function given an account
// name that cannot be one fails the preview naming `account`, as the TypeScript lookup does
// (tests/e2e/lookups.test.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { destroyTest, firstPreviewTest, releaseTests } from "./example-full-support";
import { createService } from "./fixtures";
import { ROOT, type EmulatorProcess, startEmulatorProcess } from "./harness";
import { euProviderYaml, installPlugin, PackageProject } from "./plugin-support";

jest.setTimeout(15 * 60_000);

let emu: EmulatorProcess;
let project: PackageProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  const dir = PackageProject.make("full-yaml");
  fs.copyFileSync(path.join(ROOT, "examples/full-yaml/Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
  project = new PackageProject(dir, installPlugin(path.join(dir, ".plugin")));
  project.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

const door = { project: () => project, emu: () => emu, type: (kind: string) => `pagerduty-dynamic:index:${kind}` };
const programFile = () => path.join(project.dir, "Pulumi.yaml");
/** Adds `text` to the program's resources (before its outputs, the last section). */
const addResources = (text: string) => fs.writeFileSync(programFile(), fs.readFileSync(programFile(), "utf8").replace(/^outputs:\n/m, `${text}outputs:\n`));
/** The stack's resources by logical name. */
const byName = () => Object.fromEntries(project.resources().map((r) => [r.urn.split("::").pop()!, r]));
const made: string[] = [];

firstPreviewTest(door);
releaseTests(door);

test("pulumi import takes over objects made elsewhere, one and a list (--file); the program it printed previews clean", async () => {
  const lone = await createService(emu, "Legacy lone");
  const billing = await createService(emu, "Legacy billing");
  made.push(lone, billing);
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
  const state = byName();
  expect(state.lone.id).toBe(lone);
  expect(state.billingEvents.id).toBe(`${billing}/${integration}`);
  expect(state.billingEvents.inputs).toEqual(expect.objectContaining({ service: billing, name: "legacy-events" }));
  expect(state.billingRule.inputs.conditions.subconditions[0].parameters.value).toBe("billing");
  expect(state.billingEvents.outputs.integrationKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));

  // The program `import` printed, added to the stack's program: nothing to change.
  const printed = ["lone.yaml", "list.yaml"]
    .map((f) => fs.readFileSync(path.join(project.dir, f), "utf8"))
    .map((text) => text.replace(/^resources:\n/, "").replace(/^ {4}options:\n {6}protect: true\n/gm, ""))
    .join("");
  expect(printed).toContain("service: ${billing.id}");
  addResources(printed);
  project.must(["state", "unprotect", "--all", "--yes"]);
  project.must(["preview", "--expect-no-changes"]);
});

test("a second account through an explicit provider resource: its service lives in that account alone", async () => {
  const eu = emu.eu!;
  const second = euProviderYaml(emu);
  fs.writeFileSync(programFile(), fs.readFileSync(programFile(), "utf8").replace(/^config:\n/m, second.config));
  addResources(`${second.resource}  euCheckout:
    type: pagerduty-dynamic:index:Service
    properties:
      name: Checkout API (EU)
      escalationPolicy: ${eu.escalationPolicyId}
    options:
      provider: \${eu}
`);
  project.must(["config", "set", "--secret", "euClientSecret"], 0, eu.oauth.clientSecret);
  project.must(["up", "--yes", "--skip-preview"]);
  const id = byName().euCheckout.id!;
  expect((await emu.euApi("GET", `/services/${id}`)).status).toBe(200);
  expect((await emu.api("GET", `/services/${id}`)).status).toBe(404);
  made.push(id);
});

destroyTest(door);

test("destroy took the imported objects and the second account's service with it", async () => {
  expect((await emu.euApi("GET", "/services")).body.services).toEqual([]);
  for (const id of made) expect((await emu.api("GET", `/services/${id}`)).status).toBe(404);
});

test("a function in an account whose name cannot be one fails the preview naming `account`, as the TypeScript lookup does", () => {
  // The YAML engine runs the invoke at preview; the plugin checks the account's name before any request.
  fs.writeFileSync(
    programFile(),
    `name: pagerduty-full-yaml
runtime: yaml
variables:
  found:
    fn::invoke:
      function: pagerduty-dynamic:index:getService
      arguments:
        name: Checkout API
        account: e u
outputs:
  foundId: \${found.id}
`,
  );
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toContain('account: must be a letter followed by up to 39 letters, digits, "-" or "_"; got "e u"');
});

// TypeScript through the package, with the real CLI, the plugin and the emulator process:
// docs/package-nodejs.md as written (the Node.js SDK generated from the plugin's schema with
// pulumi-sdkgen --local, as `pulumi package add` generates it, and installed with npm; its program
// previewed, deployed, refreshed clean and destroyed), and docs/package.md's move of a stack of the
// dynamic providers to the package's types as written (`npx --no-install pagerduty-move`, the SDK, the program
// changed as the page says): every object keeps its id, no request changes PagerDuty, and the
// previews after it are clean, with --refresh too; the moved stack is then destroyed by the plugin.
import * as fs from "node:fs";
import * as path from "node:path";
import { ownId } from "../../provider/kernel/recorded-type";
import { docBlock, mustBash, writesSoFar } from "./doc-blocks";
import { PulumiProject, type EmulatorProcess, startEmulatorProcess } from "./harness";
import { languageHosts, PackageProject } from "./plugin-support";

jest.setTimeout(600_000);

const DYNAMIC = `import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";

const config = new pulumi.Config();
const checkout = new pagerduty.Service("checkout", { name: "move-checkout", description: "Takes orders", escalationPolicy: config.require("escalationPolicyId") });
const events = new pagerduty.ServiceIntegration("events", { service: checkout.id, type: "events_api_v2_inbound_integration", name: "Events API v2" });
new pagerduty.ServiceEventRule("disk", {
  service: checkout.id,
  conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value: "disk" } }] },
  actions: { severity: { value: "critical" } },
});
new pagerduty.ServiceOrchestration("routing", {
  service: checkout.id,
  sets: [{ id: "start", rules: [{ label: "db", conditions: [{ expression: "event.summary matches part 'db'" }], actions: { severity: "critical" } }] }],
  catchAll: { actions: {} },
});
new pagerduty.ServiceCustomFieldValues("fields", { service: checkout.id, values: { tier: "gold" } });
const found = pagerduty.getService({ name: checkout.name }, { name: "checkout-by-name", dependsOn: [checkout] });
export const foundId = found.id;
export const routingKey = events.integrationKey;
`;

let emu: EmulatorProcess;
/** The dynamic providers' stack to move; its copy of the package (installed once) also serves the plugin to the first test. */
let dynamic: PulumiProject;
const cleanup: Array<{ remove(): void }> = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
  dynamic = PulumiProject.create("move", DYNAMIC, emu);
  cleanup.push(dynamic);
});

afterAll(async () => {
  await emu?.stop();
  for (const p of cleanup) p.remove();
});

test("docs/package-nodejs.md as written: the SDK generated and installed, the program previewed, deployed, refreshed clean, destroyed", async () => {
  const dir = PackageProject.make("nodejs-steps");
  const project = new PackageProject(dir, path.join(dynamic.dir, "node_modules", ".bin"), { PULUMI_NODEJS_TRANSPILE_ONLY: "true" });
  cleanup.push(project);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: nodejs-steps\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "nodejs-steps", private: true, main: "index.ts" }));
  mustBash(docBlock("docs/package-nodejs.md", "package-nodejs"), project);
  expect(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies["pulumi-pagerduty-dynamic-sdk"]).toBe("file:sdk/nodejs");
  fs.writeFileSync(path.join(dir, "index.ts"), docBlock("docs/package-nodejs.md", "package-nodejs-program"));
  project.initStack(emu, { escalationPolicyId: emu.escalationPolicyId });

  expect(project.must(["preview"]).stdout).toMatch(/\+ 3 to create/);
  project.must(["up", "--yes", "--skip-preview"]);
  const out = project.outputs();
  expect(out.foundId).toBe(out.serviceId);
  expect(out.routingKey).toBe("[secret]");
  const types = project.resources().map((r) => r.type);
  expect(types).toEqual(expect.arrayContaining(["pagerduty-dynamic:index:Service", "pagerduty-dynamic:index:ServiceIntegration"]));
  expect(types.filter((t) => t.startsWith("pulumi-nodejs:"))).toEqual([]);
  expect((await emu.api("GET", `/services/${out.serviceId}`)).body.service.name).toBe("Checkout");
  project.must(["preview", "--refresh", "--expect-no-changes"]);

  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${out.serviceId}`)).status).toBe(404);
  expect(project.stateText() + project.log).not.toContain(emu.oauth.clientSecret);
});

test("a stack of the dynamic providers moves to the package's types by docs/package.md's steps: same ids, no write to PagerDuty, clean previews", async () => {
  const project = dynamic;
  project.must(["up", "--yes", "--skip-preview"]);
  const before = new Map(project.resources().flatMap((r) => (r.type.startsWith("pulumi-nodejs:dynamic/pagerduty:") ? [[r.urn.split("::").pop()!, r]] : [])));
  expect([...before.keys()].sort()).toEqual(["checkout", "checkout-by-name", "disk", "events", "fields", "routing"]);
  const writes = await writesSoFar(emu);

  // The page's commands as written (pulumi-sdkgen, which the page names, from the language hosts'
  // build); the PATH the block exports stays the shell's for the commands after it.
  project.env.PATH = [path.join(project.dir, "node_modules", ".bin"), languageHosts(), project.env.PATH].join(path.delimiter);
  const moved = mustBash(docBlock("docs/package.md", "package-move"), project);
  expect(moved.stdout).toMatch(/Done: 5 object\(s\) imported into the package's types, 7 resource\(s\) of the dynamic providers deleted/);
  // Then the program as the page says: the SDK's import, and each lookup as a function.
  const program = DYNAMIC.replace('from "pulumi-pagerduty-dynamic"', 'from "pulumi-pagerduty-dynamic-sdk"').replace(
    'pagerduty.getService({ name: checkout.name }, { name: "checkout-by-name", dependsOn: [checkout] })',
    "pagerduty.getServiceOutput({ name: checkout.name }, { dependsOn: [checkout] })",
  );
  expect(program).not.toBe(DYNAMIC);
  project.setProgram(program);

  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
  const after = project.resources();
  expect(after.filter((r) => r.type.startsWith("pulumi-nodejs:") || r.type === "pulumi:providers:pulumi-nodejs")).toEqual([]);
  for (const [name, old] of before) {
    if (name === "checkout-by-name") continue; // a lookup: a function now, not in the state
    const now = after.find((r) => r.urn.endsWith(`::${name}`))!;
    expect(now.type).toBe(old.type.replace("pulumi-nodejs:dynamic/pagerduty:", "pagerduty-dynamic:index:"));
    expect(ownId(now.id!)).toBe(old.id);
  }
  // Imports and previews only read: PagerDuty saw no create, update or delete.
  expect(await writesSoFar(emu)).toEqual(writes);
  expect(JSON.parse(project.must(["config", "--json"]).stdout)["pagerduty-dynamic:clientSecret"]).toEqual({ secret: true });
  expect(project.stateText() + project.log).not.toContain(emu.oauth.clientSecret);

  // The package's plugin now manages them: a destroy deletes the objects it moved.
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${before.get("checkout")!.id}`)).status).toBe(404);
});

// A stack made by the previous packed version keeps working with the current package (issue 30).
// That version's `__provider` is one serialized object per kind (about 2.5 KB, the stack's name
// captured in it) calling `resource(kind)` (kept as the deprecated name of `providerOf`) and
// `configure(req, stack)` of the installed package; the current one is a single `require` line.
// Refresh and delete run through the old strings, and the first `up` moves every resource to the
// new form without a request for it.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseShapeText } from "../../provider/kernel/shape-text";
import { requestCounts } from "./fixtures";
import { PulumiProject, startEmulatorProcess, tarball, type EmulatorProcess } from "./harness";
import { installTarball, PREVIOUS_COMMIT, previousTarball } from "./previous-package";

jest.setTimeout(15 * 60_000);

const SERVICES = 2;

/** `second`: the services' descriptions change and the last service's enablement goes. */
const program = (second = false) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
for (let i = 0; i < ${SERVICES}; i++) {
  const svc = new pagerduty.Service("svc-" + i, { name: "Upgrade " + i, description: ${JSON.stringify(second ? "second" : "first")}, escalationPolicy });
  new pagerduty.ServiceIntegration("int-" + i, { service: svc.id, type: "events_api_v2_inbound_integration", name: "Events API v2" });
  new pagerduty.ServiceEventRule("rule-" + i, {
    service: svc.id, position: 0,
    conditions: { operator: "and", subconditions: [{ operator: "exists", parameters: { path: "payload.source" } }] },
    actions: { severity: { value: "critical" } },
  });
  if (${!second} || i < ${SERVICES - 1}) new pagerduty.ServiceEnablement("aiops-" + i, { service: svc.id, feature: "aiops", enabled: false });
}
`;

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  const previous = previousTarball();
  emu = await startEmulatorProcess();
  project = PulumiProject.create("upgrade", program(), emu);
  installTarball(project.dir, previous);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

interface Entry {
  name: string;
  kind: string;
  inputs: string;
  outputs: string;
}

/** `__provider` of every resource of ours, inputs and outputs. */
function providers(): Entry[] {
  return project
    .resources()
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/pagerduty:"))
    .map((r) => ({ name: r.urn.split("::").pop()!, kind: r.type.split(":").pop()!, inputs: r.inputs.__provider, outputs: r.outputs.__provider }));
}

const oldForm = (p: string) => p.length > 1500 && p.includes('"organization/upgrade/dev"');
const newForm = (kind: string) => `exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").${kind}`;

async function aiopsEnabled(name: string): Promise<boolean> {
  const services = (await emu.api("GET", `/services?query=${encodeURIComponent(name)}`)).body.services;
  const r = await emu.api("GET", `/services/${services[0].id}/enablements`);
  return r.body.enablements.find((e: { feature: string }) => e.feature === "aiops").enabled;
}

test(`the previous version (${PREVIOUS_COMMIT.slice(0, 7)}) makes the stack; its __provider captured the stack`, async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const found = providers();
  expect(found).toHaveLength(SERVICES * 4);
  for (const p of found) expect(oldForm(p.inputs) && oldForm(p.outputs)).toBe(true);
  expect(await aiopsEnabled(`Upgrade ${SERVICES - 1}`)).toBe(false);
});

/** The top-level outputs of ours that hold null (older versions stored every unset output as null). */
const nullOutputs = () =>
  project
    .resources()
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/pagerduty:"))
    .flatMap((r) => Object.keys(r.outputs).filter((k) => r.outputs[k] === null));

test("with the current package, refresh reads through the old __provider and changes nothing; unset outputs leave the state", () => {
  expect(nullOutputs()).toEqual(expect.arrayContaining(["vendor", "integrationEmail", "supportHours"]));
  installTarball(project.dir, tarball());
  project.must(["refresh", "--yes", "--expect-no-changes"]);
  for (const p of providers()) expect(oldForm(p.outputs)).toBe(true);
  expect(nullOutputs()).toEqual([]);
});

test("the first up updates, deletes through the old __provider and moves every resource to the one-line __provider without a request", async () => {
  // The preview names the move: every resource is an update (of __provider alone, for most).
  const ops = project.previewSteps().map((s) => s.op);
  expect(ops).toHaveLength(SERVICES * 4);
  expect(new Set(ops)).toEqual(new Set(["update"]));

  project.setProgram(program(true));
  const before = await requestCounts(emu);
  project.must(["up", "--yes", "--skip-preview"]);
  const after = await requestCounts(emu);
  const writes = Object.fromEntries(
    Object.keys(after)
      .filter((route) => /^(POST|PUT|PATCH|DELETE) /.test(route) && !route.includes("/oauth/"))
      .map((route) => [route, after[route] - (before[route] ?? 0)])
      .filter(([, n]) => n),
  );
  // The two descriptions, and the removed enablement's delete (it writes the value found before
  // back): nothing for the move itself.
  expect(writes).toEqual({ "PUT /services/:id": SERVICES, "PUT /services/:id/enablements/:feature_name": 1 });
  expect(await aiopsEnabled(`Upgrade ${SERVICES - 1}`)).toBe(true);

  const found = providers();
  expect(found).toHaveLength(SERVICES * 4 - 1);
  for (const p of found) {
    expect(p.inputs).toBe(p.outputs);
    expect(p.outputs).toBe(newForm(p.kind));
  }
});

test("a state that records the declared inputs as a tree (versions before issue 38) refreshes with no change and is rewritten as text", async () => {
  const declared = () =>
    project
      .resources()
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/pagerduty:"))
      .map((r) => r.outputs.__declared);
  const texts = declared();
  // The updated resources hold the record (the moved-only ones keep the previous version's state, which has none).
  const recorded = texts.filter((d) => d !== undefined);
  expect(recorded.length).toBeGreaterThanOrEqual(SERVICES);
  expect(recorded.every((d) => typeof d === "string" && d.length > 0)).toBe(true);
  // The state as the versions before the text wrote it: the same shapes, as trees of `true`s.
  const exported = JSON.parse(project.must(["stack", "export"]).stdout);
  for (const r of exported.deployment.resources) if (typeof r.outputs?.__declared === "string") r.outputs.__declared = parseShapeText(r.outputs.__declared);
  const file = path.join(project.dir, "tree-state.json");
  fs.writeFileSync(file, JSON.stringify(exported));
  project.must(["stack", "import", "--file", file]);
  expect(
    declared()
      .filter((d) => d !== undefined)
      .every((d) => typeof d === "object"),
  ).toBe(true);

  expect(project.run(["preview", "--expect-no-changes"]).code).toBe(0);
  const before = await requestCounts(emu);
  project.must(["refresh", "--yes", "--expect-no-changes"]);
  const after = await requestCounts(emu);
  expect(Object.keys(after).filter((route) => /^(POST|PUT|DELETE) /.test(route) && !route.includes("/oauth/") && after[route] !== before[route])).toEqual([]);
  expect(declared()).toEqual(texts);
});

test("afterwards nothing is left to move, and destroy removes everything", async () => {
  expect(project.run(["preview", "--expect-no-changes"]).code).toBe(0);
  expect(project.run(["preview", "--refresh", "--expect-no-changes"]).code).toBe(0);
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect(project.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toHaveLength(0);
  const left = (await emu.api("GET", "/services?query=Upgrade")).body.services;
  expect(left).toHaveLength(0);
});

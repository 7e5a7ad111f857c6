// pagerduty-adopt end to end: services and children made by hand, the program the CLI prints for
// them run with the real Pulumi CLI, and nothing created, duplicated or changed.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { aiops, createService, fieldValues, requestCounts, setAiops, setFieldValues } from "./fixtures";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(15 * 60_000);

let emu: EmulatorProcess;
let project: PulumiProject;
let checkout: string;
let search: string;

/**
 * Runs the installed bin of the packed package outside any Pulumi project, with credentials in the
 * environment only; `inProject`: in the project's directory with no credentials in the environment
 * (the stack's config has them).
 */
function adoptCli(args: string[], opts: { inProject?: boolean; token?: string } = {}) {
  const bin = path.join(project.dir, "node_modules/.bin/pagerduty-adopt");
  const creds = opts.inProject ? {} : { PAGERDUTY_API_URL: emu.apiUrl, PAGERDUTY_TOKEN: opts.token ?? emu.apiKey };
  const env = { ...project.env, PAGERDUTY_TOKEN: "", PAGERDUTY_CLIENT_ID: "", PAGERDUTY_CLIENT_SECRET: "", ...creds };
  return spawnSync(bin, args, { cwd: opts.inProject ? project.dir : os.tmpdir(), env, encoding: "utf8" });
}

/** Rule actions without "none" markers: `null` and `[]` mean "no such action", as absent keys do. */
const noneless = (actions: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(actions ?? {}).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));

/** Everything adoption must leave alone: ids, counts and the fields of every object. */
async function inventory() {
  const services = (await emu.api("GET", "/services?limit=100")).body.services;
  const out: Record<string, unknown> = {};
  for (const s of services) {
    const { integrations, ...fields } = s;
    out[s.id] = {
      fields,
      integrations: await Promise.all(
        integrations.map(async (i: { id: string }) => (await emu.api("GET", `/services/${s.id}/integrations/${i.id}`)).body.integration),
      ),
      rules: (await emu.api("GET", `/services/${s.id}/rules?limit=100`)).body.rules.map((r: any) => ({ ...r, actions: noneless(r.actions) })),
      values: await fieldValues(emu, s.id),
      aiops: (await aiops(emu, s.id)).enabled,
    };
  }
  return out;
}

beforeAll(async () => {
  emu = await startEmulatorProcess();
  checkout = await createService(emu, "Adopt Checkout", {
    description: "Takes orders",
    acknowledgement_timeout: 600,
    auto_resolve_timeout: null,
    incident_urgency_rule: { type: "constant", urgency: "low" },
  });
  search = await createService(emu, "Adopt Search");
  for (const integration of [
    { type: "events_api_v2_inbound_integration", name: "Events" },
    { type: "generic_email_inbound_integration", name: "Email", integration_email: "checkout@acme.example", email_incident_creation: "on_new_email_subject" },
  ]) {
    expect((await emu.api("POST", `/services/${checkout}/integrations`, { integration })).status).toBe(201);
  }
  for (const [i, value] of ["disk", "cpu"].entries()) {
    const rule = {
      position: i,
      disabled: i === 1,
      conditions: { operator: "and", subconditions: [{ operator: "contains", parameters: { path: "summary", value } }] },
      actions: { annotate: { value }, severity: { value: "critical" } },
    };
    expect((await emu.api("POST", `/services/${checkout}/rules`, { rule })).status).toBe(201);
  }
  await setFieldValues(emu, checkout, { tier: "gold", pci: true });
  await setAiops(emu, checkout, false);
  project = PulumiProject.create("adopt", "export {};\n", emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("--service and --name select services; errors name what is missing", () => {
  const byId = adoptCli(["--service", search]);
  expect(byId.status).toBe(0);
  expect(byId.stdout).toContain(`adoptId: "${search}"`);
  expect(byId.stdout).not.toContain(checkout);
  const byName = adoptCli(["--name", "Adopt Checkout"]);
  expect(byName.stdout).toContain(`adoptId: "${checkout}"`);
  expect(byName.stdout).not.toContain(search);
  const missing = adoptCli(["--name", "Adopt"]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toBe('pagerduty-adopt: --name "Adopt": no service has exactly this name\n');
  expect(adoptCli(["--bogus"]).status).toBe(2);
});

test("the CLI as a new user meets it: --help, --version, --out says what it wrote, errors name the variables", () => {
  const help = adoptCli(["--help"]);
  expect(help.status).toBe(0);
  for (const flag of ["--service", "--name", "--out", "--help", "--version", "PAGERDUTY_TOKEN", "PAGERDUTY_CLIENT_ID"]) expect(help.stdout).toContain(flag);
  const version = adoptCli(["--version"]);
  expect(version.status).toBe(0);
  expect(version.stdout.trim()).toBe(require(path.join(project.dir, "node_modules/pulumi-pagerduty-dynamic/package.json")).version);

  const file = path.join(project.dir, "adopted.ts");
  const out = adoptCli(["--name", "Adopt Checkout", "--out", file]);
  expect(out.status).toBe(0);
  expect(out.stdout).toBe("");
  expect(out.stderr).toBe(`pagerduty-adopt: wrote ${file}, adopting 1 service\n`);
  expect(fs.readFileSync(file, "utf8")).toContain(`adoptId: "${checkout}"`);

  const none = adoptCli([], { token: "" });
  expect(none.status).toBe(1);
  expect(none.stderr).toMatch(/^pagerduty-adopt: no PagerDuty credentials: set PAGERDUTY_CLIENT_ID and PAGERDUTY_CLIENT_SECRET .*PAGERDUTY_TOKEN/);
  expect(none.stderr).not.toContain("pagerduty:");
});

test("in the stack's project it reads the stack's credentials; its file, imported by the program, adopts everything: up creates and writes nothing", async () => {
  const file = path.join(project.dir, "adopted.ts");
  const r = adoptCli(["--out", file], { inProject: true });
  expect(r.status).toBe(0);
  expect(r.stderr).toBe(`pagerduty-adopt: wrote ${file}, adopting 2 services\n`);
  const program = fs.readFileSync(file, "utf8");
  // The routing key is a secret: the CLI never prints it.
  const key = (await emu.api("GET", `/services/${checkout}?include[]=integrations`)).body.service.integrations.find(
    (i: any) => i.integration_key,
  ).integration_key;
  expect(program).not.toContain(key);
  expect(program).not.toContain(emu.apiKey);

  const before = await inventory();
  const writesBefore = await requestCounts(emu);
  // The program the user already has loads the generated module (docs/adopting.md).
  project.setProgram('import "./adopted";\n');
  const preview = project.must(["preview"]);
  expect(preview.stdout + preview.stderr).toMatch(new RegExp(`Service adoptId ${checkout}: shown as a create, \`up\` takes over the existing object`));
  project.must(["up", "--yes", "--skip-preview"]);

  const types = project
    .resources()
    .filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/pagerduty:"))
    .map((x) => x.type.split(":").pop());
  expect(types.sort()).toEqual(
    [
      "Service",
      "Service",
      "ServiceIntegration",
      "ServiceIntegration",
      "ServiceEventRule",
      "ServiceEventRule",
      "ServiceCustomFieldValues",
      "ServiceEnablement",
      "ServiceEnablement",
    ].sort(),
  );
  const after = await inventory();
  // Same objects, same ids, same values, the enablements' updated_at included: nothing was written.
  expect(after).toEqual(before);
  const writes = await requestCounts(emu);
  const changed = Object.keys(writes).filter((route) => !route.startsWith("GET ") && writes[route] !== (writesBefore[route] ?? 0));
  expect(changed.filter((route) => !route.startsWith("POST /oauth"))).toEqual([]);
});

test("after adoption, preview shows no changes", () => {
  project.must(["preview", "--expect-no-changes"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
});

test("destroy deletes the adopted services (the program owns them now)", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
});

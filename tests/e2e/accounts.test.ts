// Two PagerDuty accounts in one program: the default account (US, at the emulator's root) and the
// named account "eu" (the EU account, at the emulator's EU base URL), each with its own OAuth app.
// Real CLI, emulator process. Covers: up across both, drift in one account reported for it alone,
// one account's secret rotated, its credentials missing, a resource moved between accounts, names
// unique per account, and a crash mid-`up` recovered in both.
import * as fs from "node:fs";
import * as path from "node:path";
import { clearFaults, killSession, recover, slowCreates, startDetached, waitFor } from "./crash-support";
import { DRIFT } from "./fixtures";
import { PulumiProject, ROOT, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(15 * 60_000);

const TYPE = "pulumi-nodejs:dynamic/pagerduty:";

// The same names in both accounts: each account holds its own. "mover" lives where moverAccount says.
const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pd from "pulumi-pagerduty-dynamic";
const cfg = new pulumi.Config();
const stack = pulumi.getStack();
const n = cfg.getNumber("services") ?? 1;
const accounts = [
  { key: "us", account: undefined, policy: cfg.require("escalationPolicyId") },
  { key: "eu", account: new pd.Account("eu"), policy: cfg.require("euEscalationPolicyId") },
];
for (const a of accounts) {
  for (let i = 0; i < n; i++) {
    const svc = new pd.Service(\`\${a.key}-svc\${i}\`, { name: \`\${stack} svc \${i}\`, description: "managed", escalationPolicy: a.policy, account: a.account });
    new pd.ServiceIntegration(\`\${a.key}-int\${i}\`, { service: svc.id, type: "events_api_v2_inbound_integration", name: \`events \${i}\`, account: a.account });
    new pd.ServiceEventRule(\`\${a.key}-rule\${i}\`, { service: svc.id, actions: { annotate: { value: \`rule \${i}\` } }, account: a.account });
  }
}
const moverAccount = cfg.get("moverAccount");
if (cfg.getBoolean("mover")) {
  new pd.Service("mover", { name: \`\${stack} mover\`, escalationPolicy: moverAccount === "eu" ? accounts[1].policy : accounts[0].policy, account: moverAccount });
}
if (cfg.getBoolean("twins")) {
  new pd.Service("twin-a", { name: "Twin", escalationPolicy: accounts[1].policy, account: "eu" });
  new pd.Service("twin-b", { name: "Twin", escalationPolicy: accounts[1].policy, account: "eu" });
}
`;

let emu: EmulatorProcess;
let project: PulumiProject;
/** The EU app's current client (the rotation test replaces it). */
let euClient: { clientId: string; clientSecret: string };

const out = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
const setEu = (key: string, value: string, secret = false) =>
  project.must(["config", "set", "--path", ...(secret ? ["--secret"] : []), `pagerduty:accounts.eu.${key}`], 0, value);

/** Configures the named account "eu" of the stack: the EU account's Scoped OAuth app. */
function configureEu(p: PulumiProject): void {
  const eu = emu.eu!;
  p.must(["config", "set", "euEscalationPolicyId", eu.escalationPolicyId]);
  const set = (key: string, value: string, secret = false) =>
    p.must(["config", "set", "--path", ...(secret ? ["--secret"] : []), `pagerduty:accounts.eu.${key}`], 0, value);
  set("clientId", euClient.clientId);
  set("clientSecret", euClient.clientSecret, true);
  set("subdomain", eu.account.subdomain);
  set("serviceRegion", eu.account.region);
  set("apiUrl", emu.euApiUrl!);
  set("authUrl", emu.authUrl);
}

type Api = EmulatorProcess["api"];

/** The services of one account whose names start with `prefix`, with their integrations and rules. */
async function holdings(api: Api, prefix: string): Promise<{ services: string[]; integrations: string[]; rules: string[] }> {
  const r = await api<{ services: Array<{ id: string; name: string; integrations?: Array<{ id: string }> }> }>(
    "GET",
    `/services?query=${encodeURIComponent(prefix)}&limit=100&include[]=integrations`,
  );
  const services = r.body.services.filter((s) => s.name.startsWith(prefix));
  const rules: string[] = [];
  for (const s of services) rules.push(...(await api<{ rules: Array<{ id: string }> }>("GET", `/services/${s.id}/rules`)).body.rules.map((x) => x.id));
  return {
    services: services.map((s) => s.id).sort(),
    integrations: services.flatMap((s) => (s.integrations ?? []).map((i) => i.id)).sort(),
    rules: rules.sort(),
  };
}

/** What the state records in each account (by the `account` output), per kind. */
function recorded(stack?: string): Record<"default" | "eu", { services: string[]; integrations: string[]; rules: string[] }> {
  const rs = project.resources(stack);
  const of = (account: "default" | "eu", kind: string) =>
    rs
      .filter((r) => r.type === `${TYPE}${kind}` && (r.outputs?.account ?? "default") === account)
      .map((r) => r.id!)
      .sort();
  const view = (a: "default" | "eu") => ({ services: of(a, "Service"), integrations: of(a, "ServiceIntegration"), rules: of(a, "ServiceEventRule") });
  return { default: view("default"), eu: view("eu") };
}

/** Each account holds exactly what the state records for it, and a preview is clean. */
async function expectBothConverged(prefix: string, n: number, stack?: string): Promise<void> {
  const state = recorded(stack);
  for (const a of ["default", "eu"] as const) {
    expect(state[a].services).toHaveLength(n);
    expect(state[a].integrations).toHaveLength(n);
    expect(state[a].rules).toHaveLength(n);
  }
  expect(await holdings(emu.api, prefix)).toEqual(state.default);
  expect(await holdings(emu.euApi, prefix)).toEqual(state.eu);
  const pending = JSON.parse(project.must(["stack", "export", ...(stack ? ["--stack", stack] : [])]).stdout).deployment.pending_operations ?? [];
  expect(pending).toEqual([]);
  project.must(["preview", "--expect-no-changes", ...(stack ? ["--stack", stack] : [])]);
}

beforeAll(async () => {
  emu = await startEmulatorProcess();
  euClient = { ...emu.eu!.oauth };
  project = PulumiProject.create("accounts", program, emu, { services: "1" });
  configureEu(project);
  project.must(["up", "--yes", "--skip-preview"]);
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

afterEach(async () => {
  await clearFaults(emu);
});

test("up creates each account's objects in that account, with the same names in both; the state records the account", async () => {
  await expectBothConverged("dev svc", 1);
  const eu = project.resources().filter((r) => r.outputs?.account === "eu");
  expect(eu.map((r) => r.urn.split("::").pop()).sort()).toEqual(["eu-int0", "eu-rule0", "eu-svc0"]);
  // The accounts really are apart: the EU key does not see the US service, and the reverse.
  const [us, euSvc] = [recorded().default.services[0], recorded().eu.services[0]];
  expect((await emu.euApi("GET", `/services/${us}`)).status).toBe(404);
  expect((await emu.api("GET", `/services/${euSvc}`)).status).toBe(404);
  expect(project.run(DRIFT).code).toBe(0);
});

test("drift made by hand in the EU account is reported for the EU service alone", async () => {
  const id = recorded().eu.services[0];
  expect((await emu.euApi("PUT", `/services/${id}`, { service: { description: "changed by hand" } })).status).toBe(200);
  const r = project.run(DRIFT);
  expect(r.code).not.toBe(0);
  expect(out(r)).toMatch(/~ +pulumi-nodejs:dynamic\/pagerduty:Service eu-svc0 update/);
  expect(out(r)).not.toMatch(/us-svc0 update/);
  project.must(["up", "--yes", "--skip-preview", "--refresh", "--run-program"]);
  expect((await emu.euApi("GET", `/services/${id}`)).body.service.description).toBe("managed");
  expect(project.run(DRIFT).code).toBe(0);
});

test("the EU account's app rotated: refused credentials name that account; its new ones pass, the US account untouched", async () => {
  const old = emu.eu!.oauth.clientId;
  expect((await emu.admin("DELETE", `/_emulator/apps/${old}/oauth`)).status).toBe(204);
  const creds = (await emu.admin<{ clientId: string; clientSecret: string }>("POST", `/_emulator/apps/${old}/oauth`)).body;
  const refused = project.run(DRIFT);
  expect(refused.code).not.toBe(0);
  expect(out(refused)).toMatch(/refused the credentials of account "eu" in "pagerduty:accounts\.eu\.clientId" and "pagerduty:accounts\.eu\.clientSecret"/);
  euClient = creds;
  setEu("clientId", creds.clientId);
  setEu("clientSecret", creds.clientSecret, true);
  project.must(DRIFT);
  project.must(["preview", "--expect-no-changes"]);
});

test("the EU account's credentials missing fail the preview naming the account and the setting", () => {
  project.must(["config", "rm", "--path", "pagerduty:accounts.eu.clientSecret"]);
  try {
    const r = project.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect(out(r)).toMatch(/"pagerduty:accounts\.eu\.clientSecret" is required with "pagerduty:accounts\.eu\.clientId"/);
  } finally {
    setEu("clientSecret", euClient.clientSecret, true);
  }
  project.must(["preview", "--expect-no-changes"]);
});

test("a resource naming an account the stack does not declare fails the preview naming it", () => {
  project.must(["config", "set", "mover", "true"]);
  project.must(["config", "set", "moverAccount", "apac"]);
  try {
    const r = project.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect(out(r)).toMatch(/account "apac" is not configured: declare it in "pagerduty:accounts"/);
  } finally {
    project.must(["config", "rm", "moverAccount"]);
  }
});

test("moving a service to the other account replaces it: made in the EU account, deleted from the US one", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const before = project.resources().find((r) => r.urn.endsWith("::mover"))!;
  expect(before.outputs.account).toBeUndefined();
  project.must(["config", "set", "moverAccount", "eu"]);
  const preview = JSON.parse(project.must(["preview", "--json", "--diff"]).stdout);
  const step = preview.steps.find((s: { urn: string; op: string }) => s.urn.endsWith("::mover") && s.op !== "same");
  expect(step.op).toBe("replace");
  expect(step.replaceReasons ?? step.diffReasons).toContain("account");
  project.must(["up", "--yes", "--skip-preview"]);
  const after = project.resources().find((r) => r.urn.endsWith("::mover"))!;
  expect(after.outputs.account).toBe("eu");
  expect((await emu.api("GET", `/services/${before.id}`)).status).toBe(404);
  expect((await emu.euApi("GET", `/services/${after.id}`)).body.service.name).toBe("dev mover");
  project.must(["config", "set", "mover", "false"]);
  project.must(["up", "--yes", "--skip-preview"]);
  expect((await emu.euApi("GET", `/services/${after.id}`)).status).toBe(404);
});

test("two services of one account taking the same name fail the preview naming both and the account", () => {
  project.must(["config", "set", "twins", "true"]);
  try {
    const r = project.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect(out(r).replace(/\s+/g, " ")).toMatch(/Service "twin-b" and Service "twin-a" both set name "Twin" in account "eu"/);
  } finally {
    project.must(["config", "rm", "twins"]);
  }
});

test("a lost machine mid-`up` across both accounts: cancel, pagerduty-recover, up leave each account exactly what the state records", async () => {
  const n = 3;
  project.must(["stack", "init", "crash"]);
  project.must(["config", "cp", "--stack", "dev", "--dest", "crash"]);
  project.must(["config", "set", "services", String(n)]);
  await slowCreates(emu, 1500);
  const run = startDetached(project, ["up", "--yes", "--skip-preview"]);
  const made = async () => {
    const [us, eu] = [await holdings(emu.api, "crash svc"), await holdings(emu.euApi, "crash svc")];
    // A child made in each account: the others of that account are in flight (each create takes
    // 1.5 s), so the kill leaves pending creates in both; one child in all could leave none in one.
    return us.services.length >= 1 && eu.services.length >= 1 && us.integrations.length + us.rules.length >= 1 && eu.integrations.length + eu.rules.length >= 1;
  };
  await waitFor(made);
  await killSession(run);
  await clearFaults(emu);
  project.must(["cancel", "--yes"]);
  const r = recover(project);
  expect(r.code).toBe(0);
  // Each pending create was searched in its own account.
  expect(r.out).toMatch(/urn:pulumi:crash::accounts::.*eu-.*account "eu"/);
  project.must(["up", "--yes", "--skip-preview"]);
  await expectBothConverged("crash svc", n, "crash");
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect(await holdings(emu.euApi, "crash svc")).toEqual({ services: [], integrations: [], rules: [] });
  project.must(["stack", "select", "dev"]);
});

test("examples/two-accounts: up makes a service with an integration in each account; a preview is then clean; destroy empties both", async () => {
  const example = PulumiProject.create("two-accounts", fs.readFileSync(path.join(ROOT, "examples/two-accounts/index.ts"), "utf8"), emu);
  try {
    configureEu(example);
    example.must(["up", "--yes", "--skip-preview"]);
    const names = async (api: Api) => (await api<{ services: Array<{ name: string; description: string }> }>("GET", "/services?query=Checkout")).body.services;
    expect((await names(emu.api)).map((s) => s.description)).toEqual(["Checkout for US customers"]);
    expect((await names(emu.euApi)).map((s) => s.description)).toEqual(["Checkout for EU customers"]);
    const outputs = example.outputs();
    expect(outputs.euServiceUrl).toContain("/eu/");
    expect([outputs.usRoutingKey, outputs.euRoutingKey]).toEqual(["[secret]", "[secret]"]);
    example.must(["preview", "--expect-no-changes"]);
    example.must(["destroy", "--yes", "--skip-preview"]);
    expect(await names(emu.api)).toEqual([]);
    expect(await names(emu.euApi)).toEqual([]);
  } finally {
    example.remove();
  }
});

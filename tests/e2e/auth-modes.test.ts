// The other credentials end to end with the real CLI: an API key, and a user's refresh token whose
// rotation must survive from one Pulumi process to the next. Plus the granted-scope check.
import * as fs from "node:fs";
import * as path from "node:path";
import { loginForRefreshToken } from "../support/oauth-login";
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const program = (name: string) => `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
new pagerduty.Service("svc", { name: ${JSON.stringify(name)}, escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
`;

let emu: EmulatorProcess;
const projects: PulumiProject[] = [];

beforeAll(async () => {
  emu = await startEmulatorProcess();
});
afterAll(async () => {
  await emu?.stop();
  for (const p of projects) p.remove();
});

const serviceNames = async () => (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services.map((s) => s.name);

test("API key: pagerduty:token drives the whole lifecycle and never reaches state or output", async () => {
  const project = PulumiProject.create("apikey", program("Via API key"), emu, {}, { auth: "none", secretConfig: { "pagerduty:token": emu.apiKey } });
  projects.push(project);
  project.must(["up", "--yes", "--skip-preview"]);
  expect(await serviceNames()).toContain("Via API key");
  project.must(["preview", "--refresh", "--expect-no-changes"]);
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect(await serviceNames()).not.toContain("Via API key");
  // Never in state or output: the harness's secret scan (the key is a secret config value).
});

test("refresh token: the rotated token is kept, so every later process still authenticates", async () => {
  const users = (await emu.admin<{ users: any[] }>("GET", "/_emulator/registry")).body.users;
  const admin = users.find((u) => u.email === "admin@acme.example");
  const refreshToken = await loginForRefreshToken({
    authUrl: emu.authUrl,
    clientId: emu.oauth.clientId,
    clientSecret: emu.oauth.clientSecret,
    email: admin.email,
    password: admin.password,
    scope: "services.read services.write",
  });
  const project = PulumiProject.create("refresh", program("Via user token"), emu, {}, { secretConfig: { "pagerduty:refreshToken": refreshToken } });
  projects.push(project);
  const before = (await emu.admin("GET", "/_emulator/stats")).body.tokensIssued.refresh_token;

  // Three separate processes: the first spends the configured token, the later ones use the rotation.
  project.must(["up", "--yes", "--skip-preview"]);
  project.must(["preview", "--refresh", "--expect-no-changes"]);
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect(await serviceNames()).not.toContain("Via user token");
  expect((await emu.admin("GET", "/_emulator/stats")).body.tokensIssued.refresh_token - before).toBeGreaterThanOrEqual(3);

  // The rotated token lives in a private cache file, never in state or output.
  const cacheDir = path.join(project.env.XDG_CACHE_HOME!, "pulumi-pagerduty-dynamic-tokens");
  const files = fs.readdirSync(cacheDir).filter((f) => f.endsWith(".json"));
  expect(files).toHaveLength(1);
  expect(fs.statSync(path.join(cacheDir, files[0]!)).mode & 0o777).toBe(0o600);
  expect(fs.statSync(cacheDir).mode & 0o777).toBe(0o700);
  expect(files[0]).not.toContain(refreshToken);
  // State and output: the harness's secret scan (every token the emulator issued).
});

test("a grant lacking a needed scope fails before any write, naming the scope", async () => {
  const project = PulumiProject.create("scopes", program("Never created"), emu, { "pagerduty:scopes": "services.read" });
  projects.push(project);
  const r = project.run(["up", "--yes", "--skip-preview"]);
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/lacks "services\.write"/);
  expect(await serviceNames()).not.toContain("Never created");
});

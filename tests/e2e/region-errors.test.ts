// Credentials of an account in one service region used with the other region's settings: the
// preview fails naming the region settings and the account, not the credentials, and nothing is
// created. Real CLI, emulator process (its EU account "globex" is served under /eu).
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

const program = `
import * as pagerduty from "pulumi-pagerduty-dynamic";
new pagerduty.Service("svc", { name: "Region", escalationPolicy: "PANY" });
`;
const namedProgram = program.replace('escalationPolicy: "PANY" }', 'escalationPolicy: "PANY", account: "eu" }');

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  // The EU account's app, with the US REST base: what a copied US configuration gives.
  project = PulumiProject.create(
    "regionerrors",
    program,
    emu,
    {
      "pagerduty:clientId": emu.eu!.oauth.clientId,
      "pagerduty:subdomain": emu.eu!.account.subdomain,
      "pagerduty:serviceRegion": "eu",
      "pagerduty:apiUrl": emu.apiUrl,
    },
    { auth: "none", secretConfig: { "pagerduty:clientSecret": emu.eu!.oauth.clientSecret } },
  );
});

afterAll(async () => {
  project?.remove();
  await emu?.stop();
});

const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");
const services = async () => (await emu.euApi<{ services: unknown[] }>("GET", "/services?query=Region")).body.services.length;

test("an EU app at the US REST API: the preview names serviceRegion, apiUrl and the account, and the URL to use", async () => {
  const r = project.run(["preview"]);
  expect(r.code).not.toBe(0);
  const out = flat(r);
  expect(out).toContain(
    `PagerDuty's REST API at ${emu.apiUrl} refused the credentials of the default account, which belong to an account of another service region`,
  );
  expect(out).toContain(`use ${emu.euApiUrl}`);
  expect(out).toMatch(
    /Set "pagerduty:serviceRegion" \(env PAGERDUTY_SERVICE_REGION\) to the account's service region \("us" or "eu"; now "eu"\) and "pagerduty:apiUrl" \(env PAGERDUTY_API_URL\)/,
  );
  expect(out).not.toMatch(/refused the credentials in "pagerduty:clientId"/);
  expect(project.run(["up", "--yes", "--skip-preview"]).code).not.toBe(0);
  expect(await services()).toBe(0);
});

test("an EU app asked for in the US region: the preview names serviceRegion and subdomain", () => {
  project.must(["config", "set", "pagerduty:serviceRegion", "us"]);
  try {
    const out = flat(project.run(["preview"]));
    expect(out).toContain(`PagerDuty's identity service found no account "${emu.eu!.account.subdomain}" in the US service region for the default account`);
    expect(out).toMatch(
      /Set "pagerduty:subdomain" \(env PAGERDUTY_SUBDOMAIN\) to the account's subdomain and "pagerduty:serviceRegion" \(env PAGERDUTY_SERVICE_REGION\) to its service region/,
    );
    expect(out).not.toMatch(/refused the credentials in "pagerduty:clientId"/);
  } finally {
    project.must(["config", "set", "pagerduty:serviceRegion", "eu"]);
  }
});

test("a named account: its own keys and its name", () => {
  const eu = { clientId: emu.eu!.oauth.clientId, subdomain: emu.eu!.account.subdomain, serviceRegion: "eu", apiUrl: emu.apiUrl, authUrl: emu.authUrl };
  for (const [k, v] of Object.entries(eu)) project.must(["config", "set", "--path", "--", `pagerduty:accounts.eu.${k}`, v]);
  project.must(["config", "set", "--path", "--secret", "pagerduty:accounts.eu.clientSecret"], 0, emu.eu!.oauth.clientSecret);
  project.must(["config", "set", "pagerduty:apiUrl", emu.euApiUrl]);
  project.setProgram(namedProgram);
  const out = flat(project.run(["preview"]));
  expect(out).toContain(`PagerDuty's REST API at ${emu.apiUrl} refused the credentials of account "eu"`);
  expect(out).toContain('"pagerduty:accounts.eu.serviceRegion"');
  expect(out).toContain('"pagerduty:accounts.eu.apiUrl"');
  // With the region's REST API the same settings work.
  project.must(["config", "set", "--path", "pagerduty:accounts.eu.apiUrl", emu.euApiUrl]);
  const ok = project.run(["preview"]);
  expect(flat(ok)).not.toMatch(/refused the credentials/);
});

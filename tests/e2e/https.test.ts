// The provider over HTTPS with certificate checks on: the emulator with --tls, the real Pulumi CLI
// trusting the emulator's CA through NODE_EXTRA_CA_CERTS (inherited by the dynamic provider's
// process), and the TLS failures: the same stack without the CA failing on the certificate, not
// falling back to HTTP, and an https URL at a plain-HTTP server; each names the URL, the setting
// and the way out.
import { PulumiProject, startEmulatorProcess, type EmulatorProcess } from "./harness";
import { resourceOf, serviceIdOf } from "./stack";

jest.setTimeout(15 * 60_000);

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
const escalationPolicy = new pulumi.Config().require("escalationPolicyId");
const svc = new pagerduty.Service("svc", { name: "Checkout over TLS", escalationPolicy });
const events = new pagerduty.ServiceIntegration("events", { service: svc.id, type: "events_api_v2_inbound_integration", name: "Alerts" });
export const serviceId = svc.id;
`;

let emu: EmulatorProcess;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess(["--tls"]);
  project = PulumiProject.create("https", program, emu);
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("the emulator's URLs are https and the stack config points at them", () => {
  expect(emu.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(emu.authUrl).toBe(emu.apiUrl);
  expect(emu.caFile).toBeTruthy();
});

test("without the CA: a certificate error naming the authUrl, NODE_EXTRA_CA_CERTS and the emulator's caFile, and nothing created", async () => {
  delete project.env.NODE_EXTRA_CA_CERTS;
  const r = project.run(["up", "--yes", "--skip-preview"]);
  expect(r.code).not.toBe(0);
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|certificate/i);
  const flat = out.replace(/\s+/g, " ");
  expect(flat).toContain(
    `POST ${emu.authUrl}/oauth/token failed: SELF_SIGNED_CERT_IN_CHAIN: the certificate of ${emu.authUrl} (pagerduty:authUrl or PAGERDUTY_AUTH_URL) is not signed by a CA this process trusts`,
  );
  expect(flat).toMatch(/set NODE_EXTRA_CA_CERTS=<CA file> in the environment of `pulumi`/);
  expect(flat).toMatch(/`caFile` of its ready line/);
  // Nothing went over plain HTTP instead (the emulator serves only https; no http:// URL was used).
  expect(out).not.toContain(emu.apiUrl.replace("https:", "http:"));
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
  expect(resourceOf(project, "pulumi-nodejs:dynamic/pagerduty:Service", "svc")).toBeUndefined();
});

test("an https URL at a plain-HTTP server says it does not answer in TLS", async () => {
  const plain = await startEmulatorProcess(); // without --tls: plain HTTP
  const wrong = plain.authUrl.replace(/^http:/, "https:");
  project.must(["config", "set", "pagerduty:authUrl", wrong]);
  try {
    const r = project.run(["preview"]);
    expect(r.code).not.toBe(0);
    expect((r.stdout + r.stderr).replace(/\s+/g, " ")).toContain(
      `${wrong} (pagerduty:authUrl or PAGERDUTY_AUTH_URL) does not answer in TLS; if it serves plain HTTP, give it an http:// URL`,
    );
  } finally {
    project.must(["config", "set", "pagerduty:authUrl", emu.authUrl]);
    await plain.stop();
  }
});

test("trusting the CA (NODE_EXTRA_CA_CERTS): up, no-change preview and destroy of a service with an integration", async () => {
  project.env.NODE_EXTRA_CA_CERTS = emu.caFile;
  project.must(["up", "--yes", "--skip-preview"]);
  const id = serviceIdOf(project, "svc");
  const live = await emu.api("GET", `/services/${id}?include[]=integrations`);
  expect(live.status).toBe(200);
  expect(live.body.service.name).toBe("Checkout over TLS");
  expect(live.body.service.integrations.map((i: { name: string }) => i.name)).toEqual(["Alerts"]);
  // The service's links carry the https origin the provider used.
  expect(live.body.service.self.startsWith(emu.apiUrl)).toBe(true);

  project.must(["preview", "--expect-no-changes"]);
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", `/services/${id}`)).status).toBe(404);
});

// The provider's configure proves the credentials against a live emulator before any operation:
// missing or refused ones fail naming the settings; a setting not known until apply is not judged.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { startEmulator } from "../../emulator/src";
import { configure, deployment } from "../../provider";
import { UNKNOWN } from "../../provider/kernel/check";

const getClient = () => deployment.context().client;

let emu: Awaited<ReturnType<typeof startEmulator>>;
const saved = { ...process.env };

beforeAll(async () => {
  for (const key of Object.keys(process.env)) if (key.startsWith("PAGERDUTY_")) delete process.env[key];
  // The entry point keeps tokens for later processes: here in a directory of this test's own.
  process.env.XDG_CACHE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-configure-"));
  emu = await startEmulator({ port: 0 });
});
afterEach(() => deployment.reset());
afterAll(async () => {
  fs.rmSync(process.env.XDG_CACHE_HOME!, { recursive: true, force: true });
  process.env = { ...saved };
  await emu?.close();
});

const request = (values: Record<string, string>) => ({ config: { get: (key: string) => values[key] } }) as unknown as dynamic.ConfigureRequest;
const account = () => ({
  "pagerduty:apiUrl": emu.apiUrl,
  "pagerduty:authUrl": emu.authUrl,
  "pagerduty:subdomain": emu.seed.account.subdomain,
  "pagerduty:serviceRegion": emu.seed.account.region,
});
const tokensIssued = async () =>
  ((await (await fetch(`${emu.url}/_emulator/stats`, { headers: { "x-emulator-admin-token": emu.adminToken } })).json()) as any).tokensIssued
    .client_credentials as number;

test("working client credentials: configure fetches the token the operations then reuse", async () => {
  const before = await tokensIssued();
  await configure(request({ ...account(), "pagerduty:clientId": emu.seed.oauth.clientId, "pagerduty:clientSecret": emu.seed.oauth.clientSecret }));
  await configure(request({ ...account(), "pagerduty:clientId": emu.seed.oauth.clientId, "pagerduty:clientSecret": emu.seed.oauth.clientSecret }));
  await getClient().request("GET", "/services", { scopes: ["services.read"] });
  expect((await tokensIssued()) - before).toBe(1);
});

test("no credentials: an error naming the settings", async () => {
  await expect(configure(request(account()))).rejects.toThrow(
    /no PagerDuty credentials: set "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret"/,
  );
});

test("a wrong client secret: an error naming pagerduty:clientSecret and the fix, without the secret", async () => {
  const wrong = "not-the-secret-42";
  const e = await configure(request({ ...account(), "pagerduty:clientId": emu.seed.oauth.clientId, "pagerduty:clientSecret": wrong })).catch((x) => x);
  expect(e).toMatchObject({ code: "ERR_CONFIG" });
  expect(e.message).toMatch(
    /^PagerDuty refused the credentials in "pagerduty:clientId" \(env PAGERDUTY_CLIENT_ID\) and "pagerduty:clientSecret" \(env PAGERDUTY_CLIENT_SECRET\): token request failed: 401 invalid_client/,
  );
  expect(e.message).toMatch(/--run-program/);
  expect(e.message).not.toContain(wrong);
});

test("a wrong API key: an error naming pagerduty:token", async () => {
  await expect(configure(request({ ...account(), "pagerduty:token": "not-a-key" }))).rejects.toThrow(
    /PagerDuty refused the credentials in "pagerduty:token" \(env PAGERDUTY_TOKEN\)/,
  );
  await expect(configure(request({ ...account(), "pagerduty:token": emu.seed.apiKey }))).resolves.toBeUndefined();
});

test("a setting not known until apply is not judged", async () => {
  await expect(configure(request({ ...account(), "pagerduty:clientId": emu.seed.oauth.clientId, "pagerduty:clientSecret": UNKNOWN }))).resolves.toBeUndefined();
});

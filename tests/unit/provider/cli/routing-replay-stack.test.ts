// provider/cli/routing-throwaway-stack.ts without pulumi: the settings a throwaway stack takes from
// the emulator's ready line (the client secret marked secret, so it goes on stdin), a ready line
// that lacks them, and a directory that is no Pulumi project, refused before anything is made.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { deployThrowaway, emulatorSettings } from "../../../../provider/cli/routing-throwaway-stack";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-replay-stack-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const readyLine = (line: unknown) => {
  const file = path.join(dir, `ready-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
  return file;
};

const READY = {
  url: "http://127.0.0.1:4010",
  adminToken: "admin-token-xyz",
  account: { subdomain: "acme", region: "us" },
  oauth: { clientId: "client-123", clientSecret: "secret-456", scopes: "services.read" },
  apiKey: "api-key-789",
  escalationPolicyId: "PEP0001",
};

test("the ready line's URLs, account, OAuth client (its secret as a secret) and escalation policy, as docs/testing-routing.md configures a stack", () => {
  expect(emulatorSettings(readyLine(READY))).toEqual([
    { key: "pagerduty:apiUrl", value: "http://127.0.0.1:4010" },
    { key: "pagerduty:authUrl", value: "http://127.0.0.1:4010" },
    { key: "pagerduty:subdomain", value: "acme" },
    { key: "pagerduty:serviceRegion", value: "us" },
    { key: "pagerduty:clientId", value: "client-123" },
    { key: "pagerduty:clientSecret", value: "secret-456", secret: true },
    { key: "escalationPolicyId", value: "PEP0001" },
  ]);
});

test("a ready line without what a stack needs is refused, naming the settings and never quoting a secret", () => {
  const { oauth: _oauth, ...noClient } = READY;
  expect(() => emulatorSettings(readyLine(noClient))).toThrow(
    /lacks what a stack needs for pagerduty:clientId, pagerduty:clientSecret \(is it pagerduty-emulator's\?\)/,
  );
  const file = path.join(dir, "not-json");
  fs.writeFileSync(file, "starting...\n");
  expect(() => emulatorSettings(file)).toThrow(`--emulator ${file}: no ready line of the emulator to configure a stack from`);
  try {
    emulatorSettings(readyLine({ ...READY, escalationPolicyId: "" }));
    throw new Error("accepted");
  } catch (e) {
    expect((e as Error).message).toMatch(/escalationPolicyId/);
    expect((e as Error).message).not.toContain("secret-456");
  }
});

test("a directory that is no Pulumi project is refused before any temporary directory is made", () => {
  const before = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("pagerduty-replay-"));
  expect(() => deployThrowaway(dir, "replay-base", [])).toThrow(`${dir} is not a Pulumi project (no Pulumi.yaml)`);
  expect(fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("pagerduty-replay-"))).toEqual(before);
});

// examples/full as a user runs it: every resource and lookup, up → no-change preview → destroy.
import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiProject, ROOT, startEmulatorProcess, type RunningEmulator } from "./harness";

jest.setTimeout(15 * 60_000);

let emu: RunningEmulator;
let project: PulumiProject;

beforeAll(async () => {
  emu = await startEmulatorProcess();
  project = PulumiProject.create("full", fs.readFileSync(path.join(ROOT, "examples/full/index.ts"), "utf8"), emu, {}, { typecheck: true });
});

afterAll(async () => {
  await emu?.stop();
  project?.remove();
});

test("a first preview works while the lookups' arguments are still unknown", async () => {
  const r = project.must(["preview"]);
  expect(r.stdout).toMatch(/\+ +pulumi-nodejs:dynamic\/pagerduty:Lookup +checkout-audit +create/);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
});

test("up creates everything and the lookups read it back", async () => {
  project.must(["up", "--yes", "--skip-preview"]);
  const out = JSON.parse(project.must(["stack", "output", "--json", "--show-secrets"]).stdout);
  const services = (await emu.api("GET", "/services")).body.services;
  expect(services.map((s: { name: string }) => s.name)).toEqual(["Checkout API"]);
  const checkout = services[0];
  expect(out.foundId).toBe(checkout.id);
  expect(out.ruleOrder).toEqual([`0: ${out.diskRuleId}`, `1: ${out.heartbeatRuleId}`]);
  expect(out.aiopsEnabled).toBe(false);
  expect(out.tier).toBe("gold");
  expect(out.previousFieldValues).toEqual({ tier: null, runbook: null, pci: null });
  expect(out.auditActions[out.auditActions.length - 1]).toBe("create"); // newest first: the service's creation is last
  expect(out.routingKey).toMatch(/^[0-9a-z]{32}$/i);
  // The routing key is a secret: masked in output, never plaintext in state.
  expect(project.must(["stack", "output", "routingKey"]).stdout).toContain("[secret]");
  expect(project.stateText()).not.toContain(out.routingKey);
});

test("a second preview shows no changes", () => {
  project.must(["preview", "--expect-no-changes"]);
});

test("destroy leaves the emulator as it started", async () => {
  project.must(["destroy", "--yes", "--skip-preview"]);
  expect((await emu.api("GET", "/services")).body.services).toEqual([]);
});

// PagerDuty's official clients, unchanged, against the emulator over HTTPS (`--tls`, trusting the
// CA of the ready line as a user trusts a private CA): `@pagerduty/pdjs` (a devDependency) and the
// python `pagerduty` client (from PyPI, in a virtualenv made here and cached outside the clone;
// nothing is installed system-wide). Each runs services CRUD and paged listing, integrations
// (Events API v2; email with filters), event rules create/list/get/update/delete, custom field
// values get/put, enablements get/put and audit records by cursor, as its users write them. A test
// fails when the emulator refuses a request these clients make.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRoot } from "../../provider/fs/durable-file";
import { ROOT, startEmulatorProcess, type EmulatorProcess } from "../e2e/harness";

jest.setTimeout(10 * 60_000);

const PYTHON_CLIENT = "pagerduty==7.2.0";
const CACHE = cacheRoot();

let emu: EmulatorProcess;

beforeAll(async () => {
  emu = await startEmulatorProcess(["--tls"]);
  expect(emu.url).toMatch(/^https:/);
});

afterAll(async () => {
  await emu?.stop();
});

/** What both clients must have seen. */
function expectScenario(seen: Record<string, unknown>, who: string): void {
  expect(seen).toMatchObject({
    service_name: expect.stringContaining(who),
    service_description: `edited by ${who === "py" ? "python" : "pdjs"}`,
    listed: true,
    integration_key_length: 32,
    email_filters: [expect.objectContaining({ subject_mode: "match", subject_regex: "^ALERT", body_mode: "always", from_email_mode: "always" })],
    integration_renamed: "events renamed",
    rules_listed: true,
    rule_annotate: `from ${who === "py" ? "python" : "pdjs"}`,
    rule_disabled: true,
    rules_left: 2,
    field_names: ["pci", "runbook", "tier"],
    enablements: ["aiops"],
    aiops_enabled: false,
    audit_ids_unique: true,
  });
  // create, two integrations, an integration update, three rules, a rule update and delete, the
  // description, the values and the enablement: more than one page of 2.
  expect(seen.audit_records as number).toBeGreaterThan(4);
}

test("@pagerduty/pdjs", () => {
  const r = spawnSync(process.execPath, [path.join(__dirname, "pdjs-scenario.js")], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: emu.caFile,
      PD_SERVER: new URL(emu.url).host,
      PD_API_KEY: emu.apiKey,
      PD_ESCALATION_POLICY: emu.escalationPolicyId,
      PD_PREFIX: "pdjs",
    },
  });
  if (r.status !== 0) throw new Error(`pdjs scenario exited ${r.status}: ${r.stderr}`);
  const seen = JSON.parse(r.stdout);
  expectScenario(seen, "pdjs");
  expect(seen.pages).toBe(3);
  expect(seen.tier).toBe("silver");
});

/** A virtualenv with the client, made once and kept in the cache (like the Pulumi build). */
function pythonWithClient(): string {
  const venv = path.join(CACHE, `py-${PYTHON_CLIENT.replace(/[^a-z0-9.]+/gi, "-")}`);
  const python = path.join(venv, "bin", "python");
  if (!fs.existsSync(path.join(venv, ".complete"))) {
    fs.rmSync(venv, { recursive: true, force: true });
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
    execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYTHON_CLIENT], { stdio: "inherit" });
    fs.writeFileSync(path.join(venv, ".complete"), `${PYTHON_CLIENT}\n`);
  }
  return python;
}

test("python pagerduty client", () => {
  const r = spawnSync(pythonWithClient(), [path.join(__dirname, "python_pagerduty.py")], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      // pagerduty 7.x is built on httpx, which trusts SSL_CERT_FILE (REQUESTS_CA_BUNDLE is for requests-based pdpyras).
      SSL_CERT_FILE: emu.caFile,
      PD_BASE_URL: emu.url,
      PD_API_KEY: emu.apiKey,
      PD_ESCALATION_POLICY: emu.escalationPolicyId,
      PD_PREFIX: "py",
    },
  });
  if (r.status !== 0) throw new Error(`python scenario exited ${r.status}: ${r.stderr}`);
  const seen = JSON.parse(r.stdout);
  expectScenario(seen, "py");
  expect(seen.found).toBe(true);
  expect(seen.tier).toBe("gold");
});

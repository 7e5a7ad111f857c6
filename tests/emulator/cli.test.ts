// The CLI contract other engineers code against: exactly one JSON line on stdout, clean exit on
// signals, --data persistence across restarts, --seed files and --rate-limit.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchAppToken, type ReadyLine } from "../../emulator";
import { ACCEPT, send } from "./helpers";

const ROOT = join(__dirname, "..", "..");
const REGISTER = join(__dirname, "support", "ts-register.js");

interface Running {
  child: ChildProcessWithoutNullStreams;
  ready: ReadyLine;
  stdout: () => string;
  stderr: () => string;
}

function run(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ["-r", REGISTER, join(ROOT, "emulator", "cli.ts"), ...args], { cwd: ROOT });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, ready: JSON.parse(out.slice(0, nl)), stdout: () => out, stderr: () => err });
    });
    child.on("exit", (code) => reject(new Error(`emulator exited early (${code}): ${err}`)));
  });
}

function stop(r: Running, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.removeAllListeners("exit");
    r.child.on("exit", (code) => resolve(code));
    r.child.kill(signal);
  });
}

const api = (ready: ReadyLine, tok: string, path: string, init: RequestInit = {}) =>
  send(`${ready.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${tok}`, accept: ACCEPT, "content-type": "application/json", ...(init.headers ?? {}) } });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pd-emulator-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

jest.setTimeout(30_000);

test("prints exactly one JSON line of the agreed shape on stdout and exits 0 on SIGTERM and SIGINT", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const r = await run(["--port", "0"]);
    expect(Object.keys(r.ready)).toEqual(["url", "apiUrl", "authUrl", "adminToken", "account", "oauth", "apiKey", "escalationPolicyId"]);
    expect(r.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.ready.apiUrl).toBe(r.ready.url);
    expect(r.ready.authUrl).toBe(r.ready.url);
    expect(r.ready.account).toEqual({ subdomain: "acme", region: "us" });
    expect(r.ready.oauth.scopes).toBe("services.read services.write custom_fields.read custom_fields.write audit_records.read");
    expect(r.ready.escalationPolicyId).toMatch(/^P[A-Z0-9]{6}$/);
    const tok = await fetchAppToken(r.ready);
    expect((await api(r.ready, tok, "/services")).status).toBe(200);
    expect(await stop(r, signal)).toBe(0);
    expect(r.stdout().trim().split("\n")).toHaveLength(1);
    // No secret reaches the logs.
    for (const s of [r.ready.adminToken, r.ready.oauth.clientSecret, r.ready.apiKey, tok]) expect(r.stderr()).not.toContain(s);
  }
});

test("secrets are random per start without --data or --seed", async () => {
  const a = await run([]);
  const b = await run([]);
  expect(a.ready.oauth.clientSecret).not.toBe(b.ready.oauth.clientSecret);
  expect(a.ready.adminToken).not.toBe(b.ready.adminToken);
  await Promise.all([stop(a), stop(b)]);
});

test("--data FILE: a restart keeps the same credentials and objects; the file is valid JSON", async () => {
  const data = join(dir, "state.json");
  const first = await run(["--data", data]);
  const tok = await fetchAppToken(first.ready);
  const created = await api(first.ready, tok, "/services", {
    method: "POST",
    body: JSON.stringify({ service: { name: "persisted", escalation_policy: { id: first.ready.escalationPolicyId } } }),
  });
  expect(created.status).toBe(201);
  expect(await stop(first)).toBe(0);
  expect(() => JSON.parse(readFileSync(data, "utf8"))).not.toThrow();
  // Only token hashes are stored, never the token itself.
  expect(readFileSync(data, "utf8")).not.toContain(tok);

  const second = await run(["--data", data]);
  const { url: _u1, apiUrl: _a1, authUrl: _t1, ...creds1 } = first.ready;
  const { url: _u2, apiUrl: _a2, authUrl: _t2, ...creds2 } = second.ready;
  expect(creds2).toEqual(creds1);
  // The access token issued before the restart still works; the service is still there.
  const show = await api(second.ready, tok, `/services/${created.json.service.id}`);
  expect(show.status).toBe(200);
  expect(show.json.service.name).toBe("persisted");
  expect(await stop(second)).toBe(0);
});

test("--seed FILE fixes accounts, apps and credentials; --rate-limit sets the per-minute limit", async () => {
  const seed = join(dir, "seed.json");
  writeFileSync(seed, JSON.stringify({
    accounts: [{ subdomain: "initech", region: "eu" }],
    apps: [{ account: "initech", name: "ci", kind: "scoped", clientId: "ci-client", clientSecret: "ci-secret-0123456789", scopes: "services.read services.write" }],
    apiKeys: [{ account: "initech", token: "initech-key-0001" }],
    escalationPolicies: [{ account: "initech", name: "Ops", id: "PESCAL1" }],
  }));
  const r = await run(["--seed", seed, "--rate-limit", "5"]);
  expect(r.ready).toMatchObject({
    account: { subdomain: "initech", region: "eu" },
    oauth: { clientId: "ci-client", clientSecret: "ci-secret-0123456789", scopes: "services.read services.write" },
    apiKey: "initech-key-0001",
    escalationPolicyId: "PESCAL1",
  });
  const tok = await fetchAppToken(r.ready);
  const res = await api(r.ready, tok, "/services");
  expect(res.headers.get("ratelimit-limit")).toBe("5");
  expect(await stop(r)).toBe(0);
});

test("bad arguments → exit code 2 with usage on stderr and nothing on stdout", async () => {
  const child = spawn(process.execPath, ["-r", REGISTER, join(ROOT, "emulator", "cli.ts"), "--port", "abc"], { cwd: ROOT });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  expect(code).toBe(2);
  expect(out).toBe("");
  expect(err).toMatch(/usage: pagerduty-emulator/);
});

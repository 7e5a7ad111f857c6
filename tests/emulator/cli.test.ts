// The CLI contract other engineers code against: exactly one JSON line on stdout, clean exit on
// signals, --data persistence across restarts, --seed files and --rate-limit.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { fetchAppToken, type ReadyLine } from "../../emulator/src";
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
  const child = spawn(process.execPath, ["-r", REGISTER, join(ROOT, "emulator", "src", "cli.ts"), ...args], { cwd: ROOT });
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

/** REST call through `base` (default the US base, `apiUrl`). */
const api = (ready: ReadyLine, tok: string, path: string, init: RequestInit = {}, base = ready.apiUrl) =>
  send(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${tok}`, accept: ACCEPT, "content-type": "application/json", ...(init.headers ?? {}) } });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pd-emulator-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

jest.setTimeout(30_000);

test("prints exactly one JSON line of the agreed shape on stdout and exits 0 on SIGTERM and SIGINT", async () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const r = await run(["--port", "0"]);
    expect(Object.keys(r.ready)).toEqual([
      "url",
      "apiUrl",
      "euApiUrl",
      "authUrl",
      "eventsUrl",
      "adminToken",
      "account",
      "oauth",
      "apiKey",
      "escalationPolicyId",
      "eu",
      "lag",
    ]);
    expect(r.ready.lag).toEqual({ ms: 0, euMs: 0, deletes: false });
    expect(r.ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.ready.apiUrl).toBe(r.ready.url);
    expect(r.ready.euApiUrl).toBe(`${r.ready.url}/eu`);
    expect(r.ready.authUrl).toBe(r.ready.url);
    expect(r.ready.eventsUrl).toBe(`${r.ready.url}/v2/enqueue`);
    expect(r.ready.account).toEqual({ subdomain: "acme", region: "us" });
    expect(r.ready.oauth.scopes).toBe(
      "services.read services.write custom_fields.read custom_fields.write audit_records.read escalation_policies.read abilities.read vendors.read priorities.read incidents.read incidents.write",
    );
    expect(r.ready.escalationPolicyId).toMatch(/^P[A-Z0-9]{6}$/);
    const tok = await fetchAppToken(r.ready);
    expect((await api(r.ready, tok, "/services")).status).toBe(200);
    // The EU account's credentials work through euApiUrl (and only there).
    const eu = r.ready.eu!;
    expect(Object.keys(eu)).toEqual(["account", "oauth", "apiKey", "escalationPolicyId"]);
    expect(eu.account).toEqual({ subdomain: "globex", region: "eu" });
    const euTok = await fetchAppToken({ authUrl: r.ready.authUrl, ...eu });
    const body = JSON.stringify({ service: { type: "service", name: "eu-svc", escalation_policy: { id: eu.escalationPolicyId } } });
    expect((await api(r.ready, euTok, "/services", { method: "POST", body }, r.ready.euApiUrl)).status).toBe(201);
    const keyed = await send(`${r.ready.euApiUrl}/services`, { headers: { authorization: `Token token=${eu.apiKey}`, accept: ACCEPT } });
    expect(keyed.json.services.map((x: { name: string }) => x.name)).toEqual(["eu-svc"]);
    expect((await api(r.ready, euTok, "/services")).status).toBe(401);
    expect(await stop(r, signal)).toBe(0);
    expect(r.stdout().trim().split("\n")).toHaveLength(1);
    // No secret reaches the logs.
    for (const s of [r.ready.adminToken, r.ready.oauth.clientSecret, r.ready.apiKey, tok, eu.oauth.clientSecret, eu.apiKey, euTok])
      expect(r.stderr()).not.toContain(s);
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
    body: JSON.stringify({ service: { type: "service", name: "persisted", escalation_policy: { id: first.ready.escalationPolicyId } } }),
  });
  expect(created.status).toBe(201);
  expect(await stop(first)).toBe(0);
  expect(() => JSON.parse(readFileSync(data, "utf8"))).not.toThrow();
  // Only token hashes are stored, never the token itself.
  expect(readFileSync(data, "utf8")).not.toContain(tok);

  const second = await run(["--data", data]);
  const { url: _u1, apiUrl: _a1, euApiUrl: _e1, authUrl: _t1, eventsUrl: _v1, ...creds1 } = first.ready;
  const { url: _u2, apiUrl: _a2, euApiUrl: _e2, authUrl: _t2, eventsUrl: _v2, ...creds2 } = second.ready;
  expect(creds2).toEqual(creds1);
  expect(creds2.eu?.account.subdomain).toBe("globex");
  // The access token issued before the restart still works; the service is still there.
  const show = await api(second.ready, tok, `/services/${created.json.service.id}`);
  expect(show.status).toBe(200);
  expect(show.json.service.name).toBe("persisted");
  expect(await stop(second)).toBe(0);
});

test("--lag, --lag-eu, --lag-deletes: the ready line reports the settings, and new objects are hidden for that long", async () => {
  const r = await run(["--lag", "60000", "--lag-eu", "120000", "--lag-deletes"]);
  expect(r.ready.lag).toEqual({ ms: 60000, euMs: 120000, deletes: true });
  const lag = await send(`${r.ready.url}/_emulator/lag`, { headers: { "x-emulator-admin-token": r.ready.adminToken } });
  expect(lag.json).toEqual(r.ready.lag);
  const tok = await fetchAppToken(r.ready);
  const created = await api(r.ready, tok, "/services", {
    method: "POST",
    body: JSON.stringify({ service: { name: "lagging", escalation_policy: { id: r.ready.escalationPolicyId } } }),
  });
  expect(created.status).toBe(201);
  const id = created.json.service.id;
  expect((await api(r.ready, tok, `/services/${id}`)).status).toBe(404);
  expect((await api(r.ready, tok, `/services/${id}`, { method: "DELETE" })).status).toBe(404);
  expect(await stop(r)).toBe(0);
});

test("--seed FILE fixes accounts, apps and credentials; --rate-limit sets the per-minute limit", async () => {
  const seed = join(dir, "seed.json");
  writeFileSync(
    seed,
    JSON.stringify({
      accounts: [{ subdomain: "initech", region: "eu" }],
      apps: [
        { account: "initech", name: "ci", kind: "scoped", clientId: "ci-client", clientSecret: "ci-secret-0123456789", scopes: "services.read services.write" },
      ],
      apiKeys: [{ account: "initech", token: "initech-key-0001" }],
      escalationPolicies: [{ account: "initech", name: "Ops", id: "PESCAL1" }],
    }),
  );
  const r = await run(["--seed", seed, "--rate-limit", "5"]);
  expect(r.ready).toMatchObject({
    account: { subdomain: "initech", region: "eu" },
    oauth: { clientId: "ci-client", clientSecret: "ci-secret-0123456789", scopes: "services.read services.write" },
    apiKey: "initech-key-0001",
    escalationPolicyId: "PESCAL1",
  });
  // The first account is in the EU: it is also the `eu` entry, and its REST base is euApiUrl.
  expect(r.ready.eu).toEqual({ account: r.ready.account, oauth: r.ready.oauth, apiKey: r.ready.apiKey, escalationPolicyId: r.ready.escalationPolicyId });
  const tok = await fetchAppToken(r.ready);
  const res = await api(r.ready, tok, "/services", {}, r.ready.euApiUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("ratelimit-limit")).toBe("5");
  expect(await stop(r)).toBe(0);
});

function runToExit(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ["-r", REGISTER, join(ROOT, "emulator", "src", "cli.ts"), ...args], { cwd: ROOT });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
}

test("bad arguments → exit code 2 with a message naming the flag, usage on stderr and nothing on stdout", async () => {
  const cases: [string[], RegExp][] = [
    [["--port", "abc"], /--port must be an integer from 0 to 65535, got "abc"/],
    [["--rate-limit", "0"], /--rate-limit must be an integer from 1/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["--port"], /--port <value>' argument missing/],
    [["stray"], /positional argument/],
    [["--cert", "c.pem"], /--cert and --key go together/],
  ];
  for (const [args, message] of cases) {
    const r = await runToExit(args);
    expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: "" });
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/usage: pagerduty-emulator/);
  }
}, 180_000);

test("--help lists every flag and exits 0; --version prints the package version", async () => {
  for (const flag of ["--help", "-h"]) {
    const r = await runToExit([flag]);
    expect(r.code).toBe(0);
    for (const f of [
      "--port",
      "--host",
      "--data",
      "--seed",
      "--rate-limit",
      "--tls",
      "--cert",
      "--key",
      "--lag",
      "--lag-eu",
      "--lag-deletes",
      "--help",
      "--version",
    ])
      expect(r.out).toContain(f);
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, "emulator", "package.json"), "utf8")) as { version: string };
  for (const flag of ["--version", "-v"]) {
    const r = await runToExit([flag]);
    expect({ code: r.code, out: r.out }).toEqual({ code: 0, out: `${pkg.version}\n` });
  }
}, 120_000);

/** undici's fetch trusting only `caFile` (this process started without NODE_EXTRA_CA_CERTS). */
const trusting = (caFile: string) => new Agent({ connect: { ca: readFileSync(caFile) } });

test("--tls: REST and identity over HTTPS with a certificate the ready line's CA file verifies; untrusted clients are refused", async () => {
  const r = await run(["--tls"]);
  expect(r.ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(r.ready.apiUrl).toBe(r.ready.url);
  expect(r.ready.authUrl).toBe(r.ready.url);
  expect(readFileSync(r.ready.caFile!, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
  const dispatcher = trusting(r.ready.caFile!);
  const tokenRes = await undiciFetch(`${r.ready.authUrl}/oauth/token`, {
    dispatcher,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: r.ready.oauth.clientId,
      client_secret: r.ready.oauth.clientSecret,
      scope: `as_account-us.acme services.read`,
    }).toString(),
  });
  expect(tokenRes.status).toBe(200);
  const tok = ((await tokenRes.json()) as { access_token: string }).access_token;
  for (const host of ["127.0.0.1", "localhost"]) {
    const res = await undiciFetch(`${r.ready.apiUrl.replace("127.0.0.1", host)}/services`, {
      dispatcher,
      headers: { authorization: `Bearer ${tok}`, accept: ACCEPT },
    });
    expect(res.status).toBe(200);
    // Links point at the https origin the client used.
    expect(((await res.json()) as { services: unknown[] }).services).toEqual([]);
  }
  await expect(undiciFetch(`${r.ready.apiUrl}/services`)).rejects.toMatchObject({ cause: { code: "SELF_SIGNED_CERT_IN_CHAIN" } });
  await dispatcher.close();
  const caFile = r.ready.caFile!;
  expect(await stop(r)).toBe(0);
  // The temporary CA goes with the process.
  expect(existsSync(caFile)).toBe(false);
});

test("--tls with --data keeps the CA beside the data file across restarts; --cert/--key serve the user's certificate", async () => {
  const data = join(dir, "tls-state.json");
  const first = await run(["--tls", "--data", data]);
  expect(first.ready.caFile).toBe(join(dir, "tls-state.json.tls", "ca.pem"));
  const ca = readFileSync(first.ready.caFile!, "utf8");
  expect(await stop(first)).toBe(0);
  const second = await run(["--tls", "--data", data]);
  expect(readFileSync(second.ready.caFile!, "utf8")).toBe(ca);
  const dispatcher = trusting(second.ready.caFile!);
  expect((await undiciFetch(`${second.ready.url}/services`, { dispatcher })).status).toBe(401);
  expect(await stop(second)).toBe(0);

  // The user's own files: here a certificate made by the same code, to check it is what is served.
  const { generateTls } = await import("../../emulator/src/tls");
  const made = await generateTls(join(dir, "own"));
  writeFileSync(join(dir, "own", "server.pem"), made.cert);
  writeFileSync(join(dir, "own", "server-key.pem"), made.key);
  const own = await run(["--cert", join(dir, "own", "server.pem"), "--key", join(dir, "own", "server-key.pem")]);
  expect(own.ready.url).toMatch(/^https:/);
  expect(own.ready.caFile).toBe(join(dir, "own", "server.pem"));
  expect((await undiciFetch(`${own.ready.url}/services`, { dispatcher: trusting(made.caFile) })).status).toBe(401);
  expect(await stop(own)).toBe(0);
  await dispatcher.close();
});

test("parseArgs (in process): every flag, and the errors that name the flag", async () => {
  const { parseArgs, UsageError } = await import("../../emulator/src/cli");
  expect(parseArgs(["--port=8080", "--host", "::1", "--data", "s.json", "--seed", "seed.json", "--rate-limit", "5", "--tls"])).toEqual({
    kind: "run",
    options: { port: 8080, host: "::1", dataFile: "s.json", seed: "seed.json", rateLimit: 5, tls: true },
  });
  expect(parseArgs(["--cert", "c.pem", "--key", "k.pem"])).toEqual({
    kind: "run",
    options: { port: 0, host: "127.0.0.1", tls: { certFile: "c.pem", keyFile: "k.pem" } },
  });
  expect(parseArgs([])).toEqual({ kind: "run", options: { port: 0, host: "127.0.0.1" } });
  const lagged = (...args: string[]) => (parseArgs(["--port", "0", ...args]) as { options: { lag?: unknown } }).options.lag;
  expect(lagged("--lag", "3000")).toEqual({ ms: 3000, euMs: 3000, deletes: false });
  expect(lagged("--lag", "3000", "--lag-eu", "8000", "--lag-deletes")).toEqual({ ms: 3000, euMs: 8000, deletes: true });
  expect(lagged("--lag-eu", "8000")).toEqual({ ms: 0, euMs: 8000, deletes: false });
  expect(lagged()).toBeUndefined();
  expect(parseArgs(["-h"])).toEqual({ kind: "help" });
  expect(parseArgs(["--version"])).toEqual({ kind: "version" });
  for (const [args, message] of [
    [["--port", "70000"], '--port must be an integer from 0 to 65535, got "70000"'],
    [["--data="], "--data needs a value"],
    [["--key", "k.pem"], "--cert and --key go together"],
    [["--tls=yes"], "--tls"],
    [["--lag=-1"], '--lag must be an integer from 0 to 3600000, got "-1"'],
    [["--lag-eu", "3600001"], '--lag-eu must be an integer from 0 to 3600000, got "3600001"'],
    [["--lag", "2s"], '--lag must be an integer from 0 to 3600000, got "2s"'],
  ] as const) {
    expect(() => parseArgs([...args])).toThrow(UsageError);
    expect(() => parseArgs([...args])).toThrow(message);
  }
});

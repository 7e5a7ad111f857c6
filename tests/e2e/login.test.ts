// `pagerduty-login` as a user runs it: the installed bin in a Pulumi project, a real headless
// Chromium on the emulator's login + consent page, and the stored token deploying a stack in
// user-token mode; with --account, the EU account's admin logging in for a named account. Then the
// ways the flow ends without a token: denial, a forged redirect (wrong state), nobody coming back
// (timeout), and a code that expired before the exchange.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { chromium, type Browser, type Page } from "playwright-core";
import { request } from "undici";
import { LOGIN } from "../../provider/cli/login";
import { type EmulatorProcess, PulumiProject, ROOT, startEmulatorProcess } from "./harness";

jest.setTimeout(10 * 60_000);

/** Debian's chromium (scripts/test.sh installs it when missing); no browser is a failure, not a skip. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
}

const program = `
import * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "pulumi-pagerduty-dynamic";
new pagerduty.Service("svc", { name: "Via pagerduty-login", escalationPolicy: new pulumi.Config().require("escalationPolicyId") });
`;

let emu: EmulatorProcess;
let browser: Browser;
let project: PulumiProject;
let admin: { email: string; password: string };

beforeAll(async () => {
  emu = await startEmulatorProcess();
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  const registry = (await emu.admin<{ users: any[] }>("GET", "/_emulator/registry")).body;
  admin = registry.users.find((u) => u.email === "admin@acme.example");
  // User-token mode: the OAuth client in the stack config, no API key, no refresh token yet.
  project = PulumiProject.create(
    "login",
    program,
    emu,
    { "pagerduty:clientId": emu.oauth.clientId },
    {
      auth: "none",
      secretConfig: { "pagerduty:clientSecret": emu.oauth.clientSecret },
    },
  );
});
afterAll(async () => {
  await browser?.close();
  await emu?.stop();
  project?.remove();
});

interface LoginRun {
  proc: ChildProcess;
  /** The authorize URL the bin printed. */
  url: URL;
  redirectUri: string;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Starts the installed bin and waits for the URL it prints; the redirect URI is then registered with
 * the app (`appClientId`, default: the ready line's app).
 */
async function startLogin(
  args: string[],
  where: { cwd: string; env: NodeJS.ProcessEnv } = { cwd: project.dir, env: project.env },
  appClientId: string = emu.oauth.clientId,
): Promise<LoginRun> {
  const bin = path.join(project.dir, "node_modules/.bin/pagerduty-login");
  const proc = spawn(bin, ["--no-browser", ...args], { cwd: where.cwd, env: where.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  proc.stdout!.on("data", (d) => (stdout += d));
  proc.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    proc.once("exit", (code) => {
      // For the harness's secret scan; `--print` writes the refresh token to stdout on purpose.
      project.log += (args.includes("--print") ? "" : stdout) + stderr;
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  const url = await new Promise<URL>((resolve, reject) => {
    const rl = readline.createInterface({ input: proc.stderr! });
    rl.on("line", (line) => {
      const m = /^\s*(https?:\/\/\S+\/oauth\/authorize\?\S+)$/.exec(line);
      if (m) resolve(new URL(m[1]!));
    });
    void done.then((r) => reject(new Error(`pagerduty-login exited ${r.code} before printing a URL:\n${r.stderr}`)));
  });
  const redirectUri = url.searchParams.get("redirect_uri")!;
  const app = await emu.admin("PUT", `/_emulator/apps/${appClientId}`, {
    redirectUris: ["http://127.0.0.1:8765/callback", "http://localhost:8765/callback", redirectUri],
  });
  expect(app.status).toBe(200);
  return { proc, url, redirectUri, done };
}

/** Logs in on the consent page and clicks a decision; returns the page (now on the bin's result page). */
async function consent(
  url: URL,
  decision: "Approve" | "Deny",
  beforeClick?: (page: Page) => Promise<void>,
  user: { email: string; password: string } = admin,
): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url.toString());
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await beforeClick?.(page);
  await page.getByRole("button", { name: decision }).click();
  return page;
}

/** The stored token, read without adding it to the project's log (which the secret scan searches). */
const storedToken = () => {
  const r = spawnSync("pulumi", ["--non-interactive", "config", "get", "pagerduty:refreshToken"], { cwd: project.dir, env: project.env, encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout };
};

/** The user approves in the browser; the bin exits 0 having printed nothing on stdout. */
async function approved(run: Awaited<ReturnType<typeof startLogin>>, user = admin): Promise<{ result: Awaited<typeof run.done>; pageText: string }> {
  const page = await consent(run.url, "Approve", undefined, user);
  await page.waitForURL((u) => u.toString().startsWith(run.redirectUri));
  await expect(page.locator("#title").textContent()).resolves.toBe("Logged in");
  const pageText = await page.content();
  await page.close();
  const result = await run.done;
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("");
  return { result, pageText };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("the consent page names the app, its account and each scope asked for", async () => {
  const run = await startLogin([]);
  const page = await browser.newPage();
  await page.goto(run.url.toString());
  await expect(page.locator("h1").textContent()).resolves.toBe("Authorize Pulumi provider");
  await expect(page.locator("#account").textContent()).resolves.toContain("Acme Corp");
  const scopes = await page.locator("#scopes li code").allTextContents();
  expect(scopes).toEqual(expect.arrayContaining(["services.read", "services.write", "custom_fields.read", "audit_records.read"]));
  expect(await page.locator("#scopes li span").count()).toBe(scopes.length);
  await page.screenshot({ path: path.join(project.dir, "consent.png"), fullPage: true });
  await page.close();
  // Leave by denying so the bin ends (covered by its own test below).
  await (await consent(run.url, "Deny")).close();
  expect((await run.done).code).toBe(3);
});

test("approve in the browser: the refresh token is stored as a secret and deploys the stack as the user", async () => {
  const run = await startLogin([]);
  // PKCE S256 with a state, and no secret anywhere in the URL.
  expect(run.url.searchParams.get("code_challenge_method")).toBe("S256");
  expect(run.url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(run.url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  expect(run.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  expect(run.url.toString()).not.toContain(emu.oauth.clientSecret);

  const { result, pageText } = await approved(run);
  expect(result.stderr).toMatch(/Stored the refresh token as the secret "pagerduty:refreshToken"/);
  // The id_token verified against the emulator's JWKS, naming the account the stack is set up for.
  expect(result.stderr).toContain("The id_token is verified (admin@acme.example, account Acme Corp).");
  expect(result.stderr).toContain('"pagerduty:serviceRegion" is already "us" (matches the id_token).');
  expect(result.stderr).toContain('"pagerduty:subdomain" is already "acme" (matches the id_token).');

  const token = storedToken();
  expect(token.code).toBe(0);
  const refreshToken = token.stdout.trim();
  expect(refreshToken.length).toBeGreaterThan(10);
  // Encrypted in the stack file, never printed by the bin nor shown to the browser.
  expect(project.run(["config", "--json"]).stdout).toContain('"secret": true');
  expect(result.stderr + pageText).not.toContain(refreshToken);

  const stats = async () => (await emu.admin("GET", "/_emulator/stats")).body.tokensIssued;
  const before = await stats();
  project.must(["up", "--yes", "--skip-preview"]);
  const after = await stats();
  const services = (await emu.api<{ services: any[] }>("GET", "/services?limit=100")).body.services.map((s) => s.name);
  expect(services).toContain("Via pagerduty-login");
  // User-token mode: the refresh grant was used, never client credentials.
  expect(after.refresh_token).toBeGreaterThan(before.refresh_token);
  expect(after.client_credentials).toBe(before.client_credentials);
  project.must(["destroy", "--yes", "--skip-preview"]);
  // Nor in the state or pulumi's output: the harness's secret scan.
  project.must(["config", "rm", "pagerduty:refreshToken"]);
});

test("--account eu: Globex's admin logs in with Globex's app; the token (secret), region and subdomain land in pagerduty:accounts.eu", async () => {
  const registry = (await emu.admin<{ users: any[]; apps: any[] }>("GET", "/_emulator/registry")).body;
  const app = registry.apps.find((a) => a.name === "Globex marketplace app");
  const gus = registry.users.find((u) => u.email === "admin@globex.example");
  expect(app.account).toBe("globex");
  // The account's client in its entry of pagerduty:accounts, the secret through stdin; no region or
  // subdomain yet: the id_token supplies them.
  project.must(["config", "set", "--path", "pagerduty:accounts.eu.clientId", app.clientId]);
  project.must(["config", "set", "--path", "--secret", "pagerduty:accounts.eu.clientSecret"], 0, app.clientSecret);
  project.must(["config", "set", "--path", "pagerduty:accounts.eu.authUrl", emu.authUrl]);
  try {
    const run = await startLogin(["--account", "eu"], undefined, app.clientId);
    expect(run.url.searchParams.get("client_id")).toBe(app.clientId);
    expect(run.url.toString()).not.toContain(app.clientSecret);
    const { result, pageText } = await approved(run, gus);
    expect(result.stderr).toContain("The id_token is verified (admin@globex.example, account Globex).");
    expect(result.stderr).toContain("Set pagerduty:accounts.eu.serviceRegion = eu (from the id_token) in the selected stack.");
    expect(result.stderr).toContain("Set pagerduty:accounts.eu.subdomain = globex (from the id_token) in the selected stack.");
    expect(result.stderr).toContain('Stored the refresh token as the secret "pagerduty:accounts.eu.refreshToken" of the selected stack.');

    // Read without adding to the project's log (which the secret scan searches).
    const shown = spawnSync("pulumi", ["--non-interactive", "config", "--json", "--show-secrets"], { cwd: project.dir, env: project.env, encoding: "utf8" });
    expect(shown.status).toBe(0);
    const eu = JSON.parse(shown.stdout)["pagerduty:accounts"].objectValue.eu;
    expect(eu).toMatchObject({ clientId: app.clientId, serviceRegion: "eu", subdomain: "globex" });
    const refreshToken: string = eu.refreshToken;
    expect(typeof refreshToken).toBe("string");
    expect(refreshToken.length).toBeGreaterThan(10);
    // A secret: encrypted in the stack file, masked without --show-secrets; the other two plain.
    const stackFile = fs.readFileSync(path.join(project.dir, "Pulumi.dev.yaml"), "utf8");
    expect(stackFile).toMatch(/\n(\s+)eu:\n(?:\1\s+.*\n)*?\s+refreshToken:\n\s+secure: v1:/);
    expect(stackFile).toMatch(/\n\s+serviceRegion: eu\n/);
    expect(stackFile).toMatch(/\n\s+subdomain: globex\n/);
    expect(project.must(["config"]).stdout).toMatch(/"refreshToken":"\[secret\]"/);
    // The top-level account is untouched.
    expect(project.must(["config", "get", "pagerduty:subdomain"]).stdout.trim()).toBe("acme");
    // Nowhere in plaintext: the stack file, what the bin printed, the tab (the state and pulumi's output: the harness's secret scan).
    expect(stackFile + result.stderr + pageText).not.toContain(refreshToken);

    // It is the Globex app's user token: the refresh grant with that client accepts it.
    const refreshed = await request(`${emu.authUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: app.clientId,
        client_secret: app.clientSecret,
        refresh_token: refreshToken,
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(JSON.parse(await refreshed.body.text()).scope).toContain("services.write");
  } finally {
    project.must(["config", "rm", "pagerduty:accounts"]);
  }
});

test("deny in the browser: exit 3, a clear message, nothing stored", async () => {
  const port = await freePort();
  const run = await startLogin(["--port", String(port)]);
  expect(run.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
  const page = await consent(run.url, "Deny");
  await page.waitForURL((u) => u.toString().startsWith(run.redirectUri));
  await expect(page.locator("#title").textContent()).resolves.toBe("Access denied");
  await page.close();
  const result = await run.done;
  expect(result.code).toBe(3);
  expect(result.stderr).toMatch(/access was denied in the browser.*nothing was stored/);
  expect(storedToken().code).not.toBe(0);
});

test("a redirect with the wrong state is refused: exit 4, nothing stored", async () => {
  const run = await startLogin([]);
  const forged = new URL(run.redirectUri);
  forged.searchParams.set("code", "forged-code");
  forged.searchParams.set("state", "not-the-state");
  const res = await request(forged);
  expect(res.statusCode).toBe(400);
  expect(await res.body.text()).toMatch(/state parameter does not match/);
  const result = await run.done;
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/state parameter does not match.*nothing was stored/);
  expect(storedToken().code).not.toBe(0);
});

test("nobody comes back: exit 5 after --timeout, nothing stored", async () => {
  const run = await startLogin(["--timeout", "1"]);
  const result = await run.done;
  expect(result.code).toBe(5);
  expect(result.stderr).toMatch(/timed out after 1 s waiting for the browser.*nothing was stored/);
  expect(storedToken().code).not.toBe(0);
  // The listener is gone with the process.
  await expect(request(run.redirectUri)).rejects.toThrow();
});

test("a code that expired before the exchange: exit 6, nothing stored", async () => {
  const run = await startLogin([]);
  // The exchange is held for a few seconds while the emulator's clock moves past the code's 30 s.
  expect((await emu.admin("POST", "/_emulator/faults", { route: "POST /oauth/token", latencyMs: 4000, count: 1 })).status).toBe(201);
  const page = await consent(run.url, "Approve", async (p) => {
    void p.waitForRequest((r) => r.url().startsWith(run.redirectUri)).then(() => emu.admin("POST", "/_emulator/clock", { advanceSeconds: 60 }));
  });
  const result = await run.done;
  await page.close();
  expect(result.code).toBe(6);
  expect(result.stderr).toMatch(/authorization code was refused \(.*invalid_grant.*\): codes live 30 seconds and work once\. Nothing was stored/);
  expect(storedToken().code).not.toBe(0);
});

describe("--print outside any Pulumi project, settings from the environment", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-login-print-"));
    env = { ...project.env, PAGERDUTY_CLIENT_ID: emu.oauth.clientId, PAGERDUTY_CLIENT_SECRET: emu.oauth.clientSecret, PAGERDUTY_AUTH_URL: emu.authUrl };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("the refresh token goes to stdout only", async () => {
    const run = await startLogin(["--print"], { cwd: dir, env });
    const page = await consent(run.url, "Approve");
    await page.waitForURL((u) => u.toString().startsWith(run.redirectUri));
    await page.close();
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\S{20,}\n$/);
    expect(result.stderr).not.toContain(result.stdout.trim());
    expect(result.stderr).toMatch(/Printed the refresh token on stdout/);
  });

  test("a grant lacking a scope asked for is exit 7 naming it; nothing printed", async () => {
    // A scope the seeded app is not configured with: the service grants the rest, without an error.
    const apps = (await emu.admin<{ apps: any[] }>("GET", "/_emulator/registry")).body.apps;
    expect(apps.find((a) => a.clientId === emu.oauth.clientId).scopes).not.toContain("teams.write");
    const run = await startLogin(["--print", "--scopes", "services.read services.write teams.write"], { cwd: dir, env });
    const page = await consent(run.url, "Approve");
    await page.waitForURL((u) => u.toString().startsWith(run.redirectUri));
    await expect(page.locator("#title").textContent()).resolves.toBe("Login incomplete");
    await page.close();
    const result = await run.done;
    expect(result.code).toBe(7);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/the granted scope lacks "teams\.write" \(granted: "[^"]*services\.write[^"]*"\); nothing was stored/);
  });
});

test("--help lists every flag and exits 0; --version prints the package version", () => {
  const bin = path.join(project.dir, "node_modules/.bin/pagerduty-login");
  const help = execFileSync(bin, ["--help"], { encoding: "utf8" });
  expect(Object.keys(LOGIN.flags)).toContain("client-id");
  for (const flag of [...Object.keys(LOGIN.flags), "help", "version"]) expect(help).toContain(`--${flag}`);
  expect(help).toContain("PAGERDUTY_CLIENT_SECRET");
  const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  expect(version).toBe(require(path.join(project.dir, "node_modules/pulumi-pagerduty-dynamic/package.json")).version);
});

test("the installed package carries the examples, the license and the changelog, and no emulator", () => {
  const pkg = path.join(project.dir, "node_modules/pulumi-pagerduty-dynamic");
  for (const f of ["examples/quickstart/index.ts", "examples/quickstart/Pulumi.yaml", "examples/full/index.ts", "LICENSE", "CHANGELOG.md"]) {
    expect(fs.existsSync(path.join(pkg, f))).toBe(true);
  }
  expect(fs.readFileSync(path.join(pkg, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
  expect(fs.existsSync(path.join(pkg, "examples/quickstart/node_modules"))).toBe(false);
  // The emulator is the separate package pagerduty-emulator: neither its files nor its dependencies.
  expect(fs.existsSync(path.join(pkg, "dist/emulator"))).toBe(false);
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
  for (const dep of ["fastify", "@fastify/formbody", "@peculiar/x509"]) expect(manifest.dependencies[dep]).toBeUndefined();
  // jose is the provider's own too: pagerduty-login verifies the id_token with it.
  expect(manifest.dependencies.jose).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies.jose);
  expect(manifest.bin["pagerduty-emulator"]).toBeUndefined();
});

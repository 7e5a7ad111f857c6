// End-to-end harness: the real Pulumi CLI (built by scripts/setup-pulumi.sh), the packed package
// installed into a throwaway project, and the emulator as a separate process over HTTP.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { Agent, request, type Dispatcher } from "undici";
import type { ReadyLine } from "../../emulator/src";
import { ROOT } from "../../scripts/repo-root";
import { beforeRemove, harvest, knowSecret, noteSecretConfig, scanAll, showsSecrets, unwatchEmulator, watchEmulator, watchStack } from "./secret-scan";

export { ROOT };
const WORK = path.join(ROOT, ".work");

// Every stack this test file makes is scanned for the world's secrets when its hooks end
// (secret-scan.ts). Not under other runners (the benchmarks use this harness too).
// Read off globalThis: the benchmarks compile this file without jest's types.
const afterAllFiles = (globalThis as { afterAll?: (hook: () => unknown) => void }).afterAll;
if (afterAllFiles) afterAllFiles(scanAll);

/**
 * The `@pulumi/pulumi` version the programs users write install: the checkout's own, or the support
 * matrix's (scripts/test-matrix.sh sets PPD_PULUMI_SDK to run them on the oldest supported Pulumi).
 */
export function sdkVersion(): string {
  return process.env.PPD_PULUMI_SDK || JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;
}

/** The longest a test's synchronous `pulumi` command may take before it is killed and fails (under jest; the benchmarks' big stacks take longer). */
const PULUMI_TIMEOUT_MS = afterAllFiles ? 6 * 60_000 : undefined;

/** Directory with pulumi, pulumi-language-nodejs and pulumi-resource-pulumi-nodejs. */
export function pulumiBin(): string {
  if (process.env.PULUMI_BIN_DIR) return process.env.PULUMI_BIN_DIR;
  const out = execFileSync("bash", [path.join(ROOT, "scripts/setup-pulumi.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  process.env.PULUMI_BIN_DIR = out.trim().split("\n").pop()!;
  return process.env.PULUMI_BIN_DIR;
}

/** The package as users get it: built and packed. scripts/test.sh packs once; alone, a test packs itself. */
export function tarball(): string {
  if (process.env.PPD_TARBALL) return process.env.PPD_TARBALL;
  fs.mkdirSync(WORK, { recursive: true });
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  const name = execFileSync("npm", ["pack", "--pack-destination", WORK], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
  process.env.PPD_TARBALL = path.join(WORK, name);
  return process.env.PPD_TARBALL;
}

/**
 * Installs the packed package and the SDK into `dir` as `npm install <tarball> @pulumi/pulumi` does:
 * npm runs once per test process into a template, each project gets its node_modules, package.json
 * dependencies and lock. The node_modules are hard links to the template's files (97 MB in 11,000
 * files: a copy took 4 s of a quiet machine, the links 1 s); npm's own record of the tree is a
 * copy, since an `npm install` in the project rewrites it in place. Where the two directories are
 * on different file systems, a copy.
 */
export function installPackage(dir: string): void {
  const sdk = sdkVersion();
  const templates = path.join(WORK, "e2e-modules");
  const template = path.join(
    templates,
    `${process.pid}-${createHash("sha256")
      .update(`${tarball()}|${fs.statSync(tarball()).mtimeMs}|${sdk}`)
      .digest("hex")
      .slice(0, 12)}`,
  );
  if (!fs.existsSync(path.join(template, "package-lock.json"))) {
    // One template per test process (two workers never share one); those of ended processes go.
    for (const old of fs.existsSync(templates) ? fs.readdirSync(templates) : [])
      if (!alive(Number(old.split("-")[0]))) fs.rmSync(path.join(templates, old), { recursive: true, force: true });
    fs.rmSync(template, { recursive: true, force: true });
    fs.mkdirSync(template, { recursive: true });
    fs.writeFileSync(path.join(template, "package.json"), JSON.stringify({ name: "template", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball(), `@pulumi/pulumi@${sdk}`], { cwd: template, stdio: "ignore" });
  }
  try {
    execFileSync("cp", ["-al", path.join(template, "node_modules"), dir], { stdio: "ignore" });
  } catch {
    fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
    execFileSync("cp", ["-a", path.join(template, "node_modules"), dir]);
  }
  const hidden = path.join(dir, "node_modules", ".package-lock.json");
  fs.rmSync(hidden, { force: true });
  fs.copyFileSync(path.join(template, "node_modules", ".package-lock.json"), hidden);
  fs.copyFileSync(path.join(template, "package-lock.json"), path.join(dir, "package-lock.json"));
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  pkg.dependencies = JSON.parse(fs.readFileSync(path.join(template, "package.json"), "utf8")).dependencies;
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The emulator CLI's ready line. */
export type EmulatorInfo = ReadyLine;

export interface EmulatorProcess extends EmulatorInfo {
  proc: ChildProcess;
  /** Calls the REST API out of band (as another tool or a person would), with the account API key (and `headers`). */
  api<T = any>(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  /** The same for the EU account, at the EU base URL with its account API key. */
  euApi<T = any>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Calls an admin control of the emulator. */
  admin<T = any>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startEmulatorProcess(args: string[] = []): Promise<EmulatorProcess> {
  const proc = spawn(process.execPath, [path.join(ROOT, "emulator/dist/cli.js"), "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr!.on("data", (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: proc.stdout! });
    rl.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(line) as EmulatorInfo;
  for (const creds of [info, info.eu]) {
    knowSecret(creds?.oauth.clientSecret, "the emulator's client secret");
    knowSecret(creds?.apiKey, "the emulator's API key");
  }
  knowSecret(info.adminToken, "the emulator's admin token");
  // With --tls this process trusts the emulator's CA explicitly (NODE_EXTRA_CA_CERTS is read only at start).
  const dispatcher = info.caFile ? new Agent({ connect: { ca: fs.readFileSync(info.caFile) } }) : undefined;
  // One connection per call (reset): long CLI runs between calls must never meet a pooled socket
  // the server has closed meanwhile.
  const call = async (headers: Record<string, string>, method: string, p: string, body?: unknown) => {
    const res = await request(info.url + p, {
      dispatcher,
      method: method as Dispatcher.HttpMethod,
      reset: true,
      headers: { accept: "application/vnd.pagerduty+json;version=2", ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  const emu: EmulatorProcess = {
    ...info,
    proc,
    api: (m, p, b, h) => call({ authorization: `Token token=${info.apiKey}`, ...h }, m, p, b),
    euApi: (m, p, b) => call({ authorization: `Token token=${info.eu?.apiKey}` }, m, `${info.euApiUrl!.slice(info.url.length)}${p}`, b),
    admin: (m, p, b) => call({ "x-emulator-admin-token": info.adminToken }, m, p, b),
    stop: async () => {
      unwatchEmulator(emu);
      if (proc.exitCode !== null) return;
      try {
        await harvest(emu); // what it handed out goes with it
      } finally {
        await new Promise<void>((resolve) => {
          if (proc.exitCode !== null) return resolve();
          proc.once("exit", () => resolve());
          proc.kill("SIGTERM");
        });
      }
    },
  };
  watchEmulator(emu);
  return emu;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment every e2e `pulumi` runs in: the built CLI first on PATH, its own PULUMI_HOME, a
 * local-file backend, passphrase secrets, nothing fetched, and no PagerDuty credentials from the
 * test's environment (the provider must take them from stack config).
 */
export function offlineEnv(dirs: { home: string; state: string; cache: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${pulumiBin()}${path.delimiter}${process.env.PATH}`,
    PULUMI_HOME: dirs.home,
    PULUMI_BACKEND_URL: `file://${dirs.state}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    PAGERDUTY_CLIENT_ID: "",
    PAGERDUTY_CLIENT_SECRET: "",
    PAGERDUTY_TOKEN: "",
    // The emulator shows a new object at once unless a test turns its lag on (tests/e2e/lag.test.ts
    // sets a window to match): a short window keeps the refreshes after these tests' hand-made
    // deletes from waiting out the 2 minutes PagerDuty itself needs.
    PAGERDUTY_CONSISTENCY_WINDOW: process.env.PAGERDUTY_CONSISTENCY_WINDOW ?? "3",
    XDG_CACHE_HOME: dirs.cache,
    // Each project's provider keeps its cache (code cache, accepted credentials, tokens) in its own
    // directory, even where the runner names one for the package (a blank value is unset).
    PULUMI_PAGERDUTY_CACHE: "",
  };
}

/** Every file below `dir`, concatenated (for the secret scans of state). */
export function filesText(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(fs.readFileSync(p, "latin1"));
    }
  };
  walk(dir);
  return files.join("\n");
}

/** The `pulumi` CLI run in a project directory with its environment: what every kind of test project shares. */
export class PulumiCli {
  /** Every byte the CLI printed, for the secret scan (secret-scan.ts), except where asked to `--show-secrets`. */
  log = "";

  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {
    watchStack(this);
  }

  run(args: string[], input?: string): RunResult {
    noteSecretConfig(args, input);
    // Bounded: a synchronous command that hangs would hold the whole jest process past every test timeout.
    const r = spawnSync("pulumi", ["--non-interactive", ...args], {
      cwd: this.dir,
      env: this.env,
      encoding: "utf8",
      maxBuffer: 64 << 20,
      input,
      timeout: PULUMI_TIMEOUT_MS,
      killSignal: "SIGKILL",
    });
    const stderr = r.error ? `${r.stderr ?? ""}\npulumi ${args.join(" ")} did not finish: ${r.error.message}` : r.stderr;
    if (!showsSecrets(args)) this.log += r.stdout + stderr;
    return { code: r.status ?? -1, stdout: r.stdout, stderr };
  }

  /** Runs and throws with the CLI's output when the exit code is not the expected one. */
  must(args: string[], expectCode = 0, input?: string): RunResult {
    const r = this.run(args, input);
    if (r.code !== expectCode) throw new Error(`pulumi ${args.join(" ")} exited ${r.code} (expected ${expectCode})\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  /** The resources of the stack's current state (the selected stack, or `stack`). */
  resources(stack?: string): Array<{ urn: string; type: string; id?: string; inputs?: any; outputs?: any }> {
    const out = this.must(["stack", "export", ...(stack ? ["--stack", stack] : [])]).stdout;
    return JSON.parse(out).deployment.resources ?? [];
  }

  /**
   * What the backend holds, for the secret scan: with a file backend every file it wrote
   * (checkpoints, history, backups), concatenated; with another (object storage) each of the
   * project's stacks as `pulumi stack export` gives it.
   */
  stateText(): string {
    if (this.env.PULUMI_BACKEND_URL?.startsWith("file://")) return filesText(path.join(this.dir, ".pulumi-state"));
    // Not through run(): what the scan reads is not what the test's CLI printed.
    const pulumi = (args: string[]) => {
      const r = spawnSync("pulumi", ["--non-interactive", ...args], {
        cwd: this.dir,
        env: this.env,
        encoding: "utf8",
        maxBuffer: 64 << 20,
        timeout: PULUMI_TIMEOUT_MS,
        killSignal: "SIGKILL",
      });
      if (r.status !== 0) throw new Error(`reading the state of ${this.dir}: pulumi ${args.join(" ")} exited ${r.status}\n${r.stderr}`);
      return r.stdout;
    };
    const stacks = JSON.parse(pulumi(["stack", "ls", "--json"])) as Array<{ name: string }>;
    return stacks.map((s) => pulumi(["stack", "export", "--stack", s.name])).join("\n");
  }

  /** The stack's outputs (secrets shown as "[secret]"). */
  outputs(): Record<string, any> {
    return JSON.parse(this.must(["stack", "output", "--json"]).stdout);
  }

  /** Steps of `pulumi preview --json`, as [op, type] pairs for non-"same" steps. */
  previewSteps(extra: string[] = []): Array<{ op: string; urn: string; type: string }> {
    const r = this.must(["preview", "--json", ...extra]);
    const steps = JSON.parse(r.stdout).steps ?? [];
    return steps.filter((s: any) => s.op !== "same").map((s: any) => ({ op: s.op, urn: s.urn, type: s.newState?.type ?? s.oldState?.type }));
  }

  /** The ops a preview plans for the resource named `name` (the last URN segment). */
  stepsOf(name: string): string[] {
    return this.previewSteps()
      .filter((s) => s.urn.endsWith(`::${name}`))
      .map((s) => s.op);
  }

  /** Plain stack config in one `pulumi config set-all` (a run per key cost about 0.2 s each). */
  setConfig(values: Record<string, string>): void {
    const pairs = Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
    if (pairs.length) this.must(["config", "set-all", ...pairs]);
  }

  /** Scanned for secrets first (secret-scan.ts). */
  remove(): void {
    try {
      beforeRemove(this);
    } finally {
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** A Pulumi project in a temp dir with its own local-file backend, passphrase secrets and PULUMI_HOME. */
export class PulumiProject extends PulumiCli {
  private constructor(dir: string, env: NodeJS.ProcessEnv) {
    super(dir, env);
  }

  /**
   * `auth: "none"` leaves the OAuth client out of the stack config, for tests that configure another
   * credential (API key, refresh token) through `extraConfig` / `secretConfig`. `dir` puts the
   * project in a given (new) folder instead of a temp dir of its own. The test programs run
   * transpile-only (PULUMI_NODEJS_TRANSPILE_ONLY): Pulumi's type check of a fresh project's
   * program took 7 s of its first run and 1 s of each later one, for programs written here; the
   * shipped examples' tests (`typecheck: true`, the quickstart's and the root project's) keep it.
   */
  static create(
    name: string,
    program: string,
    emu: EmulatorInfo,
    extraConfig: Record<string, string> = {},
    opts: { auth?: "client_credentials" | "none"; secretConfig?: Record<string, string>; dir?: string; typecheck?: boolean } = {},
  ): PulumiProject {
    const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), `ppd-${name}-`));
    fs.mkdirSync(dir, { recursive: true });
    const env = offlineEnv({ home: path.join(dir, ".pulumi-home"), state: path.join(dir, ".pulumi-state"), cache: path.join(dir, ".cache") });
    if (!opts.typecheck) env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    fs.mkdirSync(path.join(dir, ".pulumi-state"), { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }, null, 2));
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, target: "es2020", module: "commonjs", esModuleInterop: true, skipLibCheck: true },
        files: ["index.ts"],
      }),
    );
    const project = new PulumiProject(dir, env);
    project.setProgram(program);
    installPackage(dir);
    project.must(["stack", "init", "dev"]);
    const config: Record<string, string> = {
      "pagerduty:apiUrl": emu.apiUrl,
      "pagerduty:authUrl": emu.authUrl,
      "pagerduty:subdomain": emu.account.subdomain,
      "pagerduty:serviceRegion": emu.account.region,
      escalationPolicyId: emu.escalationPolicyId,
      ...(opts.auth === "none" ? {} : { "pagerduty:clientId": emu.oauth.clientId }),
      ...extraConfig,
    };
    const secrets = { ...(opts.auth === "none" ? {} : { "pagerduty:clientSecret": emu.oauth.clientSecret }), ...opts.secretConfig };
    // Secrets go through stdin, never into argv.
    project.setConfig(config);
    for (const [k, v] of Object.entries(secrets)) project.must(["config", "set", "--secret", k], 0, v);
    return project;
  }

  setProgram(source: string): void {
    fs.writeFileSync(path.join(this.dir, "index.ts"), source);
  }
}

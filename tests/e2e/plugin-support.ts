// What the package's e2e tests share (example-full-python, example-full-yaml, plugin-fresh-runner, plugin-sdks): the
// plugin as users install it (the packed package's `pulumi-resource-pagerduty-dynamic`, put on
// PATH), the language hosts and SDK generator of scripts/setup-language-hosts.sh, and a project of
// any runtime with its stack on a local backend, configured for the emulator under the package's
// namespace.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type EmulatorInfo, installPackage, offlineEnv, PulumiCli, pulumiBin, ROOT, type EmulatorProcess } from "./harness";

/** Directory with pulumi-language-yaml, pulumi-language-python (+ its exec shim), pulumi-sdkgen and hosts.json (what was built). */
export function languageHosts(): string {
  if (process.env.PULUMI_HOSTS_DIR) return process.env.PULUMI_HOSTS_DIR;
  const out = execFileSync("bash", [path.join(ROOT, "scripts/setup-language-hosts.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  process.env.PULUMI_HOSTS_DIR = out.trim().split("\n").pop()!;
  return process.env.PULUMI_HOSTS_DIR;
}

/** What scripts/setup-language-hosts.sh built (its hosts.json): the YAML host's release, and the Python host's module and whether it is a current one (its own module at the CLI's release) or the v3.68 fallback. */
export interface BuiltHosts {
  pulumi: string;
  yaml: string;
  python: string;
  pythonCurrent: boolean;
}

export function builtHosts(): BuiltHosts {
  return JSON.parse(fs.readFileSync(path.join(languageHosts(), "hosts.json"), "utf8"));
}

/** Whether scripts/setup-pulumi.sh's Node.js host is a current one: not its sdk/v3@v3.68.0 fallback, which answers neither GeneratePackage nor GenerateProgram. */
export function nodejsHostCurrent(): boolean {
  const complete = path.join(pulumiBin(), ".complete");
  return !(fs.existsSync(complete) && fs.readFileSync(complete, "utf8").includes("(fallback)"));
}

/** The CLI's version (without "v"). */
export function cliVersion(): string {
  return execFileSync(path.join(pulumiBin(), "pulumi"), ["version"], { encoding: "utf8" }).trim().replace(/^v/, "");
}

/** pip's requirement for Python's `pulumi`: the newest release PyPI serves at or below the CLI's version (PyPI may not have the CLI's own yet). */
export function pythonSdkRequirement(): string {
  return `pulumi<=${cliVersion()}`;
}

/** Installs the packed package (and its peer, the SDK) into `dir` as `npm install` does (harness.ts); the directory holding its bins. */
export function installPlugin(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "plugin-install", private: true }));
  installPackage(dir);
  return path.join(dir, "node_modules", ".bin");
}

/** A project of any runtime whose program uses the package; its stack configured for the emulator. */
export class PackageProject extends PulumiCli {
  constructor(dir: string, pluginBin: string, extraEnv: NodeJS.ProcessEnv = {}) {
    const base = offlineEnv({ home: path.join(dir, ".pulumi-home"), state: path.join(dir, ".pulumi-state"), cache: path.join(dir, ".cache") });
    super(dir, { ...base, PATH: [pluginBin, languageHosts(), base.PATH].join(path.delimiter), ...extraEnv });
    fs.mkdirSync(path.join(dir, ".pulumi-state"), { recursive: true });
  }

  static make(prefix: string): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), `ppd-${prefix}-`));
  }

  /** A stack "dev" with the default provider's settings (the client secret as a secret, on stdin). */
  initStack(emu: EmulatorInfo, config: Record<string, string> = {}, secrets: Record<string, string> = {}): void {
    this.must(["stack", "init", "dev"]);
    const settings: Record<string, string> = {
      "pagerduty-dynamic:apiUrl": emu.apiUrl,
      "pagerduty-dynamic:authUrl": emu.authUrl,
      "pagerduty-dynamic:subdomain": emu.account.subdomain,
      "pagerduty-dynamic:clientId": emu.oauth.clientId,
      ...config,
    };
    this.setConfig(settings);
    for (const [k, v] of Object.entries({ "pagerduty-dynamic:clientSecret": emu.oauth.clientSecret, ...secrets }))
      this.must(["config", "set", "--secret", k], 0, v);
  }
}

/**
 * A YAML program's second account: the config block declaring the secret `euClientSecret` and the
 * resource `eu`, an explicit provider of the emulator's EU account (resources pass `provider: ${eu}`).
 */
export function euProviderYaml(e: EmulatorProcess): { config: string; resource: string } {
  return {
    config: `config:
  euClientSecret:
    type: string
    secret: true
`,
    resource: `  eu:
    type: pulumi:providers:pagerduty-dynamic
    properties:
      apiUrl: ${e.euApiUrl}
      authUrl: ${e.authUrl}
      subdomain: ${e.eu!.account.subdomain}
      serviceRegion: eu
      clientId: ${e.eu!.oauth.clientId}
      clientSecret: \${euClientSecret}
`,
  };
}

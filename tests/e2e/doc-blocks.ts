// The documentation's commands and programs that end-to-end tests run as written: each block
// follows a marker comment naming it (`<!-- <name>: ... -->`) in a page of the repository (docs/,
// the README), so a test fails when the page's block changes into something that does not work.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as os from "node:os";
import { type PulumiCli, pulumiBin, ROOT, type RunResult } from "./harness";

/** The fenced block right after the marker `<!-- <name>:` in `file` (a path from the repository's root), without its fences. */
export function docBlock(file: string, name: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const marker = `<!-- ${name}:`;
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) throw new Error(`${file} must have one "${marker}" marker`);
  const rest = text.slice(text.indexOf("-->", at) + 3);
  const block = /^\n```[a-z]*\n([\s\S]*?)^```$/m.exec(rest);
  if (block?.index !== 0) throw new Error(`${file}: a fenced block must follow "${marker}"`);
  return block![1]!;
}

/**
 * Runs `script` with bash in strict mode (-euo pipefail) in the project's directory with its
 * environment, as a user's shell would run the page's lines; what it prints goes to the project's
 * log (the secret scan). npm is set, as a user's .npmrc would set it, to take what its cache holds
 * without asking the registry again and to skip audit and funding: the commands stay as written.
 */
export function runBash(script: string, project: PulumiCli): RunResult {
  const npm = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
  const r = spawnSync("bash", ["-euo", "pipefail", "-c", script], { cwd: project.dir, env: { ...project.env, ...npm }, encoding: "utf8", maxBuffer: 64 << 20 });
  project.log += r.stdout + r.stderr;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `script` and throws with its output unless it succeeds. */
export function mustBash(script: string, project: PulumiCli): RunResult {
  const r = runBash(script, project);
  if (r.code !== 0) throw new Error(`bash exited ${r.code}:\n${script}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** How many requests that change something the emulator has answered (every method but GET, the token endpoint aside). */
export async function writesSoFar(emu: { admin: (m: string, p: string) => Promise<{ body: any }> }): Promise<Record<string, number>> {
  const stats = (await emu.admin("GET", "/_emulator/stats")).body.byRoute as Record<string, Record<string, number>>;
  return Object.fromEntries(
    Object.entries(stats)
      .filter(([route]) => !route.startsWith("GET ") && route !== "POST /oauth/token")
      .map(([route, byStatus]) => [route, Object.values(byStatus).reduce((a, b) => a + b, 0)]),
  );
}

/**
 * How this machine reaches the package registries, which a user's shell here has too: the proxy, and
 * the certificate authorities it trusts (a proxy that re-signs TLS needs its CA in NODE_EXTRA_CA_CERTS,
 * else npm fails every fetch with SELF_SIGNED_CERT_IN_CHAIN and retries for minutes).
 */
const REACHING_REGISTRIES = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];

/**
 * A user's shell, as the docs' blocks run in it: a home of its own (nothing of this machine's Pulumi
 * login), the shared npm cache and the way to the registries, the Pulumi CLI the tests use first on
 * PATH, no update checks, no colour.
 */
export function userShellEnv(home: string): NodeJS.ProcessEnv {
  fs.mkdirSync(home, { recursive: true });
  return {
    ...Object.fromEntries(REACHING_REGISTRIES.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
    PATH: `${pulumiBin()}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    npm_config_cache: process.env.npm_config_cache || path.join(os.homedir(), ".npm"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
  };
}

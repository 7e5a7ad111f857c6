// The repository as a user has it after `git clone`, `npm install` and `npm run build`, in a temp
// dir: tracked and new (not ignored) files, the build from the packed package, and node_modules
// linked. Pulumi runs at its root with its own backend, so nothing lands in the shared tree and
// tests running in parallel never meet each other's stacks.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { filesText, offlineEnv, PulumiCli, ROOT, tarball, type EmulatorInfo } from "./harness";

/**
 * `dir/node_modules` with an entry per entry of the repository's: installed packages linked to
 * the repository's copies, workspace links (entries linking back into the repository) relinked to
 * the same place in `dir`, so `pulumi-pagerduty-dynamic` resolves to the clone, not the repository.
 */
function linkNodeModules(dir: string): void {
  const root = fs.realpathSync(ROOT);
  const from = path.join(root, "node_modules");
  const to = path.join(dir, "node_modules");
  fs.mkdirSync(to);
  for (const name of fs.readdirSync(from)) {
    const entry = path.join(from, name);
    const real = fs.realpathSync(entry);
    const workspace = fs.lstatSync(entry).isSymbolicLink() && !path.relative(root, real).startsWith("..") && !real.startsWith(from + path.sep);
    const target = workspace ? path.join(dir, path.relative(root, real)) : entry;
    fs.symlinkSync(target, path.join(to, name), "dir");
  }
}

export class RootClone extends PulumiCli {
  /** The backend's directory and PULUMI_HOME, beside the clone (a clone's files stay a clone's). */
  readonly home: string;

  constructor(name: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ppd-${name}-`));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `ppd-${name}-home-`));
    super(dir, offlineEnv({ home: path.join(home, "pulumi-home"), state: path.join(home, "state"), cache: path.join(home, "cache") }));
    this.home = home;
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((f) => f && fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    }
    // `npm run build`: the build in the packed package (a fixed copy while others rebuild dist/).
    const unpacked = path.join(dir, ".unpack");
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", tarball(), "-C", unpacked]);
    fs.renameSync(path.join(unpacked, "package", "dist"), path.join(dir, "dist"));
    fs.rmSync(unpacked, { recursive: true });
    // `npm install`: the repository's own dependencies, and its workspace links (this package, the
    // emulator, the examples) pointing into the clone as `npm install` makes them there.
    linkNodeModules(dir);
    fs.mkdirSync(path.join(home, "state"), { recursive: true });
  }

  /** Non-secret stack config for the emulator's account (what a user sets once, then commits). */
  configFor(emu: EmulatorInfo): Record<string, string> {
    return {
      "pagerduty:apiUrl": emu.apiUrl,
      "pagerduty:authUrl": emu.authUrl,
      "pagerduty:subdomain": emu.account.subdomain,
      "pagerduty:serviceRegion": emu.account.region,
      "pagerduty:clientId": emu.oauth.clientId,
      escalationPolicyId: emu.escalationPolicyId,
    };
  }

  /** Every file the backend wrote, concatenated. */
  override stateText(): string {
    return filesText(path.join(this.home, "state"));
  }

  override remove(): void {
    try {
      super.remove();
    } finally {
      fs.rmSync(this.home, { recursive: true, force: true });
    }
  }
}

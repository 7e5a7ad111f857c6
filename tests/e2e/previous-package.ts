// The package as an earlier commit packed it, for the upgrade test: built from this clone's git
// history (no registry has it) and cached outside the clone, keyed by commit, so only the first run
// pays for it (about 10 s: `git archive`, `tsc` with this clone's node_modules, `npm pack`).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot } from "../../provider/fs/durable-file";
import { ROOT } from "../../scripts/repo-root";

/** The last commit whose providers were one serialized object per kind that captured the stack. */
export const PREVIOUS_COMMIT = "6d0ae6d519f03c8f1b7915d597c3975ba91a0d78";

/** The packed tarball of `commit` (built on first use). */
export function previousTarball(commit = PREVIOUS_COMMIT): string {
  const dir = path.join(cacheRoot(), "packages", commit);
  const done = path.join(dir, "package.tgz");
  if (fs.existsSync(done)) return done;
  try {
    execFileSync("git", ["-C", ROOT, "cat-file", "-e", `${commit}^{commit}`], { stdio: "ignore" });
  } catch {
    throw new Error(`the upgrade test needs commit ${commit} in this clone's history (a shallow clone lacks it: fetch with more depth)`);
  }
  const src = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-previous-"));
  try {
    execFileSync("bash", ["-c", 'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', "archive", ROOT, commit, src]);
    // The old sources compile with this clone's dependencies (the package's dependencies are unchanged).
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(src, "node_modules"));
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: src, stdio: "pipe" });
    const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", src], { cwd: src, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
      .trim()
      .split("\n")
      .pop()!;
    fs.mkdirSync(dir, { recursive: true });
    // Written whole, then renamed: a concurrent or interrupted run never sees half a tarball.
    const partial = `${done}.${process.pid}`;
    fs.copyFileSync(path.join(src, name), partial);
    fs.renameSync(partial, done);
    return done;
  } finally {
    fs.rmSync(src, { recursive: true, force: true });
  }
}

/** Replaces the package in a project's node_modules by the content of `tgz`, as `npm install <tgz>` would. */
export function installTarball(projectDir: string, tgz: string): void {
  const pkg = path.join(projectDir, "node_modules", "pulumi-pagerduty-dynamic");
  fs.rmSync(pkg, { recursive: true, force: true });
  fs.mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", tgz, "-C", pkg, "--strip-components=1"]);
}

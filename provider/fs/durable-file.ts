// Files the provider must find intact after a crash (rotated refresh tokens, the intent journal),
// and where the package keeps them: one place for the write-then-rename dance and the cache rules.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

/** Distinguishes the temp files of concurrent writes in this process; the pid does across processes. */
let writes = 0;

/** fsync off the event loop: the one step that waits for the disk (the others touch the page cache only). */
const fsync = (fd: number) => new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * Replaces `file` so that after a crash it holds either the old or the new text, never a torn one:
 * a private temp file beside it (same file system, so the rename is atomic), flushed, renamed over
 * it, then the directory flushed so the rename itself survives a power loss. `flush: false` skips
 * both flushes: still whole or absent after a killed process (the kernel keeps what was written),
 * but a power loss may take the write back; for records a flushed one already stands in for.
 * Opening, writing, closing and renaming are done at once (microseconds, in the page cache); only
 * the flushes wait on the thread pool, so a record costs two turns of the event loop, not eight, and
 * none without flushes: the journal writes two per create, which a small stack's `up` waits for.
 */
export async function writeFileDurably(file: string, text: string | Uint8Array, mode = 0o600, { flush = true } = {}): Promise<void> {
  // The random part keeps a temp file left by a crashed process with a reused pid from blocking O_EXCL.
  const temp = `${file}.${process.pid}.${++writes}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    // O_EXCL: never write through a file (or link) someone placed at the temp name.
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode);
    try {
      fs.writeFileSync(fd, text);
      if (flush) await fsync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
  if (flush) await syncDir(dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    await fsync(fd);
  } catch {
    // Some file systems (and Windows) cannot fsync a directory; the rename is atomic regardless.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The package's cache directory: `$PULUMI_PAGERDUTY_CACHE` when set, else
 * `$XDG_CACHE_HOME/pulumi-pagerduty-dynamic`, else `$HOME/.cache/pulumi-pagerduty-dynamic`. A
 * relative path in either variable is ignored (the XDG spec's rule), so the directory never
 * depends on where a command happens to run. scripts/cache-dir.sh is the same rule for the
 * scripts (tests/unit/provider/fs/durable-file.test.ts holds the two to each other).
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const own = env.PULUMI_PAGERDUTY_CACHE?.trim();
  if (own && isAbsolute(own)) return own;
  const xdg = env.XDG_CACHE_HOME?.trim();
  const home = env.HOME?.trim() || homedir();
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, ".cache"), "pulumi-pagerduty-dynamic");
}

/**
 * `<cache root>-tokens` (e.g. `~/.cache/pulumi-pagerduty-dynamic-tokens`): where rotated refresh
 * tokens are kept, beside the package's cache root, not in it, so making it private (0700) never
 * changes a directory other tools use.
 */
export function defaultTokenCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return `${cacheRoot(env)}-tokens`;
}

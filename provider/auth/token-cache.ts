// What the credentials' flows keep across processes, in private files (0700 dir, 0600 file, owned by
// this user) replaced atomically; file names are hashes, never tokens. Two kinds of entry:
// - rotated refresh tokens (RefreshTokenCache): each refresh invalidates the token it used, so the
//   configured one is spent after the first run and the rotated one must survive on disk, durably,
//   with a lock file so two processes never spend the same token;
// - credentials the REST API has taken (AcceptedCredentials), so a process whose new token is for a
//   credential taken before skips the region check's request.
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError } from "../errors";
import { writeFileDurably } from "../fs/durable-file";

export interface TokenCacheOptions {
  dir: string;
  warn: (message: string) => void;
  /** How long to wait for another process's refresh before giving up. */
  lockTimeoutMs?: number;
  /** A lock older than this is taken over even if its owner looks alive. */
  staleLockMs?: number;
}

interface CacheFile {
  version: 1;
  refreshToken: string;
  updatedAt: string;
}

const checkPermissions = process.platform !== "win32";

/** The directory's rules: private to this user, entries read only when they are too. */
class PrivateDir {
  readonly dir: string;
  protected readonly warn: (message: string) => void;

  constructor(options: { dir: string; warn: (message: string) => void }) {
    this.dir = options.dir;
    this.warn = options.warn;
  }

  /** Creates the directory private to this user, or refuses one that someone else could read. */
  async ensureDir(): Promise<void> {
    const st = await fs
      .mkdir(this.dir, { recursive: true, mode: 0o700 })
      .then(() => fs.lstat(this.dir))
      .catch((e: Error) => {
        throw new ConfigError(`cannot use cache directory ${this.dir}: ${e.message}`);
      });
    if (!st.isDirectory()) throw new ConfigError(`cache ${this.dir} is not a directory`);
    if (!checkPermissions) return;
    if (st.uid !== process.getuid?.()) throw new ConfigError(`cache ${this.dir} belongs to another user; refusing to keep anything there`);
    if (st.mode & 0o077) {
      this.warn(`token cache ${this.dir} was accessible to other users (mode ${octal(st.mode)}); restricting it to 0700`);
      await fs.chmod(this.dir, 0o700);
    }
  }

  /**
   * A file's JSON, or undefined when absent, unreadable, malformed, or not private to this user (said,
   * except absent, unless `quiet`).
   */
  protected async readJson(file: string, { quiet = false } = {}): Promise<unknown> {
    const warn = quiet ? () => undefined : this.warn;
    let text: string;
    try {
      const st = await fs.lstat(file);
      if (!st.isFile() || (checkPermissions && (st.uid !== process.getuid?.() || st.mode & 0o077))) {
        warn(`ignoring token cache file ${file}: it must be a regular file owned by this user with mode 0600 (found ${octal(st.mode)})`);
        return undefined;
      }
      text = await fs.readFile(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") warn(`ignoring unreadable token cache file ${file}: ${(e as Error).message}`);
      return undefined;
    }
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
}

export class RefreshTokenCache extends PrivateDir {
  private readonly lockTimeoutMs: number;
  private readonly staleLockMs: number;

  constructor(options: TokenCacheOptions) {
    super(options);
    this.lockTimeoutMs = options.lockTimeoutMs ?? 120_000;
    this.staleLockMs = options.staleLockMs ?? 600_000;
  }

  /**
   * One entry per lineage: the token endpoint, the client and the refresh token from config. A new
   * token in config starts a new lineage, so it is never shadowed by an older cached one.
   */
  static key(tokenUrl: string, clientId: string, configuredToken: string): string {
    return createHash("sha256").update(`${tokenUrl}\n${clientId}\n${configuredToken}`).digest("hex");
  }

  path(key: string): string {
    return join(this.dir, `refresh-${key}.json`);
  }

  /** The cached refresh token, or undefined when absent, unreadable, or not private to this user. */
  async read(key: string): Promise<string | undefined> {
    const file = this.path(key);
    const parsed = (await this.readJson(file)) as Partial<CacheFile> | null | undefined;
    if (parsed === undefined) return undefined;
    if (parsed?.version === 1 && typeof parsed.refreshToken === "string" && parsed.refreshToken) return parsed.refreshToken;
    this.warn(`ignoring malformed token cache file ${file}`);
    return undefined;
  }

  /** Replaces the entry atomically, so a crash never leaves a torn token behind. */
  async write(key: string, refreshToken: string): Promise<void> {
    const content: CacheFile = { version: 1, refreshToken, updatedAt: new Date().toISOString() };
    await writeFileDurably(this.path(key), JSON.stringify(content), 0o600);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.path(key), { force: true });
  }

  /** Runs `fn` holding an exclusive lock on the entry across processes of this machine. */
  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    await this.ensureDir();
    const lock = `${this.path(key)}.lock`;
    const deadline = Date.now() + this.lockTimeoutMs;
    for (;;) {
      try {
        await fs.writeFile(lock, String(process.pid), { flag: "wx", mode: 0o600 });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        if (await this.isStale(lock)) {
          await fs.rm(lock, { force: true });
          continue;
        }
        if (Date.now() > deadline) {
          throw new ConfigError(`timed out waiting for token cache lock ${lock}; delete it if no other pulumi process is running`);
        }
        await sleep(50);
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }

  /** Stale: its process is gone, or it is older than any refresh could take. */
  private async isStale(lock: string): Promise<boolean> {
    try {
      const [st, text] = await Promise.all([fs.stat(lock), fs.readFile(lock, "utf8")]);
      if (Date.now() - st.mtimeMs > this.staleLockMs) return true;
      const pid = Number(text);
      return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
    } catch {
      return false; // vanished or half-written: just try again
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/**
 * Which credentials a REST API has taken, so the region check (a new token shown to the REST API
 * once, account/deployment.ts) is made once per machine rather than once per process: one small
 * file per credential and API, named by a hash of them. No token, no secret: a token kept here
 * would spare the token request, which is what proves the credential: an app's OAuth client
 * deleted and made anew leaves its old tokens working (PagerDuty does not revoke them), and a
 * preview with the old settings must still fail. A lost or unreadable entry costs one request.
 */
export class AcceptedCredentials extends PrivateDir {
  /** An entry lives this long; the region check is then made once more. */
  static readonly LIFETIME_MS = 30 * 86_400_000;

  /** The entry of a credential at a REST API: a hash of both (secrets included: a changed one is another entry). */
  static key(parts: readonly string[]): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
  }

  path(key: string): string {
    return join(this.dir, `accepted-${key}.json`);
  }

  /** Whether the REST API took this credential, not longer ago than an entry lives. */
  async has(key: string, now = Date.now()): Promise<boolean> {
    const entry = (await this.readJson(this.path(key))) as { version?: unknown; acceptedAt?: unknown } | null | undefined;
    return entry?.version === 1 && typeof entry.acceptedAt === "number" && now - entry.acceptedAt < AcceptedCredentials.LIFETIME_MS;
  }

  /** Records that the REST API took the credential; entries past their lifetime go meanwhile. */
  async record(key: string, now = Date.now()): Promise<void> {
    await this.ensureDir();
    await writeFileDurably(this.path(key), JSON.stringify({ version: 1, acceptedAt: now }), 0o600, { flush: false });
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => /^accepted-[0-9a-f]{64}\.json$/.test(n))) {
      const file = join(this.dir, name);
      // Quietly: another process's entry is not this credential's concern.
      const at = ((await this.readJson(file, { quiet: true })) as { acceptedAt?: unknown } | null | undefined)?.acceptedAt;
      if (typeof at === "number" && now - at >= AcceptedCredentials.LIFETIME_MS) await fs.rm(file, { force: true });
    }
  }
}

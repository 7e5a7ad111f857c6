// The intent journal: a record, on this machine's disk, of each create this provider sends, written
// (and fsynced) before the POST leaves and again when its reply names the new object. The engine
// records a create only after the provider returns, so a deployment killed in between leaves an
// object the state does not know; the next create of the same declared resource (same `__origin`)
// reads the journal to find it instead of making a second one. No request is ever made for it, and
// nothing secret is written: the origin key, ids, times, the REST API's URL (the settings refuse
// one with credentials) and the 4-character credential tail that audit records show anyway. A
// create waits for its own record, but the event loop never waits for a disk: the flushes run on
// the thread pool (synchronous fsyncs were most of the provider's own time in up), the rest of a
// write is page-cache work done at once (fs/durable-file.ts).
// Only the record written before the POST is flushed to disk; the id recorded after it is not.
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { cacheRoot, writeFileDurably } from "../fs/durable-file";

export interface Intent {
  /** The SDK's provenance key of the declared resource (hash of project, stack, type, name, parent). */
  origin: string;
  /** Resource kind, e.g. "Service". */
  kind: string;
  /** Parent service of a child object. */
  parent?: string;
  /** Epoch ms just before the POST was sent. */
  sentAt: number;
  /** Credential as audit records show it: its last 4 characters. */
  credential: string;
  /** Id of the created object, once a reply named it. */
  id?: string;
  /**
   * The REST API the create was sent to. An entry of another one (a throwaway emulator since gone,
   * whose stack went with it) says nothing of this one's objects. Absent in entries of earlier versions.
   */
  api?: string;
}

/** Entries older than this are dropped: an interrupted deployment is resumed within days, not months. */
const MAX_AGE_MS = 30 * 86_400_000;

/** Default location: the user's cache directory, beside the token cache. */
export function defaultJournalDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PAGERDUTY_JOURNAL_DIR || path.join(cacheRoot(env), "journal");
}

const fileKey = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 40);

/** The name of an entry file: its origin's key. */
const ENTRY_NAME = /^[0-9a-f]{40}\.json$/;

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

export class Journal {
  readonly dir: string;
  private ready = false;

  constructor(dir = defaultJournalDir()) {
    this.dir = dir;
  }

  private entry(origin: string): string {
    return path.join(this.dir, `${fileKey(origin)}.json`);
  }

  private byId(kind: string, id: string): string {
    return path.join(this.dir, "by-id", `${fileKey(`${kind}/${id}`)}`);
  }

  /**
   * The id links present, listed once per process and kept up to date by its own writes, so a
   * hand-over (every diff) of an id without a link, the common case, touches no file. Links other
   * processes write later belong to other stacks' objects: one stack's deployments do not overlap.
   */
  private links?: Set<string>;

  private linked(): Set<string> {
    if (!this.links) {
      try {
        this.links = new Set(fs.readdirSync(path.join(this.dir, "by-id")));
      } catch {
        this.links = new Set();
      }
    }
    return this.links;
  }

  /**
   * Makes the directories that are missing, private to this user (0700 whatever the umask). A
   * directory that exists is left as it is: PAGERDUTY_JOURNAL_DIR may name a shared one (a 1777
   * scratch directory), whose mode is not this provider's to change; nothing written is secret.
   */
  private ensure(): void {
    if (this.ready) return;
    for (const dir of [path.resolve(this.dir), path.resolve(this.dir, "by-id")]) {
      const first = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (first === undefined) continue;
      // Every directory from `dir` up to the first one made is this provider's.
      for (let d = dir; ; d = path.dirname(d)) {
        fs.chmodSync(d, 0o700);
        if (d === path.resolve(first) || d === path.dirname(d)) break;
      }
    }
    this.ready = true;
    this.prune();
  }

  /** The last intent recorded for a declared resource. */
  load(origin: string): Intent | undefined {
    const found = readJson<Intent>(this.entry(origin));
    return found?.origin === origin ? found : undefined;
  }

  /** Records that a create is about to be sent (durable once this resolves: await it before the request leaves). */
  async begin(intent: Intent): Promise<void> {
    this.ensure();
    await writeFileDurably(this.entry(intent.origin), JSON.stringify(intent));
  }

  /**
   * Records the id a create's reply (or an adoption) gave the declared resource. Atomic but not
   * flushed (half the journal's time in an `up`): a killed process keeps it; after a power loss
   * the flushed `begin` record stands, and recovery finds the object by searching as for a reply
   * that never came.
   */
  async done(intent: Intent, id: string): Promise<void> {
    this.ensure();
    const link = this.byId(intent.kind, id);
    await writeFileDurably(link, intent.origin, 0o600, { flush: false });
    this.linked().add(path.basename(link));
    await writeFileDurably(this.entry(intent.origin), JSON.stringify({ ...intent, id }), 0o600, { flush: false });
  }

  /** Marks an object this process created or adopted for a resource: no other create may adopt it. */
  claim(kind: string, id: string): void {
    this.claims.add(`${kind}/${id}`);
  }

  /** Whether this process created or adopted the object (it belongs to some resource of this deployment). */
  claimed(kind: string, id: string): boolean {
    return this.claims.has(`${kind}/${id}`);
  }

  private readonly claims = new Set<string>();

  /** Forgets an intent whose create was refused: nothing was made, so nothing is to be looked for. */
  async discard(intent: Intent): Promise<void> {
    const entry = this.load(intent.origin);
    if (entry && entry.sentAt === intent.sentAt && !entry.id) await fsp.rm(this.entry(intent.origin), { force: true });
  }

  /** The origin an id was recorded for, if any: such an object belongs to that declared resource. */
  claimant(kind: string, id: string): string | undefined {
    try {
      return fs.readFileSync(this.byId(kind, id), "utf8");
    } catch {
      return undefined;
    }
  }

  /**
   * Forgets an id the engine has shown it knows (it diffs, updates or deletes it): from then on the
   * state, not the journal, says which resource owns it. Called from diff, which must not wait for
   * it: the work runs in the background (nothing in the common case, see `linked`) and a failure only
   * leaves an entry that the next hand-over or the 30-day prune removes. `idle()` awaits it.
   */
  handOver(kind: string, id: string): void {
    const work = this.forget(kind, id).catch(() => undefined);
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** Resolves when every background hand-over has finished (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.background]);
  }

  private readonly background = new Set<Promise<unknown>>();

  private async forget(kind: string, id: string): Promise<void> {
    const link = this.byId(kind, id);
    if (!this.linked().has(path.basename(link))) return;
    let origin: string;
    try {
      origin = await fsp.readFile(link, "utf8");
    } catch {
      return;
    }
    const entry = this.load(origin);
    if (entry?.id === id) await fsp.rm(this.entry(origin), { force: true });
    await fsp.rm(link, { force: true });
    this.linked().delete(path.basename(link));
  }

  /** Drops entries past MAX_AGE_MS (and their id links); other files of a shared directory are left alone. */
  private prune(now = Date.now()): void {
    for (const name of fs.readdirSync(this.dir)) {
      if (!ENTRY_NAME.test(name)) continue;
      const file = path.join(this.dir, name);
      const entry = readJson<Intent>(file);
      if (entry && now - entry.sentAt <= MAX_AGE_MS) continue;
      if (entry?.id) fs.rmSync(this.byId(entry.kind, entry.id), { force: true });
      fs.rmSync(file, { force: true });
    }
    this.links = undefined;
  }
}

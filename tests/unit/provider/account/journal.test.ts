// PAGERDUTY_JOURNAL_DIR may name a directory that exists (a shared 1777 scratch directory): only the
// directories the journal makes are made private, and its pruning touches only its own entries.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Journal } from "../../../../provider/account/journal";

let root: string;
beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-journal-dir-"))));
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const mode = (p: string) => fs.statSync(p).mode & 0o7777;
const intent = { origin: "o1", kind: "Service", sentAt: Date.now(), credential: "****abcd" };

test("an existing shared directory keeps its mode; what the journal makes in it is 0700", async () => {
  const shared = path.join(root, "shared");
  fs.mkdirSync(shared);
  fs.chmodSync(shared, 0o1777);
  await new Journal(shared).begin(intent);
  expect(mode(shared)).toBe(0o1777);
  expect(mode(path.join(shared, "by-id"))).toBe(0o700);
  expect(new Journal(shared).load("o1")).toMatchObject({ origin: "o1", kind: "Service" });
});

test("directories the journal creates, down from the first missing one, are 0700; the existing parent is left alone", async () => {
  fs.chmodSync(root, 0o755);
  const dir = path.join(root, "a", "b", "journal");
  await new Journal(dir).begin(intent);
  expect(mode(root)).toBe(0o755);
  for (const d of [path.join(root, "a"), path.join(root, "a", "b"), dir, path.join(dir, "by-id")]) expect({ d, mode: mode(d) }).toEqual({ d, mode: 0o700 });
});

test("pruning removes old entries of the journal only, never other files of the directory", async () => {
  const shared = path.join(root, "shared");
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(shared, "settings.json"), JSON.stringify({ theme: "dark" }));
  fs.writeFileSync(path.join(shared, "old.json"), JSON.stringify({ origin: "x", sentAt: 0 }));
  const journal = new Journal(shared);
  await journal.begin({ ...intent, origin: "stale", sentAt: Date.now() - 40 * 86_400_000 });
  // A second journal over the directory prunes on its first write.
  await new Journal(shared).begin(intent);
  expect(new Journal(shared).load("stale")).toBeUndefined();
  expect(new Journal(shared).load("o1")).toBeDefined();
  expect(fs.readFileSync(path.join(shared, "settings.json"), "utf8")).toBe('{"theme":"dark"}');
  expect(fs.existsSync(path.join(shared, "old.json"))).toBe(true);
});

describe("hand-over (every diff)", () => {
  const files = (dir: string) => [...fs.readdirSync(dir).filter((n) => n.endsWith(".json")), ...fs.readdirSync(path.join(dir, "by-id"))].sort();

  test("an id recorded by an earlier process is forgotten, its entry and link removed", async () => {
    const dir = path.join(root, "j");
    await new Journal(dir).done(intent, "P1");
    expect(files(dir)).toHaveLength(2);
    const next = new Journal(dir);
    expect(next.claimant("Service", "P1")).toBe("o1");
    next.handOver("Service", "P1");
    await next.idle();
    expect(files(dir)).toEqual([]);
    expect(next.load("o1")).toBeUndefined();
  });

  test("an id this process recorded is forgotten too; an id without a link touches no file", async () => {
    const dir = path.join(root, "j");
    const journal = new Journal(dir);
    await journal.done(intent, "P1");
    const readFile = jest.spyOn(fs.promises, "readFile");
    try {
      journal.handOver("Service", "P9");
      await journal.idle();
      expect(readFile).not.toHaveBeenCalled();
      journal.handOver("Service", "P1");
      await journal.idle();
      expect(readFile).toHaveBeenCalledTimes(1);
    } finally {
      readFile.mockRestore();
    }
    expect(files(dir)).toEqual([]);
  });
});

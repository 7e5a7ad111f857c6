import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheRoot, writeFileDurably } from "../../../../provider/fs/durable-file";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ppd-durable-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("writeFileDurably", () => {
  it("writes the text into a file only this user can read, replacing what was there", async () => {
    const file = join(dir, "entry.json");
    writeFileSync(file, "old", { mode: 0o644 });
    await writeFileDurably(file, '{"v":1}');
    expect(readFileSync(file, "utf8")).toBe('{"v":1}');
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["entry.json"]);
  });

  it("lets concurrent writes to one file all succeed, leaving one whole content and no temp file", async () => {
    const file = join(dir, "entry.json");
    // Long texts, so a torn or interleaved write would show.
    const texts = Array.from({ length: 20 }, (_, i) => `${i}:`.padEnd(64 * 1024, String.fromCharCode(97 + i)));
    await Promise.all(texts.map((t) => writeFileDurably(file, t)));
    expect(texts).toContain(readFileSync(file, "utf8"));
    expect(readdirSync(dir)).toEqual(["entry.json"]);
  });

  it("flushes the file and its directory by default, off the event loop; with flush: false it writes the same way without either", async () => {
    const fs = require("node:fs") as typeof import("node:fs");
    const opened: string[] = [];
    const flushed: number[] = [];
    const openSync = jest.spyOn(fs, "openSync");
    const fsync = jest.spyOn(fs, "fsync");
    const fsyncSync = jest.spyOn(fs, "fsyncSync");
    try {
      const file = join(dir, "entry.json");
      await writeFileDurably(file, "flushed");
      for (const [p] of openSync.mock.calls) opened.push(String(p));
      for (const [fd] of fsync.mock.calls) flushed.push(fd as number);
      expect({ opened: opened.length, flushes: flushed.length }).toEqual({ opened: 2, flushes: 2 });
      expect(opened[1]).toBe(dir);
      // The flushes wait on the thread pool, never on the event loop.
      expect(fsyncSync).not.toHaveBeenCalled();
      openSync.mockClear();
      fsync.mockClear();
      await writeFileDurably(file, "not flushed", 0o600, { flush: false });
      expect({ opened: openSync.mock.calls.length, flushes: fsync.mock.calls.length }).toEqual({ opened: 1, flushes: 0 });
      expect(readFileSync(file, "utf8")).toBe("not flushed");
      expect(readdirSync(dir)).toEqual(["entry.json"]);
    } finally {
      openSync.mockRestore();
      fsync.mockRestore();
      fsyncSync.mockRestore();
    }
  });

  it("removes its temp file when the rename fails", async () => {
    const target = join(dir, "taken");
    mkdirSync(join(target, "child"), { recursive: true });
    await expect(writeFileDurably(target, "x")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});

describe("cacheRoot", () => {
  it("is pulumi-pagerduty-dynamic under an absolute XDG_CACHE_HOME, else under $HOME/.cache", () => {
    expect(cacheRoot({ XDG_CACHE_HOME: "/tmp/xdg", HOME: "/home/u" })).toBe("/tmp/xdg/pulumi-pagerduty-dynamic");
    expect(cacheRoot({ HOME: "/home/u" })).toBe("/home/u/.cache/pulumi-pagerduty-dynamic");
    // The XDG spec says a relative path is to be ignored; blank is unset.
    expect(cacheRoot({ XDG_CACHE_HOME: "cache", HOME: "/home/u" })).toBe("/home/u/.cache/pulumi-pagerduty-dynamic");
    expect(cacheRoot({ XDG_CACHE_HOME: " ", HOME: "/home/u" })).toBe("/home/u/.cache/pulumi-pagerduty-dynamic");
  });

  it("is PULUMI_PAGERDUTY_CACHE when that is an absolute path", () => {
    expect(cacheRoot({ PULUMI_PAGERDUTY_CACHE: "/srv/ppd", XDG_CACHE_HOME: "/tmp/xdg", HOME: "/home/u" })).toBe("/srv/ppd");
    expect(cacheRoot({ PULUMI_PAGERDUTY_CACHE: "ppd", XDG_CACHE_HOME: "/tmp/xdg", HOME: "/home/u" })).toBe("/tmp/xdg/pulumi-pagerduty-dynamic");
  });

  it("is the rule scripts/cache-dir.sh follows, case by case", () => {
    const cases: NodeJS.ProcessEnv[] = [
      { HOME: "/home/u" },
      { HOME: "/home/u", XDG_CACHE_HOME: "/tmp/xdg" },
      { HOME: "/home/u", XDG_CACHE_HOME: "cache" },
      { HOME: "/home/u", XDG_CACHE_HOME: " " },
      { HOME: "/home/u", XDG_CACHE_HOME: "/tmp/xdg", PULUMI_PAGERDUTY_CACHE: "/srv/ppd" },
      { HOME: "/home/u", PULUMI_PAGERDUTY_CACHE: "relative" },
      { HOME: "/home/u", PULUMI_PAGERDUTY_CACHE: " " },
    ];
    const script = join(__dirname, "../../../../scripts/cache-dir.sh");
    for (const env of cases) {
      const shell = execFileSync("bash", ["-c", `. "${script}" && cache_dir`], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8" }).trim();
      expect({ env, dir: shell }).toEqual({ env, dir: cacheRoot(env) });
    }
  });
});

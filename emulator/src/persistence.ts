// `--data FILE`: the whole state as one JSON document, so every table a kind declares is kept. It
// is written atomically (temp file, fsync, rename, fsync of the directory), so a crash mid-write
// leaves either the old file or the new one, never a torn one.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { KindTables, State } from "./store";

export function saveState(file: string, state: State): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    try {
      writeSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  try {
    const dir = openSync(dirname(file), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}

/** The state in `file`, if it exists; `tables` (the kinds', empty) fill in what a file written before a table existed lacks. */
export function loadState(file: string, tables: KindTables): State | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as State;
  if (parsed?.version !== 1) throw new Error(`${file} is not an emulator data file (version ${parsed?.version})`);
  return { ...tables, ...parsed };
}

// `--data FILE`: the state is written atomically (temp file, fsync, rename, fsync of the
// directory), so a crash mid-write leaves either the old file or the new one, never a torn one.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { State } from "./store";

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

export function loadState(file: string): State | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as State;
  if (parsed?.version !== 1) throw new Error(`${file} is not an emulator data file (version ${parsed?.version})`);
  // Files written before incidents existed.
  parsed.incidents ??= {};
  parsed.incidentNumbers ??= {};
  // Tables added after a data file was written start empty.
  parsed.alertGroupingSettings ??= {};
  parsed.businessServices ??= {};
  parsed.serviceDependencies ??= {};
  parsed.cacheVariables ??= {};
  parsed.alerts ??= {};
  parsed.heldAlerts ??= [];
  parsed.cacheValues ??= {};
  return parsed;
}

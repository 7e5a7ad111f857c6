// The `pulumi` CLI that runs this provider process, for the few things only it can tell (the
// stack's state). The engine starts the dynamic-provider host as its own child, so on Linux the
// parent's executable is that very CLI (the version that is writing the state); elsewhere, or when
// the parent is something else (a test), the `pulumi` on PATH.
import * as fs from "node:fs";

export function pulumiCommand(parentPid = process.ppid): string {
  try {
    const exe = fs.readlinkSync(`/proc/${parentPid}/exe`);
    if (/(^|\/)pulumi$/.test(exe)) return exe;
  } catch {
    // not Linux, or not allowed: PATH decides
  }
  return "pulumi";
}

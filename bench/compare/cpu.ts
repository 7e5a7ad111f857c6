// CPU time, measured apart for each party of a `pulumi` run:
// - the dynamic-provider process: bench/cpu-probe.js, preloaded through NODE_OPTIONS into every
//   Node process the run starts, acts only in that one (its argv names the dynamic-provider script);
// - the emulator, its own process, which shares the machine's cores with the run: /proc/<pid>/stat;
// - the whole run (engine, language host, program, provider, and the provider's launcher): the
//   children's CPU of this process (cutime + cstime in /proc/self/stat) grows by what every
//   descendant used once it has been waited for, and `spawnSync` waits for `pulumi`, which waits for
//   its plugins (checked: a provider that burns 3 s of CPU adds 3 s to it).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type PulumiProject, ROOT } from "../../tests/e2e/harness";

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();

/** /proc/<pid>/stat's fields from the state on (field 3), so field n is at index n - 3. */
function statFields(pid: number | "self"): string[] {
  const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces.
  return s.slice(s.lastIndexOf(")") + 2).split(" ");
}

/** User + system CPU seconds of a live process (NaN once it is gone). */
export function processCpu(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const f = statFields(pid);
    return (Number(f[14 - 3]) + Number(f[15 - 3])) / TICKS;
  } catch {
    return NaN;
  }
}

/** CPU seconds of every descendant of this process that has been waited for. */
export function waitedChildrenCpu(): number {
  const f = statFields("self");
  return (Number(f[16 - 3]) + Number(f[17 - 3])) / TICKS;
}

/**
 * Sets up bench/cpu-probe.js for the project's next run: CPU seconds of its dynamic-provider
 * processes, and with `profileDir`, a V8 CPU profile of each written there.
 */
export function providerProbe(project: PulumiProject, profileDir?: string): { seconds(): number; program: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-cpu-"));
  const keys = ["NODE_OPTIONS", "PPD_CPU_DIR", "PPD_PROFILE_DIR"] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, project.env[k]]));
  project.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ""} --require ${path.join(ROOT, "bench/cpu-probe.js")}`.trim();
  project.env.PPD_CPU_DIR = dir;
  if (profileDir) {
    fs.mkdirSync(profileDir, { recursive: true });
    project.env.PPD_PROFILE_DIR = profileDir;
  }
  return {
    /** The provider processes' CPU seconds; read once, after the run (it also reads `program`). */
    seconds() {
      for (const k of keys) {
        if (saved[k] === undefined) delete project.env[k];
        else project.env[k] = saved[k];
      }
      const total = { provider: 0, program: 0 };
      for (const f of fs.readdirSync(dir)) total[f.startsWith("program-") ? "program" : "provider"] += Number(fs.readFileSync(path.join(dir, f), "utf8")) || 0;
      fs.rmSync(dir, { recursive: true, force: true });
      this.program = total.program / 1e6;
      return total.provider / 1e6;
    },
    /** The program processes' CPU seconds, once `seconds()` has run. */
    program: 0,
  };
}

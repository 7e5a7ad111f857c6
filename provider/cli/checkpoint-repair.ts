// A local file backend's checkpoint cut short (`failed to load checkpoint: EOF`, `unexpected end of
// JSON input`): a machine lost while the engine wrote it can leave it empty or truncated. Pulumi
// 3.248's file backend copies the checkpoint to `<file>.bak` before each write, so the .bak is the
// state one checkpoint earlier. This restores it, keeping the broken file beside it as
// `<file>.corrupt-<time>`; if the .bak is unreadable too, nothing is changed and the newest
// checkpoint of a completed update (`.pulumi/history/...`) is named. Only file:// backends (and
// `pulumi login --local`) are handled: a service backend writes its checkpoint atomically.
//
// The same message comes from a whole checkpoint whose metadata sidecar `<file>.attrs` was cut
// short: gocloud's fileblob (v0.46, under the backend) writes the checkpoint to a temp file and
// renames it, but writes the sidecar in place (create, then encode), so a kill between the two
// leaves it empty and every read fails on it with EOF. A missing sidecar reads as default metadata,
// so a broken one is moved aside (`<file>.attrs.corrupt-<time>`) and the checkpoint is kept.
//
// Layout: ../fs/file-backend.ts; metadata in `<file>.attrs`, history in
// `.pulumi/history/<project>/<stack>/<stack>-<ns>.checkpoint.json[.gz]`.
import * as fs from "node:fs";
import * as path from "node:path";
import { PagerDutyError } from "../errors";
import { checkpointFile, decompress, fileBackendDir } from "../fs/file-backend";
import type { Pulumi } from "./pulumi-runner";

/** Where a stack's state lives, as the `pulumi` CLI reports it. */
export interface StackLocation {
  /** `pulumi whoami --json`'s `url`, e.g. `file://~` or `file:///var/state`. */
  backendUrl: string;
  project: string;
  stack: string;
}

export type Repair =
  /** Not a file backend, or no checkpoint file found: nothing to check here. */
  | { kind: "not-local"; reason: string }
  /** The checkpoint parses: the failure was something else, or a write that has finished since. */
  | { kind: "intact"; file: string }
  | { kind: "restored"; file: string; kept: string; from: string }
  /** The checkpoint parses but its `.attrs` sidecar did not: the sidecar was moved aside. */
  | { kind: "sidecar"; file: string; kept: string };

/** The message a `pulumi` command prints when the checkpoint it loaded was not whole JSON. */
export const BROKEN_CHECKPOINT = /failed to load checkpoint|unexpected end of JSON input/i;

/** The stack's backend URL and fully qualified name, from the CLI (both work with a broken checkpoint). */
export function locateStack(pulumi: Pulumi, whoami: () => string): StackLocation {
  const url = (JSON.parse(whoami()) as { url?: unknown }).url;
  if (typeof url !== "string") throw new PagerDutyError("ERR_STATE", "`pulumi whoami --json` named no backend url");
  const name = pulumi(["-Q", "stack", "--show-name"]).trim();
  const parts = name.split("/");
  if (parts.length !== 3) throw new PagerDutyError("ERR_STATE", `\`pulumi stack --show-name -Q\` printed "${name}", not <organization>/<project>/<stack>`);
  return { backendUrl: url, project: parts[1], stack: parts[2] };
}

/** Whether `text` is a whole checkpoint: JSON with a version (what `pulumi stack export` needs first). */
function parses(file: string): boolean {
  try {
    const v = JSON.parse(decompress(fs.readFileSync(file)).toString("utf8")) as { version?: unknown };
    return typeof v === "object" && v !== null && typeof v.version === "number";
  } catch {
    return false;
  }
}

/** Whether a `.attrs` sidecar is absent or a JSON object, as fileblob decodes it. */
function sidecarReads(file: string): boolean {
  if (!fs.existsSync(file)) return true;
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
}

/** `2026-05-04T03:02:01.123Z` → `20260504T030201Z`, the suffix of what is kept aside. */
function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * Checks the stack's checkpoint in a file backend and restores its .bak if it does not parse.
 * Throws ERR_STATE, changing nothing, when the .bak does not parse either.
 */
export function repairCheckpoint(where: StackLocation, cwd: string, now = new Date()): Repair {
  const root = fileBackendDir(where.backendUrl, cwd);
  if (!root) return { kind: "not-local", reason: `the backend ${where.backendUrl} is not a local file backend` };
  const stacks = path.join(root, ".pulumi", "stacks");
  const projectBase = path.join(stacks, where.project, where.stack);
  const legacyBase = path.join(stacks, where.stack);
  const file = checkpointFile(projectBase) ?? checkpointFile(legacyBase);
  if (!file) return { kind: "not-local", reason: `no checkpoint of stack "${where.stack}" under ${stacks}` };
  if (parses(file)) {
    const attrs = `${file}.attrs`;
    if (sidecarReads(attrs)) return { kind: "intact", file };
    const kept = `${attrs}.corrupt-${stamp(now)}`;
    fs.renameSync(attrs, kept);
    return { kind: "sidecar", file, kept };
  }
  const bak = `${file}.bak`;
  if (!fs.existsSync(bak) || !parses(bak)) {
    const legacy = file.startsWith(`${legacyBase}.`);
    const history = newestHistory(path.join(root, ".pulumi", "history", ...(legacy ? [] : [where.project]), where.stack), where.stack);
    throw new PagerDutyError(
      "ERR_STATE",
      `the checkpoint ${file} is cut short (not whole JSON), and its backup ${bak} ${fs.existsSync(bak) ? "is unreadable too" : "does not exist"}; nothing ` +
        `was changed. ` +
        (history
          ? `The newest checkpoint of a completed update is ${history}: copy it over ${file} to go back to the state after that update ` +
            "(objects made since then are not in it: `pulumi up` then reports a taken service name with its id, adopt it with `adoptId`), then run this again"
          : `No completed update's checkpoint was found under ${path.join(root, ".pulumi", "history")}; the state has to be rebuilt (pagerduty-adopt)`),
    );
  }
  const kept = `${file}.corrupt-${stamp(now)}`;
  fs.renameSync(file, kept);
  fs.copyFileSync(bak, file);
  // The backend keeps each file's metadata (content type, md5) in `<file>.attrs`: the .bak's describe it now.
  if (fs.existsSync(`${bak}.attrs`)) fs.copyFileSync(`${bak}.attrs`, `${file}.attrs`);
  else if (!sidecarReads(`${file}.attrs`)) fs.renameSync(`${file}.attrs`, `${file}.attrs.corrupt-${stamp(now)}`);
  return { kind: "restored", file, kept, from: bak };
}

/** The newest history checkpoint in `dir` that parses, if any. */
function newestHistory(dir: string, stack: string): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const checkpoints = names
    .map((n) => ({ n, m: new RegExp(`^${stack.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-(\\d+)\\.checkpoint\\.json(\\.gz|\\.zst)?$`).exec(n) }))
    .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => (BigInt(b.m[1]) > BigInt(a.m[1]) ? 1 : -1))
    .map((x) => path.join(dir, x.n));
  return checkpoints.find(parses);
}

/** What was done, for stderr. */
export function restoredMessage(r: Extract<Repair, { kind: "restored" | "sidecar" }>): string {
  if (r.kind === "sidecar")
    return (
      `the stack's checkpoint ${r.file} is whole but its metadata file did not parse (a write cut short): it was moved aside ` +
      `as ${r.kept}; the backend reads the checkpoint without it, nothing in the state changed`
    );
  return (
    `restored the stack's checkpoint from its backup: ${r.file} did not parse (a write cut short), so it was kept as ${r.kept} ` +
    `and ${r.from}, the state one checkpoint earlier, was copied over it. Creates pending in it are settled as usual; an object whose ` +
    "create only the lost checkpoint recorded is adopted by `pulumi up` on the machine that made it (its journal), and elsewhere " +
    "a taken service name is reported with its id"
  );
}

// Where Pulumi's local file backend (pkg/backend/diy in pulumi 3.248: `file://` URLs and `pulumi
// login --local`) keeps a stack's checkpoint, and how to read it: `.pulumi/stacks/<project>/<stack>.json`
// (a legacy backend without projects: `.pulumi/stacks/<stack>.json`), compressed variants `.json.gz`
// and `.json.zst` (PULUMI_DIY_BACKEND_GZIP / _ZSTD; the newest of the variants is the checkpoint).
// The backend writes the checkpoint to a temporary file and renames it over the old one, so a
// read sees one whole checkpoint, never a torn one.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";

/** The directory of a file backend URL, resolved as the CLI does (`~` is the home directory), or undefined. */
export function fileBackendDir(url: string, cwd: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  let dir = url.slice("file://".length).split("?")[0];
  if (dir === "~" || dir.startsWith("~/")) dir = path.join(os.homedir(), dir.slice(1));
  return path.resolve(cwd, dir);
}

/** The checkpoint file of `base` (a path without extension): the newest of its variants, as the backend picks. */
export function checkpointFile(base: string): string | undefined {
  const found = [".json", ".json.gz", ".json.zst"]
    .map((ext) => base + ext)
    .filter((f) => fs.existsSync(f))
    .map((f) => ({ f, t: fs.statSync(f).mtimeMs }));
  found.sort((a, b) => b.t - a.t);
  return found[0]?.f;
}

/** The checkpoint of `stack` of `project` under a backend directory, in either layout. */
export function stackCheckpointFile(root: string, project: string, stack: string): string | undefined {
  const stacks = path.join(root, ".pulumi", "stacks");
  return checkpointFile(path.join(stacks, project, stack)) ?? checkpointFile(path.join(stacks, stack));
}

/** As the backend reads: compression is told by the first bytes, not the name. Throws on zstd before Node.js 22.15. */
export function decompress(bytes: Buffer): Buffer {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return zlib.gunzipSync(bytes);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0xfd2fb528) {
    const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
    if (!zstd) throw new Error(`zstd checkpoints need Node.js 22.15 or later to be read (this is ${process.version})`);
    return zstd(bytes);
  }
  return bytes;
}

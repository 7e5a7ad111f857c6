// The stack's checkpoint read from the local file backend's own file, when that is where the
// engine keeps it. `pulumi stack export` starts the CLI (about 0.25 s of CPU each time, and the
// first creates of an `up` wait for up to two of them); the file takes milliseconds to read, and the
// backend replaces it by rename, so a read never sees half of one. Anything else (a service or
// bucket backend, a backend named in Pulumi.yaml, a zstd checkpoint on Node.js 20, a file that is
// not the stack's) returns undefined and the CLI is asked as before.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decompress, fileBackendDir, stackCheckpointFile } from "../fs/file-backend";

/** What `pulumi stack export` prints: the checkpoint's version and its latest deployment (stack-state.ts reads it). */
export interface Exported {
  version: number;
  deployment: Record<string, unknown>;
}

/** The backend URL the CLI uses, when it can be told without the CLI: the environment, else the login. */
export function backendUrl(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  // A project may name its backend (it then wins over the login): left to the CLI.
  try {
    if (/^backend:/m.test(fs.readFileSync(path.join(cwd, "Pulumi.yaml"), "utf8"))) return undefined;
  } catch {
    // no Pulumi.yaml here (a program run from elsewhere): the login decides
  }
  try {
    const home = env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
    const current = (JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown }).current;
    return typeof current === "string" ? current : undefined;
  } catch {
    return undefined;
  }
}

/** `stack` (`<organization>/<project>/<stack>`) from its local checkpoint file, in the shape `pulumi stack export` prints; undefined when not applicable. */
export function readLocalCheckpoint(stack: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Exported | undefined {
  const [, project, name, ...rest] = stack.split("/");
  if (!project || !name || rest.length) return undefined;
  const url = backendUrl(env, cwd);
  const root = url ? fileBackendDir(url, cwd) : undefined;
  const file = root ? stackCheckpointFile(root, project, name) : undefined;
  if (!file) return undefined;
  try {
    const parsed = JSON.parse(decompress(fs.readFileSync(file)).toString("utf8")) as {
      version?: unknown;
      checkpoint?: { stack?: unknown; latest?: Record<string, unknown> };
    };
    const owner = parsed.checkpoint?.stack;
    if (typeof parsed.version !== "number" || typeof owner !== "string" || owner.split("/").pop() !== name) return undefined;
    return { version: parsed.version, deployment: parsed.checkpoint?.latest ?? {} };
  } catch {
    return undefined;
  }
}

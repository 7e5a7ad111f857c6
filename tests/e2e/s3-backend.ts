// A stack backend in object storage for the e2e tests: moto's S3-compatible server (scripts/setup-moto.sh)
// on a free loopback port, one bucket, and the backend URL and environment the Pulumi CLI (and every
// process it starts) needs to keep a stack's state there. The URL's query parameters are those of
// gocloud.dev v0.46's s3blob driver, which pulumi v3.248.0's DIY backend opens it with (aws-sdk-go-v2:
// `endpoint` with its scheme, `use_path_style`, `region`).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./harness";

/** moto_server, installed by scripts/setup-moto.sh when missing (scripts/test.sh runs it first). */
function motoServer(): string {
  if (process.env.PPD_MOTO_SERVER) return process.env.PPD_MOTO_SERVER;
  const out = execFileSync("bash", [path.join(ROOT, "scripts/setup-moto.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  process.env.PPD_MOTO_SERVER = out.trim().split("\n").pop()!;
  return process.env.PPD_MOTO_SERVER;
}

export interface S3Backend {
  /** `s3://<bucket>?endpoint=...`: PULUMI_BACKEND_URL. */
  url: string;
  /** Credentials and region for the AWS SDK (moto takes any), isolated from the user's ~/.aws. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** Starts moto on 127.0.0.1 (port 0: it prints the one it took) and makes `bucket`. */
export async function startS3Backend(bucket = "pulumi-state"): Promise<S3Backend> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-aws-"));
  // moto logs every request; its output goes to a file, never a pipe: a pipe is drained only while
  // this process's event loop runs, and the tests run the CLI synchronously for minutes, so a full
  // pipe would block moto's logging thread, and with it every request (the CLI then waits forever).
  const log = path.join(home, "moto.log");
  const fd = fs.openSync(log, "a");
  const proc: ChildProcess = spawn(motoServer(), ["-H", "127.0.0.1", "-p", "0"], { stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  const endpoint = await new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const seen = fs.readFileSync(log, "utf8");
      const m = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) resolve(m[1]);
      else if (proc.exitCode !== null) reject(new Error(`moto_server exited ${proc.exitCode}:\n${seen}`));
      else if (Date.now() - started > 60_000) reject(new Error(`moto_server did not start:\n${seen}`));
      else return;
      clearInterval(poll);
    }, 50);
  });
  // moto checks no signature: a plain PUT makes the bucket.
  const made = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
  if (!made.ok) throw new Error(`creating bucket ${bucket}: ${made.status} ${await made.text()}`);
  return {
    url: `s3://${bucket}?endpoint=${endpoint}&use_path_style=true&region=us-east-1`,
    env: {
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_REGION: "us-east-1",
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONFIG_FILE: path.join(home, "config"),
      AWS_SHARED_CREDENTIALS_FILE: path.join(home, "credentials"),
    },
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

// The package door's native comparison: the do-nothing plugin in Go (native-plugin/main.go), built
// at bench time from Go modules (Pulumi's Go SDK at the version of the installed @pulumi/pulumi)
// into the cache the Pulumi CLI is built into (scripts/setup-pulumi.sh), once per source, schema,
// version and Go toolchain. The schema is embedded and the version linked in, as a native plugin ships them.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../../tests/e2e/harness";

const NAME = "pulumi-resource-pagerduty-dynamic";

/** The cache scripts/setup-pulumi.sh builds into. */
function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PULUMI_PAGERDUTY_CACHE || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-pagerduty-dynamic");
}

/** Builds (or finds built) the Go plugin; the path of the binary. */
export function buildNativePlugin(log: (line: string) => void): string {
  const source = fs.readFileSync(path.join(ROOT, "bench/small/native-plugin/main.go"));
  const schema = fs.readFileSync(path.join(ROOT, "plugin/schema.json"));
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version as string;
  const sdk = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;
  const go = execFileSync("go", ["env", "GOVERSION"], { encoding: "utf8" }).trim();
  const key = createHash("sha256").update([source, schema, version, sdk, go].join("\0")).digest("hex").slice(0, 12);
  const bin = path.join(cacheDir(), `bench-native-plugin-${key}`, NAME);
  if (fs.existsSync(bin)) return bin;

  log(`building the native do-nothing plugin (Go SDK v${sdk}, ${go}) into ${path.dirname(bin)}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-native-plugin-"));
  try {
    fs.writeFileSync(path.join(work, "main.go"), source);
    fs.writeFileSync(path.join(work, "schema.json"), schema);
    // The SDK's own replace of a fork, which only the main module's go.mod applies (as scripts/setup-pulumi.sh does).
    fs.writeFileSync(
      path.join(work, "go.mod"),
      `module ppd-bench-native-plugin\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${sdk}\n\n` +
        "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e\n",
    );
    // Through scripts/go-in.sh: the checksum database first, the module proxy's checksums if it cannot vouch.
    const goIn = (args: string[]) =>
      execFileSync(
        "bash",
        ["-c", `log() { echo "native plugin: $*" >&2; }; work=$1; shift; . "$0"; go_in "$work" "$@"`, path.join(ROOT, "scripts/go-in.sh"), work, ...args],
        {
          env: { ...process.env, GOFLAGS: "-mod=mod" },
          stdio: ["ignore", "inherit", "inherit"],
        },
      );
    goIn(["mod", "tidy"]);
    fs.mkdirSync(path.dirname(bin), { recursive: true, mode: 0o700 });
    const out = `${bin}.${process.pid}.tmp`;
    goIn(["build", "-trimpath", "-ldflags", `-X main.version=${version}`, "-o", out, "."]);
    fs.renameSync(out, bin);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** A directory to put on PATH, holding the native plugin under the package's plugin name. */
export function nativePluginDir(dir: string, bin: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(bin, path.join(dir, NAME));
  return dir;
}

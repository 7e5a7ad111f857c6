// The installed package's version for the bins' `--version`. Read from package.json at run time:
// the compiled file sits one directory deeper (dist/) than its source, so the file is searched for.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-pagerduty-dynamic" && pkg.version) return pkg.version;
    }
    if (dirname(dir) === dir) return "unknown";
  }
}

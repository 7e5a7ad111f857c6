// The GitOps scripts as the workflows and a user run them: each examples/gitops/*.sh is executable
// in the repository (its mode in git's index, which the packed package and a checkout keep), so
// `./routing-test.sh` works as well as `bash routing-test.sh`.
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.join(__dirname, "../../../..");

test("every examples/gitops/*.sh is committed executable (mode 100755)", () => {
  const entries = execFileSync("git", ["ls-files", "--stage", "--", "examples/gitops/*.sh"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  expect(entries.length).toBeGreaterThanOrEqual(6);
  const modes = Object.fromEntries(entries.map((l) => [l.split("\t")[1], l.split(" ")[0]]));
  expect(Object.entries(modes).filter(([, mode]) => mode !== "100755")).toEqual([]);
});

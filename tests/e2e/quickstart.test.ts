// The README's quick start, run as it stands: its one bash block, from a clone of this repository
// (the packages are not on the registry yet: the block installs what `npm run packages` packs there),
// with the real npm, the real Pulumi CLI and the emulator it starts with `npx --no-install
// pagerduty-emulator`. The one change, in the support matrix's runs only: `@pulumi/pulumi` pinned to
// the run's SDK. Then, in the same shell, the rest of the quickstart's life: a clean preview and
// drift check, and destroy. (At a clone's root the same program previews through the workspace link:
// tests/e2e/root-project.test.ts.)
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { docBlock, userShellEnv } from "./doc-blocks";
import { ROOT, sdkVersion } from "./harness";

jest.setTimeout(15 * 60_000);

const INSTALL = "npm install $packages @pulumi/pulumi";

let work: string;
let script: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-quickstart-"));
  const lines = docBlock("README.md", "quickstart").split("\n");
  expect(lines.filter((l) => l === INSTALL)).toHaveLength(1);
  script = lines.map((l) => (l === INSTALL ? `npm install $packages @pulumi/pulumi@${sdkVersion()}` : l)).join("\n");
});

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** Runs `source` with bash in `cwd` (strict mode); ends whatever it left running in the background. */
function bash(source: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", source], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    child.once("error", reject);
    // A step that never ends (an emulator that never prints its ready line) must not outlive the test.
    const limit = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 12 * 60_000);
    child.once("close", (code) => {
      clearTimeout(limit);
      try {
        process.kill(-child.pid!, "SIGTERM"); // the emulator it started, and npx around it
      } catch {
        // nothing left
      }
      resolve({ code: code ?? -1, out });
    });
  });
}

test("the README's quick start deploys two services from an empty directory; a second preview and the drift check are clean; destroy removes them", async () => {
  // A user's shell: a home of its own, the shared npm cache (doc-blocks.ts).
  const env = userShellEnv(path.join(work, "home"));
  // Afterwards, in the same shell: a clean second preview and drift check, the stack's state and
  // outputs, and destroy; the emulator's services before and after it (read with the undici the
  // package brought).
  const after = `
pulumi preview --expect-no-changes --non-interactive
pulumi refresh --preview-only --expect-no-changes --run-program --non-interactive
pulumi stack export > stack.json
pulumi stack output --json > outputs.json
services() {
  node -e '
const ready = require("./emulator.json");
const { Agent, request } = require("undici");
request(ready.apiUrl + "/services", { dispatcher: new Agent({ connect: { ca: require("fs").readFileSync(ready.caFile) } }),
  headers: { authorization: "Token token=" + ready.apiKey, accept: "application/vnd.pagerduty+json;version=2" } })
  .then((r) => r.body.json()).then((b) => require("fs").writeFileSync(process.argv[1], JSON.stringify(b.services.map((s) => s.name))));' "$1"
}
services services.json
pulumi destroy --yes --skip-preview --non-interactive
services services-after.json
`;
  // From the clone's root, as the README says; the quick start's directory is in the shell's home.
  const r = await bash(`${script}\n${after}`, ROOT, env);
  if (r.code !== 0) throw new Error(`the quick start failed (exit ${r.code}):\n${r.out}`);
  const dir = path.join(env.HOME!, "pagerduty-quickstart");
  expect(r.out).toMatch(/\+ 3 created/);
  expect(r.out).toMatch(/https:\/\/127\.0\.0\.1:\d+\/service-directory\/P[A-Z0-9]+/);
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  expect(read("services.json").sort()).toEqual(["Checkout API", "Search"]);
  expect(read("services-after.json")).toEqual([]);
  const outputs = read("outputs.json");
  expect(outputs.checkoutUrl).toMatch(/^http/);
  expect(outputs.searchId).toMatch(/^P/);
  // The provider line names the package and nothing else (no setting, no path of this machine).
  const services = read("stack.json").deployment.resources.filter((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/pagerduty:Service");
  expect(services).toHaveLength(2);
  for (const r of services)
    expect([r.inputs.__provider, r.outputs.__provider]).toEqual(Array(2).fill('exports.handler=()=>require("pulumi-pagerduty-dynamic/providers").Service'));
  // The client secret went in on stdin and is in the stack file only as ciphertext.
  const ready = JSON.parse(fs.readFileSync(path.join(dir, "emulator.json"), "utf8"));
  expect(fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8")).toMatch(/pagerduty:clientSecret:\s+secure: /);
  expect(fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8") + fs.readFileSync(path.join(dir, "stack.json"), "utf8")).not.toContain(
    ready.oauth.clientSecret,
  );
  // Nothing went to this machine's Pulumi login: the state is in the project's directory.
  expect(fs.existsSync(path.join(dir, ".pulumi-state", ".pulumi"))).toBe(true);
});

test("the quick start's block is found and names what the README promises", () => {
  const commands = docBlock("README.md", "quickstart");
  expect(commands).toContain("npx --no-install pagerduty-emulator");
  expect(commands).toMatch(/\| pulumi config set --secret pagerduty:clientSecret/);
  expect(commands).not.toMatch(/config set --secret pagerduty:clientSecret \S/);
  for (const key of ["pagerduty:apiUrl", "pagerduty:authUrl", "escalationPolicyId", "NODE_EXTRA_CA_CERTS"]) expect(commands).toContain(key);
});

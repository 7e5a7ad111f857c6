// The stack's state from the local file backend's own file: where the CLI would look (the
// environment's backend, else the login; a backend named by the project is left to the CLI), both
// layouts, gzip, and undefined (so the CLI is asked) for anything else.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { backendUrl, readLocalCheckpoint } from "../../../../provider/account/local-checkpoint";

let root: string;
let cwd: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-local-cp-"));
  cwd = path.join(root, "project");
  fs.mkdirSync(cwd);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const latest = { resources: [{ urn: "urn:pulumi:dev::demo::x::y", type: "x" }], pending_operations: [{ type: "creating", resource: { urn: "u", type: "t" } }] };
const file = (stack = "organization/demo/dev", body: object = latest) => JSON.stringify({ version: 3, checkpoint: { stack, latest: body } });
const write = (rel: string, content: string | Buffer) => {
  const f = path.join(root, "state", ".pulumi", "stacks", rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, content);
};
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PULUMI_BACKEND_URL: `file://${path.join(root, "state")}`, ...extra });

test("the project layout: the deployment in the shape `pulumi stack export` prints", () => {
  write("demo/dev.json", file());
  expect(readLocalCheckpoint("organization/demo/dev", env(), cwd)).toEqual({ version: 3, deployment: latest });
});

test("the legacy layout, and a gzip'd checkpoint", () => {
  write("dev.json", file());
  expect(readLocalCheckpoint("organization/demo/dev", env(), cwd)?.deployment).toEqual(latest);
  write("demo/dev.json.gz", zlib.gzipSync(file()));
  expect(readLocalCheckpoint("organization/demo/dev", env(), cwd)?.deployment).toEqual(latest);
});

test("a relative file URL resolves from the project directory; without the environment's, the login's backend", () => {
  write("demo/dev.json", file());
  expect(readLocalCheckpoint("organization/demo/dev", { PULUMI_BACKEND_URL: "file://../state" }, cwd)?.deployment).toEqual(latest);
  const home = path.join(root, "home");
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: `file://${path.join(root, "state")}` }));
  expect(readLocalCheckpoint("organization/demo/dev", { PULUMI_HOME: home }, cwd)?.deployment).toEqual(latest);
  // A project that names its backend: the CLI decides.
  fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), "name: demo\nruntime: nodejs\nbackend:\n  url: s3://bucket\n");
  expect(backendUrl({ PULUMI_HOME: home }, cwd)).toBeUndefined();
  expect(readLocalCheckpoint("organization/demo/dev", { PULUMI_HOME: home }, cwd)).toBeUndefined();
});

test("undefined (the CLI is asked) for a service backend, no file, another stack's file, or what does not parse", () => {
  write("demo/dev.json", file());
  expect(readLocalCheckpoint("organization/demo/dev", { PULUMI_BACKEND_URL: "https://api.pulumi.com" }, cwd)).toBeUndefined();
  expect(readLocalCheckpoint("organization/demo/prod", env(), cwd)).toBeUndefined();
  expect(readLocalCheckpoint("dev", env(), cwd)).toBeUndefined();
  write("demo/dev.json", file("organization/demo/other"));
  expect(readLocalCheckpoint("organization/demo/dev", env(), cwd)).toBeUndefined();
  write("demo/dev.json", "{ cut");
  expect(readLocalCheckpoint("organization/demo/dev", env(), cwd)).toBeUndefined();
});

// A local file backend's checkpoint cut short by a lost machine: pagerduty-recover restores the
// .bak (keeping the broken file and saying so), or, with no usable .bak, changes nothing and names
// the newest checkpoint of a completed update.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { locateStack, repairCheckpoint, type StackLocation } from "../../../../provider/cli/checkpoint-repair";
import { recover } from "../../../../provider/cli/recover";
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";

let root: string;
const NOW = new Date("2026-05-04T03:02:01.123Z");
const checkpoint = (tag: string) => JSON.stringify({ version: 3, checkpoint: { stack: "organization/demo/dev", tag } });
const where = (): StackLocation => ({ backendUrl: `file://${root}`, project: "demo", stack: "dev" });
const stacks = () => path.join(root, ".pulumi", "stacks");
const write = (rel: string, content: string | Buffer) => {
  const f = path.join(stacks(), rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, content);
  return f;
};
const read = (f: string) => fs.readFileSync(f, "utf8");

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-backend-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("repairCheckpoint", () => {
  it("a whole checkpoint is left alone", () => {
    const f = write("demo/dev.json", checkpoint("now"));
    write("demo/dev.json.bak", checkpoint("before"));
    expect(repairCheckpoint(where(), "/", NOW)).toEqual({ kind: "intact", file: f });
    expect(read(f)).toBe(checkpoint("now"));
  });

  it.each([
    ["empty", ""],
    ["truncated", checkpoint("now").slice(0, 40)],
  ])("an %s checkpoint: kept as .corrupt-<time>, the .bak (and its .attrs) copied over it, the .bak kept", (_label, broken) => {
    const f = write("demo/dev.json", broken);
    write("demo/dev.json.attrs", '{"md5":"broken"}');
    write("demo/dev.json.bak", checkpoint("before"));
    write("demo/dev.json.bak.attrs", '{"md5":"before"}');
    const r = repairCheckpoint(where(), "/", NOW);
    expect(r).toEqual({ kind: "restored", file: f, kept: `${f}.corrupt-20260504T030201Z`, from: `${f}.bak` });
    expect(read(f)).toBe(checkpoint("before"));
    expect(read(`${f}.attrs`)).toBe('{"md5":"before"}');
    expect(read(`${f}.corrupt-20260504T030201Z`)).toBe(broken);
    expect(read(`${f}.bak`)).toBe(checkpoint("before"));
  });

  it.each([
    ["empty", ""],
    ["cut short", '{"user.content_type":"applic'],
  ])("a whole checkpoint with an %s .attrs sidecar (fileblob writes it in place): the sidecar moved aside, the checkpoint kept", (_l, broken) => {
    const f = write("demo/dev.json", checkpoint("now"));
    write("demo/dev.json.attrs", broken);
    write("demo/dev.json.bak", checkpoint("before"));
    expect(repairCheckpoint(where(), "/", NOW)).toEqual({ kind: "sidecar", file: f, kept: `${f}.attrs.corrupt-20260504T030201Z` });
    expect(read(f)).toBe(checkpoint("now"));
    expect(fs.existsSync(`${f}.attrs`)).toBe(false);
    expect(read(`${f}.attrs.corrupt-20260504T030201Z`)).toBe(broken);
    // A readable sidecar (or none) is left alone.
    write("demo/dev.json.attrs", '{"user.content_type":"application/json"}');
    expect(repairCheckpoint(where(), "/", NOW)).toEqual({ kind: "intact", file: f });
  });

  it("a cut-short checkpoint whose .bak has no sidecar: its own broken sidecar is moved aside too", () => {
    const f = write("demo/dev.json", "");
    write("demo/dev.json.attrs", "");
    write("demo/dev.json.bak", checkpoint("before"));
    expect(repairCheckpoint(where(), "/", NOW)).toMatchObject({ kind: "restored", file: f });
    expect(fs.existsSync(`${f}.attrs`)).toBe(false);
    expect(read(f)).toBe(checkpoint("before"));
  });

  it("gzip'd checkpoints (PULUMI_DIY_BACKEND_GZIP): the newest variant is checked, its .gz.bak restored", () => {
    const old = write("demo/dev.json", checkpoint("plain, older"));
    fs.utimesSync(old, new Date(2020, 1, 1), new Date(2020, 1, 1));
    const f = write("demo/dev.json.gz", zlib.gzipSync(checkpoint("now")).subarray(0, 20));
    write("demo/dev.json.gz.bak", zlib.gzipSync(checkpoint("before")));
    expect(repairCheckpoint(where(), "/", NOW)).toMatchObject({ kind: "restored", file: f, from: `${f}.bak` });
    expect(zlib.gunzipSync(fs.readFileSync(f)).toString()).toBe(checkpoint("before"));
    // A whole gzip'd checkpoint is intact.
    expect(repairCheckpoint(where(), "/", NOW)).toEqual({ kind: "intact", file: f });
  });

  it("a legacy backend without projects (.pulumi/stacks/<stack>.json)", () => {
    const f = write("dev.json", "{");
    write("dev.json.bak", checkpoint("before"));
    expect(repairCheckpoint(where(), "/", NOW)).toMatchObject({ kind: "restored", file: f });
  });

  it("an unreadable .bak: nothing changed, the newest parsing history checkpoint named", () => {
    const f = write("demo/dev.json", checkpoint("now").slice(0, 30));
    write("demo/dev.json.bak", "");
    const history = path.join(root, ".pulumi", "history", "demo", "dev");
    fs.mkdirSync(history, { recursive: true });
    fs.writeFileSync(path.join(history, "dev-1700000000000000000.checkpoint.json"), checkpoint("older"));
    fs.writeFileSync(path.join(history, "dev-1800000000000000000.checkpoint.json"), checkpoint("newest"));
    fs.writeFileSync(path.join(history, "dev-1900000000000000000.checkpoint.json"), "{ cut");
    fs.writeFileSync(path.join(history, "dev-1900000000000000000.history.json"), "{}");
    const run = () => repairCheckpoint(where(), "/", NOW);
    expect(run).toThrow(`the checkpoint ${f} is cut short (not whole JSON), and its backup ${f}.bak is unreadable too; nothing was changed`);
    expect(run).toThrow(`The newest checkpoint of a completed update is ${path.join(history, "dev-1800000000000000000.checkpoint.json")}: copy it over ${f}`);
    expect(read(f)).toBe(checkpoint("now").slice(0, 30));
    expect(fs.readdirSync(path.dirname(f)).sort()).toEqual(["dev.json", "dev.json.bak"]);
  });

  it("no .bak and no history: nothing changed, says so", () => {
    write("demo/dev.json", "");
    expect(() => repairCheckpoint(where(), "/", NOW)).toThrow(
      /its backup .*dev\.json\.bak does not exist; nothing was changed\. No completed update's checkpoint was found/,
    );
  });

  it("a backend that is not a local file backend, or no checkpoint file: nothing to do here", () => {
    expect(repairCheckpoint({ ...where(), backendUrl: "https://api.pulumi.com" }, "/")).toMatchObject({ kind: "not-local" });
    expect(repairCheckpoint({ ...where(), backendUrl: "s3://bucket" }, "/")).toMatchObject({ kind: "not-local" });
    expect(repairCheckpoint(where(), "/")).toMatchObject({ kind: "not-local", reason: expect.stringContaining('no checkpoint of stack "dev"') });
  });
});

describe("pagerduty-recover on a cut-short checkpoint", () => {
  /** A `pulumi` that reads the checkpoint file as the file backend does. */
  function fakePulumi(calls: string[][]): Pulumi {
    return (args) => {
      calls.push(args);
      const key = args.join(" ");
      if (key === "-Q stack --show-name") return "organization/demo/dev\n";
      if (key === "stack export") {
        const file = path.join(stacks(), "demo", "dev.json");
        if (fs.existsSync(`${file}.attrs`) && read(`${file}.attrs`) === "")
          throw new Error("pulumi stack export failed (exit 255):\nerror: failed to load checkpoint: EOF");
        const text = read(file);
        try {
          JSON.parse(text);
        } catch {
          throw new Error("pulumi stack export failed (exit 255):\nerror: failed to load checkpoint: place 1: unexpected end of JSON input");
        }
        return JSON.stringify({ version: 3, deployment: { resources: [], pending_operations: [] } });
      }
      throw new Error(`unexpected pulumi ${key}`);
    };
  }

  /** pagerduty-recover on the backend at `root`, with what it ran and printed. */
  async function recoverHere() {
    const calls: string[][] = [];
    const out: string[] = [];
    const err: string[] = [];
    const code = await recover({ cwd: "/", dryRun: false }, (l) => out.push(l), {
      pulumi: fakePulumi(calls),
      whoami: () => JSON.stringify({ url: `file://${root}` }),
      err: (l) => err.push(l),
    });
    return { code, calls, out, err };
  }

  it("restores the .bak, says so on stderr, and goes on", async () => {
    const f = write("demo/dev.json", checkpoint("now").slice(0, 25));
    write("demo/dev.json.bak", checkpoint("before"));
    const { code, calls, out, err } = await recoverHere();
    expect(code).toBe(0);
    expect(err).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pagerduty-recover: restored the stack's checkpoint from its backup: ${f} did not parse .* kept as ${f}\\.corrupt-\\d{8}T\\d{6}Z and ${f}\\.bak`,
        ),
      ),
    ]);
    expect(out).toEqual(["pagerduty-recover: no interrupted creates in the stack's state; nothing to do"]);
    expect(calls.map((c) => c.join(" "))).toEqual(["stack export", "-Q stack --show-name", "stack export"]);
    expect(read(f)).toBe(checkpoint("before"));
  });

  it("a whole checkpoint behind an empty .attrs (EOF): the sidecar moved aside, said on stderr, the export runs again", async () => {
    const f = write("demo/dev.json", checkpoint("now"));
    write("demo/dev.json.attrs", "");
    const { code, calls, err } = await recoverHere();
    expect(code).toBe(0);
    expect(err).toEqual([
      expect.stringMatching(
        /^pagerduty-recover: the stack's checkpoint .*dev\.json is whole but its metadata file did not parse .* moved aside as .*dev\.json\.attrs\.corrupt-/,
      ),
    ]);
    expect(calls.map((c) => c.join(" "))).toEqual(["stack export", "-Q stack --show-name", "stack export"]);
    expect(read(f)).toBe(checkpoint("now"));
  });

  it("with the .bak unreadable too: fails naming both, nothing changed", async () => {
    write("demo/dev.json", "");
    write("demo/dev.json.bak", "{");
    const run = recover({ cwd: "/", dryRun: false }, () => undefined, {
      pulumi: fakePulumi([]),
      whoami: () => JSON.stringify({ url: `file://${root}` }),
      err: () => undefined,
    });
    await expect(run).rejects.toMatchObject({ code: "ERR_STATE" });
    await expect(run).rejects.toThrow(/dev\.json is cut short .*\/dev\.json\.bak is unreadable too; nothing was changed/);
    expect(read(path.join(stacks(), "demo", "dev.json"))).toBe("");
  });

  it("another export failure is not taken for a broken checkpoint", async () => {
    const pulumi: Pulumi = () => {
      throw new Error("pulumi stack export failed (exit 255):\nerror: no stack named 'dev' found");
    };
    const whoami = jest.fn(() => "{}");
    await expect(recover({ cwd: "/", dryRun: false }, () => undefined, { pulumi, whoami })).rejects.toThrow(/no stack named 'dev' found/);
    expect(whoami).not.toHaveBeenCalled();
  });

  it("locateStack reads the project and stack from the fully qualified name", () => {
    expect(
      locateStack(
        () => "organization/demo/dev\n",
        () => '{"user":"u","url":"file://~"}',
      ),
    ).toEqual({ backendUrl: "file://~", project: "demo", stack: "dev" });
    expect(() =>
      locateStack(
        () => "dev\n",
        () => '{"url":"file://~"}',
      ),
    ).toThrow(/printed "dev", not <organization>\/<project>\/<stack>/);
  });
});

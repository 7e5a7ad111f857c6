// The small-stack benchmark's reading of the probe's files: each process moved to the run's clock,
// why it was started, and the figures of a run.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { breakdown, readTimelines } from "../../../../bench/small/timeline";

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "ppd-timeline-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (file: string, events: object[]) => fs.writeFileSync(path.join(dir, file), events.map((e) => JSON.stringify(e)).join("\n"));

test("a schema process and a provider process: starts, ports, Configure, the credential check, the first call", () => {
  const run = 1_000_000;
  write("plugin-11.jsonl", [
    { ev: "start", t: 0, role: "plugin", origin: run + 100 },
    { ev: "port", t: 90 },
    { ev: "call", method: "getSchema", t: 95, end: 97 },
  ]);
  write("plugin-12.jsonl", [
    { ev: "start", t: 0, role: "plugin", origin: run + 300 },
    { ev: "port", t: 110 },
    { ev: "call", method: "getPluginInfo", t: 112, end: 113 },
    { ev: "request", method: "POST", origin: "http://127.0.0.1:9", path: "/oauth/token", t: 121, end: 131, status: 200 },
    { ev: "call", method: "configure", t: 120, end: 132 },
    { ev: "request", method: "GET", origin: "http://127.0.0.1:9", path: "/users/me", t: 133, end: 140, status: 400 },
    { ev: "call", method: "check", t: 150, end: 170 },
    { ev: "call", method: "check", t: 160, end: 180 },
  ]);
  fs.writeFileSync(path.join(dir, "other.txt"), "not a probe file");
  const processes = readTimelines(dir, run);
  expect(processes.map((p) => [p.pid, p.startedAt, p.toPort, p.purpose])).toEqual([
    [11, 100, 90, "schema"],
    [12, 300, 110, "provider"],
  ]);
  expect(processes[1].calls[1]).toEqual({ ev: "call", method: "configure", t: 420, end: 432 });
  expect(breakdown(processes)).toEqual({
    processes: 2,
    purposes: ["schema", "provider"],
    toPort: 100,
    configure: 12,
    credentialRequests: 2,
    credentialRoutes: ["POST /oauth/token", "GET /users/me"],
    credentialCheck: 19,
    getSchema: 2,
    firstCall: 20,
    firstCallMethod: "check",
    // 100–190 and 300–410
    starting: 200,
    // 195–197, 412–413, 420–432, 450–480
    serving: 2 + 1 + 12 + 30,
  });
});

test("a run without probe files has no figures", () => {
  expect(breakdown(readTimelines(dir, 0))).toMatchObject({ processes: 0, credentialRequests: 0, starting: 0, serving: 0 });
});

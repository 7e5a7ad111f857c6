// --data FILE persistence: state survives a restart, writes are atomic (temp file + fsync +
// rename), so a crash mid-write leaves the previous complete file. (Each kind's example survives a
// restart: kinds.test.ts.)
import fs, { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmulatorCore } from "../../emulator/src/core";
import { KINDS } from "../../emulator/src/kinds";
import { loadState, saveState } from "../../emulator/src/persistence";
import type { KindTables } from "../../emulator/src/store";
import { admin, appToken, client, createService, start } from "./helpers";

/** A seeded state, as a new emulator has it. */
const emptyState = (adminToken: string) => new EmulatorCore({ adminToken }, KINDS).state;
/** Loads with no table to fill in: these files were written whole. */
const load = (file: string) => loadState(file, {} as KindTables);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pd-emulator-data-"));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

test("a crash in the middle of a write leaves the previous file intact and no torn data", () => {
  const file = join(dir, "state.json");
  const first = emptyState("admin-1");
  saveState(file, first);
  const real = fs.writeSync;
  jest.spyOn(fs, "writeSync").mockImplementation(((fd: number, data: string) => {
    real(fd, data.slice(0, 10));
    throw new Error("disk full");
  }) as unknown as typeof fs.writeSync);
  expect(() => saveState(file, emptyState("admin-2"))).toThrow("disk full");
  jest.restoreAllMocks();
  expect(load(file)?.adminToken).toBe("admin-1");
  expect(JSON.parse(readFileSync(file, "utf8")).adminToken).toBe("admin-1");
  expect(readdirSync(dir)).toEqual(["state.json"]);
});

test("a successful write replaces the file in one step and leaves no temp files", () => {
  const file = join(dir, "state.json");
  saveState(file, emptyState("a"));
  saveState(file, emptyState("b"));
  expect(load(file)?.adminToken).toBe("b");
  expect(readdirSync(dir)).toEqual(["state.json"]);
});

test("a file that is not an emulator data file is refused", () => {
  const file = join(dir, "other.json");
  writeFileSync(file, JSON.stringify({ version: 7 }));
  expect(() => load(file)).toThrow(/not an emulator data file/);
});

test("a restarted emulator keeps credentials, objects, tokens, field values and the used-id set", async () => {
  const file = join(dir, "state.json");
  const one = await start({ dataFile: file });
  const token = await appToken(one);
  const api = client(one, `Bearer ${token}`);
  const keep = await createService(one, api, { name: "keeper" });
  await api.put(`/services/${keep}/custom_fields/values`, { custom_fields: [{ name: "tier", value: "gold" }] });
  const gone = await createService(one, api);
  await api.delete(`/services/${gone}`);
  await one.close();

  const two = await start({ dataFile: file });
  expect(two.seed).toEqual(one.seed);
  expect(two.adminToken).toBe(one.adminToken);
  const api2 = client(two, `Bearer ${token}`);
  expect((await api2.get(`/services/${keep}`)).json.service.name).toBe("keeper");
  const values = (await api2.get(`/services/${keep}/custom_fields/values`)).json.custom_fields;
  expect(values.find((f: { name: string }) => f.name === "tier").value).toBe("gold");
  expect((await api2.get(`/services/${gone}`)).status).toBe(404);
  expect(two.core.ids.used.has(gone)).toBe(true);
  // Reset after a restart goes back to the registry, keeping credentials.
  await admin(two, "POST", "/reset");
  expect((await client(two, `Token token=${two.seed.apiKey}`).get("/services")).json.services).toEqual([]);
  await two.close();
});

// --data FILE persistence: state survives a restart, writes are atomic (temp file + fsync +
// rename), so a crash mid-write leaves the previous complete file, and files written by earlier
// versions load. (Each kind's example survives a restart: kinds.test.ts.)
import fs, { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmulatorCore } from "../../emulator/src/core";
import { KIND_MODULES, TABLE_KINDS } from "../../emulator/src/kinds";
import { loadState, saveState } from "../../emulator/src/persistence";
import type { KindTables } from "../../emulator/src/store";
import { admin, appToken, client, createService, serviceWithKey, start } from "./helpers";

/** A seeded state, as a new emulator has it. */
const emptyState = (adminToken: string) => new EmulatorCore({ adminToken }, KIND_MODULES).state;
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

test("a restarted emulator lists its live integrations' routing keys among its secrets, each once", async () => {
  const file = join(dir, "state.json");
  /** The kinds under which `e` lists `key` among its secrets. */
  const kindsOf = async (e: Awaited<ReturnType<typeof start>>, key: string) =>
    ((await admin(e, "GET", "/secrets")).json.secrets as { kind: string; value: string }[]).filter((s) => s.value === key).map((s) => s.kind);
  const one = await start({ dataFile: file });
  const { key } = await serviceWithKey(one, client(one, `Bearer ${await appToken(one)}`));
  expect(await kindsOf(one, key)).toEqual(["routing_key"]);
  await one.close();
  const two = await start({ dataFile: file });
  try {
    expect(await kindsOf(two, key)).toEqual(["routing_key"]);
  } finally {
    await two.close();
  }
});

describe("a data file written by the emulator before its kinds were modules (2026-11-27, fixtures/)", () => {
  const FIXTURE = join(__dirname, "fixtures", "data-2026-11-27.json");
  /** A copy: the emulator writes its data file. */
  const copy = (edit: (state: Record<string, unknown>) => void = () => undefined) => {
    const file = join(dir, "state.json");
    const state = JSON.parse(readFileSync(FIXTURE, "utf8"));
    edit(state);
    writeFileSync(file, JSON.stringify(state));
    return file;
  };
  const CHECKOUT = "P9KX2AF";
  /**
   * The fixture as the emulator loads it: the tables of kinds added after it was written (the
   * maintenance windows) come in with their kind's empty value; every other table as written.
   */
  const loaded = (): Record<string, unknown> => {
    const written = JSON.parse(readFileSync(FIXTURE, "utf8"));
    const newer = Object.entries(TABLE_KINDS).filter(([table]) => !(table in written));
    expect(newer.map(([table]) => table).sort()).toEqual(["maintenanceWindowNumbers", "maintenanceWindows"]);
    return { ...written, ...Object.fromEntries(newer.map(([table, kind]) => [table, kind.tables[table as keyof typeof kind.tables]])) };
  };

  test("loads whole, and each kind serves what the file holds of it", async () => {
    const e = await start({ dataFile: copy() });
    try {
      // Before any request (a request triggers suspended alerts whose hold ended).
      expect(e.core.state).toEqual(loaded());
      const api = client(e, "Token token=fixture-api-key");
      const ok = async (path: string) => {
        const res = await api.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        return res.json;
      };
      expect((await ok("/services")).services.map((s: { name: string }) => s.name)).toEqual(["checkout", "legacy", "payments"]);
      expect((await ok(`/services/${CHECKOUT}?include[]=integrations`)).service.integrations.map((i: { type: string }) => i.type).sort()).toEqual([
        "events_api_v2_inbound_integration",
        "generic_email_inbound_integration",
      ]);
      expect((await ok(`/services/${CHECKOUT}/rules`)).rules).toHaveLength(1);
      expect((await ok("/services/P1AV73O/rules?include[]=migrated_metadata")).migrated_status).toBe("completed");
      const orchestration = (await ok(`/event_orchestrations/services/${CHECKOUT}`)).orchestration_path;
      expect(orchestration.sets[0].rules.map((r: { label: string }) => r.label)).toEqual(["hold batch", "db"]);
      expect((await ok(`/event_orchestrations/services/${CHECKOUT}/active`)).active).toBe(true);
      expect((await ok(`/event_orchestrations/services/${CHECKOUT}/cache_variables`)).cache_variables.map((c: { name: string }) => c.name)).toEqual([
        "host",
        "hits",
      ]);
      const fields = (await ok("/services/custom_fields?include[]=field_options")).fields;
      expect(fields.map((f: { name: string }) => f.name)).toEqual(["runbook", "tier"]);
      expect(fields[1].field_options.map((o: { data: { value: string } }) => o.data.value)).toEqual(["gold", "silver", "bronze"]);
      expect(
        Object.fromEntries(
          (await ok(`/services/${CHECKOUT}/custom_fields/values`)).custom_fields.map((v: { name: string; value: unknown }) => [v.name, v.value]),
        ),
      ).toEqual({
        runbook: "https://runbooks.example/checkout",
        tier: "gold",
      });
      expect((await ok(`/services/${CHECKOUT}/enablements`)).enablements[0]).toMatchObject({ feature: "aiops", enabled: false });
      expect((await ok("/alert_grouping_settings")).alert_grouping_settings.map((g: { name: string }) => g.name)).toEqual(["payments grouping"]);
      expect((await ok("/business_services")).business_services.map((b: { name: string }) => b.name)).toEqual(["Shop"]);
      expect((await ok(`/service_dependencies/technical_services/${CHECKOUT}`)).relationships).toHaveLength(2);
      expect((await ok("/incidents/1")).incident).toMatchObject({ status: "acknowledged", service: { id: CHECKOUT } });
      expect((await admin(e, "GET", `/services/${CHECKOUT}/alerts`)).json.alerts).toHaveLength(2);
      expect((await ok(`/services/${CHECKOUT}/audit/records?since=2026-11-27T00:00:00Z&until=2026-11-28T00:00:00Z`)).records.length).toBeGreaterThan(5);
    } finally {
      await e.close();
    }
  });

  test("a file written before a kind's table existed loads with the table empty, and the rest as written", () => {
    const written = loaded();
    for (const [table, kind] of Object.entries(TABLE_KINDS)) {
      const state = new EmulatorCore({ dataFile: copy((s) => delete s[table]) }, KIND_MODULES).state as unknown as Record<string, unknown>;
      expect([table, state[table]]).toEqual([table, kind.tables[table as keyof typeof kind.tables]]);
      expect({ ...state, [table]: written[table] }).toEqual(written);
    }
  });
});

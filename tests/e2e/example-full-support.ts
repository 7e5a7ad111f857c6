// What the three doors' tests of the full example share (examples/full in TypeScript,
// examples/full-python, examples/full-yaml): each program makes the same objects and exports the
// same `ids` and lookup results, so one table says, kind by kind, what the emulator holds at
// release 1 and at release 2 (`pulumi config set release 2`), read out of band through its REST
// API; and each door runs the same steps: up, a clean `preview --refresh`, release 2 (an update on
// every kind), a clean `preview --refresh` again, destroy.
import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCES, type ResourceKind } from "../../provider/registry";
import { aiops, fieldValues } from "./fixtures";
import type { PulumiCli, EmulatorProcess } from "./harness";

type PreviewStep = ReturnType<PulumiCli["previewSteps"]>[number];

/** The `ids` output of every door's program. */
export interface FullIds {
  checkout: string;
  payments: string;
  ordersDb: string;
  search: string;
  inventory: string;
  shipping: string;
  checkoutAlerts: string;
  grouping: string;
  connectionErrors: string;
  owningTeam: string;
  searchDisk: string;
  searchHeartbeat: string;
  upgrade: string;
}

type Release = 1 | 2;

interface KindCheck {
  /** What the emulator holds of the kind's objects, reduced to what the release changes. */
  read(emu: EmulatorProcess, ids: FullIds): Promise<unknown>;
  expected: Record<Release, unknown>;
}

async function body(emu: EmulatorProcess, path: string): Promise<any> {
  const r = await emu.api("GET", path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const RUNBOOKS: Record<Release, string> = { 1: "https://runbooks.acme.example", 2: "https://wiki.acme.example/sre/runbooks" };

/** Every kind of the registry, and what release 2 changes on it in the full example. */
export const KIND_CHECKS: Record<ResourceKind, KindCheck> = {
  Service: {
    read: async (emu, ids) => (await body(emu, `/services/${ids.checkout}`)).service.description,
    expected: { 1: "Takes orders; reserves stock through Inventory", 2: "Takes orders; reserves stock through Shipping" },
  },
  ServiceIntegration: {
    read: async (emu, ids) => (await body(emu, `/services/${ids.checkout}/integrations/${ids.checkoutAlerts}`)).integration.name,
    expected: { 1: "Alertmanager (prod-us)", 2: "Alertmanager (prod-us, prod-eu)" },
  },
  ServiceEventRule: {
    read: async (emu, ids) => (await body(emu, `/services/${ids.search}/rules/${ids.searchDisk}`)).rule.actions.annotate.value,
    expected: { 1: `Disk full: ${RUNBOOKS[1]}/search#disk`, 2: `Disk full: ${RUNBOOKS[2]}/search#disk` },
  },
  // A converted service's orchestration says where its rules came from; Inventory stays converted.
  // (Its `active` tells nothing: every service's orchestration is active from its creation.)
  ServiceEventRulesConversion: {
    read: async (emu, ids) => {
      const migrated = async (id: string) =>
        (await body(emu, `/event_orchestrations/services/${id}?include[]=migrated_metadata`)).orchestration_path.migrated_status ?? null;
      return { inventory: await migrated(ids.inventory), shipping: await migrated(ids.shipping) };
    },
    expected: { 1: { inventory: "completed", shipping: null }, 2: { inventory: "completed", shipping: "completed" } },
  },
  ServiceOrchestration: {
    read: async (emu, ids) => (await body(emu, `/event_orchestrations/services/${ids.ordersDb}`)).orchestration_path.sets[0].rules[0].actions.annotate,
    expected: { 1: `Connection storm: ${RUNBOOKS[1]}/orders-db#connection-storm`, 2: `Connection storm: ${RUNBOOKS[2]}/orders-db#connection-storm` },
  },
  ServiceOrchestrationCacheVariable: {
    read: async (emu, ids) =>
      (await body(emu, `/event_orchestrations/services/${ids.ordersDb}/cache_variables/${ids.connectionErrors}`)).cache_variable.configuration.ttl_seconds,
    expected: { 1: 60, 2: 120 },
  },
  ServiceCustomField: {
    read: async (emu, ids) =>
      (await body(emu, `/services/custom_fields/${ids.owningTeam}?include[]=field_options`)).field.field_options.map((o: any) => o.data.value).sort(),
    expected: { 1: ["data", "payments", "storefront"], 2: ["data", "logistics", "payments", "storefront"] },
  },
  ServiceCustomFieldValues: {
    read: async (emu, ids) => (await fieldValues(emu, ids.checkout)).runbook,
    expected: { 1: `${RUNBOOKS[1]}/checkout`, 2: `${RUNBOOKS[2]}/checkout` },
  },
  ServiceEnablement: {
    read: async (emu, ids) => (await aiops(emu, ids.checkout)).enabled,
    expected: { 1: false, 2: true },
  },
  AlertGroupingSetting: {
    read: async (emu, ids) => (await body(emu, `/alert_grouping_settings/${ids.grouping}`)).alert_grouping_setting.config.time_window,
    expected: { 1: 300, 2: 900 },
  },
  // Checkout's supporting services, by the program's names.
  ServiceDependency: {
    read: async (emu, ids) => {
      const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
      const relationships = (await body(emu, `/service_dependencies/technical_services/${ids.checkout}`)).relationships as any[];
      return relationships
        .filter((r) => r.dependent_service.id === ids.checkout)
        .map((r) => names.get(r.supporting_service.id))
        .sort();
    },
    expected: { 1: ["inventory", "payments"], 2: ["payments", "shipping"] },
  },
  // The database's upgrade: its services by the program's names, and its end as an instant (the
  // program writes it in +01:00, the emulator answers in UTC).
  MaintenanceWindow: {
    read: async (emu, ids) => {
      const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
      const w = (await body(emu, `/maintenance_windows/${ids.upgrade}`)).maintenance_window;
      return { services: w.services.map((s: { id: string }) => names.get(s.id)).sort(), end: new Date(w.end_time).toISOString() };
    },
    expected: {
      1: { services: ["ordersDb"], end: "2030-03-16T03:00:00.000Z" },
      2: { services: ["ordersDb", "payments"], end: "2030-03-16T04:00:00.000Z" },
    },
  },
};

/** Every kind holds what `release` declares: the table read whole, so one failure shows every kind. */
export async function expectRelease(emu: EmulatorProcess, ids: FullIds, release: Release): Promise<void> {
  expect(Object.keys(KIND_CHECKS).sort()).toEqual(Object.keys(RESOURCES).sort());
  const held: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const [kind, check] of Object.entries(KIND_CHECKS)) {
    held[kind] = await check.read(emu, ids);
    expected[kind] = check.expected[release];
  }
  expect(held).toEqual(expected);
}

/** The lookups' results, as each program exports them. */
export function expectLookups(out: Record<string, any>, ids: FullIds, release: Release): void {
  expect(out.foundId).toBe(ids.checkout);
  expect(out.mailboxAddress).toBe(out.supportAddress);
  expect([...out.groupedServices].sort()).toEqual([ids.checkout, ids.payments, ids.ordersDb].sort());
  expect(out.searchRuleOrder).toEqual([`0: ${ids.searchDisk}`, `1: ${ids.searchHeartbeat}`]);
  expect(out.aiopsEnabled).toBe(release === 2);
  expect(out.checkoutTeam).toBe("storefront");
  // Newest first: the service's creation is last. (YAML maps no function over a list: it exports the records.)
  const actions: string[] = out.auditActions ?? out.auditRecords.map((r: { action: string }) => r.action);
  expect(actions.at(-1)).toBe("create");
}

/** What the program's outputs say besides the lookups. */
export function expectOutputs(out: Record<string, any>): void {
  expect(out.checkoutRoutingKey).toBe("[secret]");
  expect(out.paymentsRoutingKey).toBe("[secret]");
  expect(out.supportAddress).toMatch(/@/);
  expect(out.stormRule).toBe("cache_var.connection_errors >= 5");
}

/** What the state records: the routing key as ciphertext; what Checkout's custom fields held before the program set them (destroy puts it back). */
function expectState(door: Door, ids: FullIds): void {
  const state = door.project().resources();
  const alerts = state.find((r) => r.type === door.type("ServiceIntegration") && r.id === ids.checkoutAlerts);
  expect(alerts?.outputs.integrationKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
  const fields = state.find((r) => r.type === door.type("ServiceCustomFieldValues") && r.outputs?.service === ids.checkout);
  expect(fields?.outputs.previousValues).toEqual({ owning_team: null, tier: null, runbook: null, pci: null });
}

/** Nothing of the program is left: no service, setting or field of its own (the seeded fields stay). */
export async function expectNothingLeft(emu: EmulatorProcess): Promise<void> {
  expect((await body(emu, "/services")).services).toEqual([]);
  expect((await body(emu, "/alert_grouping_settings")).alert_grouping_settings).toEqual([]);
  // The window was still to come: deleted, not kept as history.
  expect((await body(emu, "/maintenance_windows?filter=all")).maintenance_windows).toEqual([]);
  expect((await body(emu, "/services/custom_fields")).fields.map((f: { name: string }) => f.name).sort()).toEqual(["pci", "runbook", "tier"]);
}

/** A door: its stack, the emulator it runs against, and the type token of a kind in its state. */
export interface Door {
  project(): PulumiCli;
  emu(): EmulatorProcess;
  type(kind: ResourceKind): string;
}

/** Registers a first preview: it plans every kind while the lookups' arguments are still unknown, and writes nothing. */
export function firstPreviewTest(door: Door, more: (steps: PreviewStep[]) => void = () => {}): void {
  test("a first preview plans every kind while the lookups' arguments are still unknown, and writes nothing", async () => {
    const steps = door.project().previewSteps();
    const kinds = new Set(steps.filter((s) => s.op === "create").map((s) => s.type));
    expect(Object.keys(RESOURCES).filter((k) => !kinds.has(door.type(k as ResourceKind)))).toEqual([]);
    more(steps);
    expect((await door.emu().api("GET", "/services")).body.services).toEqual([]);
  });
}

/** Registers the door's steps up to release 2 (in order, sharing the stack); `ids()` reads the program's ids once up ran. */
export function releaseTests(door: Door): { ids: () => FullIds } {
  let ids: FullIds;

  test("up creates the whole setup, the lookups read it back, and a refresh finds nothing to change", async () => {
    const project = door.project();
    project.must(["up", "--yes", "--skip-preview"]);
    const out = project.outputs();
    ids = out.ids;
    await expectRelease(door.emu(), ids, 1);
    expectOutputs(out);
    expectState(door, ids);
    expectLookups(out, ids, 1);
    // The routing keys are secrets: masked in output, shown only when asked.
    const key = project.must(["stack", "output", "checkoutRoutingKey", "--show-secrets"]).stdout.trim();
    expect(key).toBe((await door.emu().api("GET", `/services/${ids.checkout}/integrations/${ids.checkoutAlerts}`)).body.integration.integration_key);
    project.must(["preview", "--refresh", "--expect-no-changes"]);
    // The provider's processes saved what they compiled in Node's compile cache, in the project's
    // cache directory (provider/host/code-cache.ts), where the next ones take it: the bundle among it.
    const compiled = path.join(String(project.env.XDG_CACHE_HOME), "pulumi-pagerduty-dynamic", "compile-cache");
    const entries = fs.readdirSync(compiled).flatMap((d) => fs.readdirSync(path.join(compiled, d)));
    expect(entries.length).toBeGreaterThan(0);
  });

  test("release 2 updates every kind in place, but the two made of service ids alone, which it replaces", async () => {
    const project = door.project();
    project.must(["config", "set", "release", "2"]);
    const steps = project.previewSteps();
    const ops = (kind: ResourceKind) => [...new Set(steps.filter((s) => s.type === door.type(kind)).map((s) => s.op))];
    const replaced: ResourceKind[] = ["ServiceEventRulesConversion", "ServiceDependency"];
    expect(Object.fromEntries(Object.keys(RESOURCES).map((k) => [k, ops(k as ResourceKind)]))).toEqual(
      Object.fromEntries(Object.keys(RESOURCES).map((k) => [k, replaced.includes(k as ResourceKind) ? ["replace"] : ["update"]])),
    );
    project.must(["up", "--yes", "--skip-preview"]);
    await expectRelease(door.emu(), ids, 2);
    expectLookups(project.outputs(), ids, 2);
    project.must(["preview", "--refresh", "--expect-no-changes"]);
  });

  return { ids: () => ids };
}

/** Registers the door's last step. */
export function destroyTest(door: Door): void {
  test("destroy leaves nothing of the program in the emulator", async () => {
    door.project().must(["destroy", "--yes", "--skip-preview"]);
    await expectNothingLeft(door.emu());
  });
}

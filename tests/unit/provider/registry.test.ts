// provider/registry.ts: every kind by name, what is read off the definitions, and what the CLIs
// read off the registry instead of switching on kinds.
import * as fs from "node:fs";
import * as path from "node:path";
import { providerOf } from "../../../provider";
import { serverMaintained } from "../../../provider/kernel/drift";
import { recordedType } from "../../../provider/kernel/recorded-type";
import {
  creatingKindOf,
  creatingKinds,
  definitions,
  lookupDefinitions,
  lookupByFunction,
  lookupByQuery,
  lookupQueries,
  lookups,
  RESOURCES,
  type ResourceKind,
} from "../../../provider/registry";
import { moduleOf } from "../../../scripts/generate-sdk";
import { OPTIONAL } from "../../integration/lifecycle/row";
import { ROWS } from "../../integration/lifecycle/rows";

test("every kind that creates objects says what one is and how to find one (pagerduty-recover walks the registry)", () => {
  expect(creatingKinds().length).toBeGreaterThan(0);
  for (const kind of creatingKinds()) {
    expect({ kind, describe: typeof RESOURCES[kind].describe, findExisting: typeof RESOURCES[kind].findExisting }).toEqual({
      kind,
      describe: "function",
      findExisting: "function",
    });
  }
  expect(RESOURCES.Service.describe!({ name: "Checkout" })).toBe('service "Checkout"');
  expect(RESOURCES.ServiceIntegration.describe!({ service: "PSVC" })).toBe("integration of service PSVC");
  expect(RESOURCES.ServiceEventRule.describe!({ service: "PSVC" })).toBe("event rule of service PSVC");
});

describe("registry", () => {
  test("each kind is registered under its definition's kind", () => {
    for (const [kind, r] of Object.entries(RESOURCES)) expect(r.definition.kind).toBe(kind);
  });

  test("the kinds that create remote objects are read off the definitions, and recorded under their type through either door", () => {
    expect(creatingKinds()).toEqual(
      definitions()
        .filter((d) => d.creates)
        .map((d) => d.kind),
    );
    expect(creatingKinds()).toContain("Service");
    expect(creatingKinds()).not.toContain("ServiceEnablement");
    expect(creatingKindOf("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration")).toBe("ServiceIntegration");
    expect(creatingKindOf("pagerduty-dynamic:index:ServiceIntegration")).toBe("ServiceIntegration");
    for (const k of creatingKinds()) {
      expect(creatingKindOf(recordedType(k))).toBe(k);
      expect(creatingKindOf(recordedType(k, "package"))).toBe(k);
    }
    // A kind that makes no object of its own, through either door, and a type of another package.
    expect(creatingKindOf(recordedType("ServiceEnablement"))).toBeUndefined();
    expect(creatingKindOf(recordedType("ServiceEnablement", "package"))).toBeUndefined();
    expect(creatingKindOf("aws:s3/bucket:Bucket")).toBeUndefined();
  });

  test("every module in provider/resources is a registered resource, named for its kind (or the audit-record search)", () => {
    const dir = path.join(__dirname, "../../../provider/resources");
    const modules = fs.readdirSync(dir).map((f) => f.replace(/\.ts$/, ""));
    const registered = Object.keys(RESOURCES).map(moduleOf);
    expect(modules.filter((m) => m !== "audit-records").sort()).toEqual(registered.sort());
  });

  test("every registered kind has its unit tests and a lifecycle row, named for its module (docs/contributing.md)", () => {
    const root = path.join(__dirname, "../../..");
    for (const kind of Object.keys(RESOURCES) as ResourceKind[]) {
      const m = moduleOf(kind);
      const has = (file: string) => fs.existsSync(path.join(root, file));
      const row = has(`tests/integration/lifecycle/rows/${m}.ts`) && ROWS[kind]?.definition === RESOURCES[kind].definition;
      expect({ kind, unit: has(`tests/unit/provider/resources/${m}.test.ts`), row }).toEqual({ kind, unit: true, row: true });
    }
  });

  test("a lifecycle row leaves a step out only with a reason: every step is declared, or declared not applicable and why", () => {
    const steps = [...new Set(Object.values(OPTIONAL))];
    for (const kind of Object.keys(RESOURCES) as ResourceKind[]) {
      const row = ROWS[kind] as unknown as Record<string, unknown>;
      for (const step of steps) {
        const entry = row[step];
        const reason = typeof entry === "object" && entry !== null && "notApplicable" in entry ? entry.notApplicable : undefined;
        const declared = typeof entry === "object" && entry !== null && reason === undefined;
        // A reason is a sentence a reviewer can judge: an empty one, or "n/a", is silence.
        expect({ kind, step, declared: declared || (typeof reason === "string" && reason.trim().length > 10) }).toEqual({ kind, step, declared: true });
      }
    }
  });

  test("resource and lookup modules keep no state of their own: no module-level let, Map, Set or WeakMap", () => {
    const dirs = ["resources", "lookups"].map((d) => path.join(__dirname, "../../../provider", d));
    for (const f of dirs.flatMap((dir) => fs.readdirSync(dir).map((f) => path.join(dir, f)))) {
      const text = fs.readFileSync(f, "utf8");
      expect({ f, found: text.match(/^(let |(export )?const \w+(: [^=]+)? = new (Map|Set|WeakMap)\b)/m)?.[0] }).toEqual({ f, found: undefined });
    }
  });

  test("server-maintained outputs are the outputs that are not inputs", () => {
    const service = serverMaintained(RESOURCES.Service.definition);
    expect([...service].sort()).toEqual(["createdAt", "htmlUrl", "lastIncidentTimestamp", "summary"]);
    expect(serverMaintained(RESOURCES.ServiceIntegration.definition).has("integrationKey")).toBe(true);
  });

  test("the entry point builds one provider per kind and names an unknown kind", () => {
    expect(providerOf("Service")).toBe(providerOf("Service"));
    expect(providerOf("Lookup")).toBeDefined();
    expect(() => providerOf("Pager")).toThrow(/unknown resource kind "Pager": the installed pulumi-pagerduty-dynamic is older than the program's/);
  });
});

type Registry = typeof import("../../../provider/registry");

/**
 * Runs `body` with a registry of its own, whose modules `watched` (under provider/`folder`) say in
 * `loaded` when they load.
 */
function watchingLoads(folder: "resources" | "lookups", watched: readonly string[], body: (registry: Registry, loaded: readonly string[]) => void): void {
  const loaded: string[] = [];
  jest.isolateModules(() => {
    for (const m of watched)
      jest.doMock(`../../../provider/${folder}/${m}`, () => {
        loaded.push(m);
        return jest.requireActual(`../../../provider/${folder}/${m}`);
      });
    body(require("../../../provider/registry") as Registry, loaded);
  });
}

test("a kind's module loads when the kind is first read, and no other with it", () => {
  watchingLoads("resources", ["service", "service-dependency"], (registry, loaded) => {
    expect(registry.isResourceKind("ServiceDependency")).toBe(true);
    expect(loaded).toEqual([]);
    expect(registry.RESOURCES.ServiceDependency.definition.kind).toBe("ServiceDependency");
    expect(registry.RESOURCES.ServiceDependency).toBe(registry.RESOURCES.ServiceDependency);
    expect(loaded).toEqual(["service-dependency"]);
  });
});

describe("lookups", () => {
  test("the queries are those existing states record, each once (a changed query makes every recorded lookup a new one)", () => {
    expect(lookupDefinitions().map((l) => l.query)).toEqual([
      "service",
      "escalationPolicy",
      "vendor",
      "priority",
      "businessService",
      "alertGroupingSetting",
      "serviceIntegration",
      "serviceEventRules",
      "serviceEnablements",
      "serviceCustomFieldValues",
      "serviceAuditRecords",
    ]);
    expect(new Set(lookupDefinitions().map((l) => l.functionName)).size).toBe(lookups().length);
  });

  test("each lookup is listed under its function's name", () => {
    for (const l of lookupDefinitions()) expect(lookupByFunction(l.functionName)?.definition).toBe(l);
    expect(lookupByFunction("getNothing")).toBeUndefined();
    expect(lookupByFunction("hasOwnProperty")).toBeUndefined();
  });

  test("each lookup is found by its query, named for its function (`getService`: `service`), without loading the others", () => {
    expect(lookupQueries()).toEqual(lookupDefinitions().map((l) => l.query));
    for (const l of lookupDefinitions()) expect(lookupByQuery(l.query)?.definition).toBe(l);
    for (const q of ["servicez", "", "Service", "__proto__"]) expect(lookupByQuery(q)).toBeUndefined();
    watchingLoads("lookups", ["service", "vendor"], (registry, loaded) => {
      expect(registry.lookupQueries()).toContain("vendor");
      expect(loaded).toEqual([]);
      expect(registry.lookupByQuery("vendor")?.definition.functionName).toBe("getVendor");
      expect(loaded).toEqual(["vendor"]);
    });
  });

  test("every module in provider/lookups is a registered lookup, named for its query (or what they share: fields, find)", () => {
    const dir = path.join(__dirname, "../../../provider/lookups");
    const modules = fs.readdirSync(dir).map((f) => f.replace(/\.ts$/, ""));
    expect(modules.filter((m) => m !== "fields" && m !== "find").sort()).toEqual(
      lookupDefinitions()
        .map((l) => moduleOf(l.query))
        .sort(),
    );
  });

  test("every lookup has its unit tests, named for its module, and a function of its name", () => {
    const root = path.join(__dirname, "../../..");
    for (const l of lookupDefinitions()) {
      const unit = fs.existsSync(path.join(root, `tests/unit/provider/lookups/${moduleOf(l.query)}.test.ts`));
      expect({ query: l.query, unit, fn: l.functionName.startsWith("get") }).toEqual({ query: l.query, unit: true, fn: true });
      expect(lookupByFunction(l.functionName)?.definition).toBe(l);
    }
    expect(lookupByFunction("getNothing")).toBeUndefined();
  });
});

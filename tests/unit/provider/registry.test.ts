// provider/registry.ts: every kind by name, what is read off the definitions, and what the CLIs
// read off the registry instead of switching on kinds.
import * as fs from "node:fs";
import * as path from "node:path";
import { resource as providerOf } from "../../../provider";
import { RECOVERABLE } from "../../../provider/cli/recover";
import { serverMaintained } from "../../../provider/kernel/drift";
import { CREATED_KINDS, createdKindOf, DEFINITIONS, RESOURCES } from "../../../provider/registry";

test("every kind that creates objects says what one is and how to find one (pagerduty-recover walks the registry)", () => {
  expect([...CREATED_KINDS].sort()).toEqual(["Service", "ServiceEventRule", "ServiceIntegration"]);
  for (const kind of CREATED_KINDS) {
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
  test("the kinds that create remote objects are read off the definitions", () => {
    expect(CREATED_KINDS).toEqual(DEFINITIONS.filter((d) => d.origin).map((d) => d.kind));
    expect(CREATED_KINDS).toEqual(["Service", "ServiceIntegration", "ServiceEventRule"]);
    expect(createdKindOf("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration")).toBe("ServiceIntegration");
    expect(createdKindOf("pulumi-nodejs:dynamic/pagerduty:ServiceEnablement")).toBeUndefined();
    expect(Object.values(RECOVERABLE)).toEqual(CREATED_KINDS);
  });

  test("every module in provider/resources is a registered resource (or the lookups, the audit-record search)", () => {
    const dir = path.join(__dirname, "../../../provider/resources");
    const modules = fs.readdirSync(dir).map((f) => f.replace(/\.ts$/, ""));
    const registered = Object.keys(RESOURCES).map((k) => k.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase()));
    expect(modules.filter((m) => !m.startsWith("lookup") && m !== "audit-records").sort()).toEqual(registered.sort());
  });

  test("resource modules keep no state of their own: no module-level let, Map, Set or WeakMap", () => {
    const dir = path.join(__dirname, "../../../provider/resources");
    for (const f of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
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

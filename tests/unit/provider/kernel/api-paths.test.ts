// kernel/api-paths.ts: every id is encoded, one place builds each path and names each scope.
import * as fs from "node:fs";
import * as path from "node:path";
import {
  auditRecordsPath,
  cacheVariablesPath,
  dependenciesOfPath,
  enablementsPath,
  escalationPolicyPath,
  FIELD_DEFINITIONS,
  fieldValuesPath,
  integrationsPath,
  orchestrationActivePath,
  orchestrationPath,
  rulesConvertPath,
  rulesPath,
  servicePath,
} from "../../../../provider/kernel/api-paths";

test("paths under a service, with every id encoded", () => {
  expect(servicePath("P1/../x")).toBe("/services/P1%2F..%2Fx");
  expect(integrationsPath("P1")).toBe("/services/P1/integrations");
  expect(integrationsPath("P1", "I 2")).toBe("/services/P1/integrations/I%202");
  expect(rulesPath("P1", "R?")).toBe("/services/P1/rules/R%3F");
  expect(rulesConvertPath("P1")).toBe("/services/P1/rules/convert");
  expect(fieldValuesPath("P1")).toBe("/services/P1/custom_fields/values");
  expect(FIELD_DEFINITIONS).toBe("/services/custom_fields");
  expect(enablementsPath("P1")).toBe("/services/P1/enablements");
  expect(enablementsPath("P1", "aiops")).toBe("/services/P1/enablements/aiops");
  expect(orchestrationPath("P1/x")).toBe("/event_orchestrations/services/P1%2Fx");
  expect(orchestrationActivePath("P1")).toBe("/event_orchestrations/services/P1/active");
});

test("account-wide paths, and ids encoded in them", () => {
  expect(escalationPolicyPath("E 1/x")).toBe("/escalation_policies/E%201%2Fx");
  expect(auditRecordsPath("P1?")).toBe("/services/P1%3F/audit/records");
  expect(dependenciesOfPath("business_service", "B/1")).toBe("/service_dependencies/business_services/B%2F1");
  expect(cacheVariablesPath("P1", "C#")).toBe("/event_orchestrations/services/P1/cache_variables/C%23");
});

/** The provider's code lines (comments left out) outside `keep`, with where each is. */
function codeLines(keep: (file: string) => boolean): Array<{ at: string; line: string }> {
  const root = path.join(__dirname, "../../../../provider");
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return walk(root)
    .filter((f) => f.endsWith(".ts") && keep(path.relative(root, f)))
    .flatMap((f) =>
      fs
        .readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${path.relative(root, f)}:${i + 1}`, line: line.replace(/\/\/.*$/, "") }))
        .filter(({ line }) => !/^\s*(\/\*|\*)/.test(line)),
    );
}

test("no other provider file builds a REST path or names a scope", () => {
  // Not REST paths: the process table (host/), the login's loopback callback (cli/), the emulator's
  // admin API and the Events API a routing test calls (cli/routing-emulator.ts), a field's text
  // (`.describe()`). Scopes are named in scopes.ts alone (config.ts's defaults are built from them).
  const lines = codeLines((f) => f !== "kernel/api-paths.ts").filter(({ line }) => !line.includes(".describe("));
  const paths = lines.filter(({ at, line }) => /["`]\/[a-z_]+/.test(line) && !/^(host\/pulumi-cli|cli\/loopback-server|cli\/routing-emulator)\.ts:/.test(at));
  const scopes = lines.filter(({ at, line }) => /"[a-z_]+\.(read|write)"/.test(line) && !at.startsWith("scopes.ts:"));
  expect({ paths: paths.map((l) => l.at), scopes: scopes.map((l) => l.at) }).toEqual({ paths: [], scopes: [] });
});

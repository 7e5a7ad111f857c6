// Everything of the SDK that names a kind (resource modules, serialized providers, the providers by
// kind, the index's exports), the lookups and their result types, and the reference's tables are
// generated from the registry's definitions; these tests fail when a definition or the registry changed and
// `npm run generate` was not run, show that a new definition (of a kind or of a lookup) needs nothing
// else of the SDK, and hold every definition to what the generator and the provider rely on.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { z } from "zod";
import { argsShape, defineLookup, defineResource, inputShape, named, outputShape } from "../../../provider/kernel/define";
import { definitions, lookupDefinitions } from "../../../provider/registry";
import { diffManaged } from "../../../provider/kernel/diff";
import { diffRules } from "../../../provider/kernel/define";
import { generate, moduleOf, REFERENCE, settingsTable, stale } from "../../../scripts/generate-sdk";
import { ROOT } from "../../../scripts/repo-root";
import { describedAs } from "../../../scripts/sdk-types";
import { SETTINGS } from "../../../provider/settings";

test("the generated files are up to date (run `npm run generate` after changing a definition or the registry)", () => {
  expect(stale()).toEqual([]);
});

test("every registered kind has its SDK module, serialized provider, entry in the providers by kind, export and reference section", () => {
  const files = generate();
  for (const { kind } of definitions()) {
    const m = moduleOf(kind);
    expect(files.get(`sdk/${m}.ts`)).toContain(`export class ${kind} extends pulumi.CustomResource`);
    expect(files.get(`sdk/providers/${m}.ts`)).toContain(`export = entry("${kind}");`);
    expect(files.get("sdk/kind-providers.ts")).toMatch(new RegExp(`\n  ${kind}: \\w+,\n`));
    expect(files.get("sdk/resources.ts")).toContain(`export * from "./${m}";`);
    expect(files.get(REFERENCE)).toContain(`## ${kind}\n`);
  }
});

test("an output the service may leave unset is typed undefined, not null: the state leaves it out", () => {
  const files = generate();
  expect(files.get("sdk/service.ts")).toContain("declare readonly supportHours: pulumi.Output<ServiceSupportHours | undefined>;");
  expect(files.get("sdk/service-custom-field.ts")).toContain(
    "declare readonly defaultValue: pulumi.Output<boolean | number | string | (boolean | number | string)[] | undefined>;",
  );
  // No top-level output says null; inside objects null stays a value.
  for (const { kind } of definitions())
    expect(files.get(`sdk/${moduleOf(kind)}.ts`)).not.toMatch(/declare readonly \w+: pulumi\.Output<(null \| .*|.* \| null)>;/);
  expect(files.get("sdk/service.ts")).toMatch(/\n {2}type: "time" \| "intelligent" \| "content_based" \| null;\n/);
});

describe("a kind the registry does not have yet", () => {
  const policy = defineResource({
    kind: "EscalationPolicy",
    description: "An escalation policy.",
    notes: "Only in this test.",
    inputs: z.object({ name: z.string().describe("The policy's name.") }),
    outputs: z.object({ name: z.string(), htmlUrl: z.string().describe("The policy's page.") }),
    replaceOn: [],
    creates: true,
  });
  const before = generate();
  const after = generate([...definitions(), policy]);
  const added = [...after.keys()].filter((p) => !before.has(p));

  test("its definition is all the SDK needs: its modules, its provider's entry and its export are generated", () => {
    expect(added.sort()).toEqual(["sdk/escalation-policy.ts", "sdk/providers/escalation-policy.ts"]);
    // The serialized provider: a one-line module, as small as the others (state names it by path).
    expect(after.get("sdk/providers/escalation-policy.ts")).toBe(after.get("sdk/providers/service.ts")!.replaceAll("Service", "EscalationPolicy"));
    expect(after.get("sdk/kind-providers.ts")).toContain('import escalationPolicy = require("./providers/escalation-policy");');
    expect(after.get("sdk/kind-providers.ts")).toContain("  EscalationPolicy: escalationPolicy,\n};");
    expect(after.get("sdk/resources.ts")).toContain('export * from "./escalation-policy";');
    expect(after.get("sdk/escalation-policy.ts")).toContain('super(dynamicType("EscalationPolicy"), name, props, opts);');
    expect(after.get(REFERENCE)).toContain("## EscalationPolicy\n");
    // Nothing else of the SDK lists kinds.
    const changed = [...before].filter(([p, text]) => after.get(p) !== text).map(([p]) => p);
    expect(changed.sort()).toEqual([REFERENCE, "package.json", "sdk/kind-providers.ts", "sdk/resources.ts"].sort());
  });

  test("Biome leaves its modules as generated, with no setting that names them", () => {
    const biome = path.join(ROOT, "node_modules/.bin/biome");
    for (const p of [...added, "sdk/kind-providers.ts", "sdk/resources.ts"]) {
      const r = spawnSync(biome, ["format", `--stdin-file-path=${p}`], { cwd: ROOT, input: after.get(p), encoding: "utf8" });
      expect({ p, status: r.status, same: r.stdout === after.get(p) }).toEqual({ p, status: 0, same: true });
    }
  });
});

/** The generated lookups module, as the registry's definitions make it. */
const LOOKUPS_MODULE = generate().get("sdk/lookups.ts")!;

describe("a lookup the registry does not have yet", () => {
  const rule = named("EscalationRuleLookup", z.object({ id: z.string().describe("Id of the rule."), delay: z.number().describe("Minutes.") }));
  const extra = defineLookup({
    functionName: "getEscalationPolicyRules",
    query: "escalationPolicyRules",
    description: "The rules of an escalation policy, in order.",
    args: z.object({ policy: z.string().describe("Id of the policy."), limit: z.number().optional().describe("At most this many.") }).strict(),
    result: z.object({ rules: z.array(rule).describe("The policy's rules.") }),
  });
  const before = generate();
  const after = generate(definitions(), undefined, [...lookupDefinitions(), extra]);
  const changed = [...before].filter(([p, text]) => after.get(p) !== text).map(([p]) => p);

  test("its definition is all the SDK needs: its function, its result's type and its reference row are generated, nothing else", () => {
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(changed.sort()).toEqual([REFERENCE, "sdk/lookup-results.ts", "sdk/lookups.ts"].sort());
    expect(after.get("sdk/lookups.ts")).toContain(
      [
        "/** The rules of an escalation policy, in order. */",
        "export function getEscalationPolicyRules(",
        "  args: {",
        "    /** Id of the policy. */",
        "    policy: pulumi.Input<string>;",
        "    /** At most this many. */",
        "    limit?: pulumi.Input<number>;",
        "  },",
        "  opts?: LookupOptions,",
        "): pulumi.Output<{ rules: EscalationRuleLookup[] }> {",
        '  return lookup("getEscalationPolicyRules", "escalationPolicyRules", { policy: args.policy, limit: args.limit }, opts);',
        "}",
      ].join("\n"),
    );
    expect(after.get("sdk/lookups.ts")).toMatch(/import type \{ [^}]*\bEscalationRuleLookup\b[^}]*\} from "\.\/lookup-results";/);
    expect(after.get("sdk/lookup-results.ts")).toContain("export interface EscalationRuleLookup {\n  /** Id of the rule. */\n  id: string;");
    expect(after.get(REFERENCE)).toContain(
      "| `getEscalationPolicyRules` | `policy`, `limit?` | `rules`: list of `EscalationRuleLookup` | The rules of an escalation policy, in order. |",
    );
    // The rest of those files is as it was: the new lookup's lines are all that is added.
    for (const p of changed) {
      const lines = new Set(after.get(p)!.split("\n"));
      for (const line of before.get(p)!.split("\n")) if (!line.startsWith("import ")) expect(lines).toContain(line);
    }
  });

  test("Biome leaves the lookups module as generated", () => {
    const biome = path.join(ROOT, "node_modules/.bin/biome");
    for (const p of ["sdk/lookups.ts", "sdk/lookup-results.ts"]) {
      const r = spawnSync(biome, ["format", `--stdin-file-path=${p}`], { cwd: ROOT, input: after.get(p), encoding: "utf8" });
      expect({ p, status: r.status, same: r.stdout === after.get(p) }).toEqual({ p, status: 0, same: true });
    }
  });
});

describe.each(lookupDefinitions().map((l) => [l.functionName, l] as const))("%s", (_name, l) => {
  test("every argument is described, and its function is generated", () => {
    for (const [k, s] of Object.entries(argsShape(l))) expect([k, describedAs(s as z.ZodTypeAny)]).toEqual([k, expect.any(String)]);
    expect(LOOKUPS_MODULE).toContain(`export function ${l.functionName}(`);
  });
});

describe.each(definitions().map((d) => [d.kind, d] as const))("%s", (_kind, d) => {
  test("every top-level input and output is documented", () => {
    const inputs = inputShape(d);
    for (const [k, s] of Object.entries(inputs)) expect([k, describedAs(s as z.ZodTypeAny)]).toEqual([k, expect.any(String)]);
    for (const [k, s] of Object.entries(outputShape(d)))
      expect([k, describedAs(s as z.ZodTypeAny) ?? (inputs[k] && describedAs(inputs[k]))]).toEqual([k, expect.any(String)]);
  });

  test("the replace rules name inputs, and diff replaces on exactly those", () => {
    const inputs = Object.keys(inputShape(d));
    for (const k of d.replaceOn) expect(inputs).toContain(k);
    for (const k of inputs.filter((k) => !d.diffIgnore?.includes(k))) {
      const r = diffManaged({ [k]: "old" }, { [k]: "new" }, diffRules(d));
      expect([k, r.changes, r.replaces]).toEqual([k, true, d.replaceOn.includes(k) ? [k] : []]);
    }
  });

  test("secret outputs are outputs", () => {
    for (const k of d.secretOutputs ?? []) expect(Object.keys(outputShape(d))).toContain(k);
  });
});

test("the settings table names every setting in both doors' keys, its environment variable and whether it is a secret", () => {
  const table = settingsTable();
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const row = table.split("\n").find((l) => l.startsWith(`| \`pagerduty:${name}\`, \`pagerduty-dynamic:${name}\``));
    expect({ name, row }).toEqual({ name, row: expect.stringContaining(`| \`${spec.env}\` |`) });
    expect(row!.includes("(secret)")).toBe("secret" in spec);
  }
  expect(generate().get("README.md")).toContain(table);
});

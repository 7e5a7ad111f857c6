// The SDK's resource modules, lookup result types and the README's resource tables are generated
// from the resource definitions; these tests fail when a definition changed and `npm run generate`
// was not run, and hold every definition to what the generator and the provider rely on.
import type { z } from "zod";
import { inputShape, outputShape } from "../../../provider/kernel/define";
import { DEFINITIONS } from "../../../provider/registry";
import { diffManaged } from "../../../provider/kernel/diff";
import { diffRules } from "../../../provider/kernel/define";
import { generate, stale } from "../../../scripts/generate-sdk";
import { describedAs } from "../../../scripts/sdk-types";

test("the generated files are up to date (run `npm run generate` after changing a definition)", () => {
  expect(stale()).toEqual([]);
});

test("every resource has a definition, an SDK module and a README section", () => {
  const files = generate();
  expect(DEFINITIONS.map((d) => d.kind).sort()).toEqual(
    ["Service", "ServiceCustomFieldValues", "ServiceEnablement", "ServiceEventRule", "ServiceEventRulesConversion", "ServiceIntegration"].sort(),
  );
  for (const d of DEFINITIONS) {
    expect(files.get("README.md")).toContain(`### ${d.kind}\n`);
    expect([...files.values()].some((text) => text.includes(`export class ${d.kind} extends pulumi.dynamic.Resource`))).toBe(true);
  }
});

describe.each(DEFINITIONS.map((d) => [d.kind, d] as const))("%s", (_kind, d) => {
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

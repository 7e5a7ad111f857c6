// plugin/schema.json is generated from the registry's resource and lookup definitions: stale when a
// definition changed and `npm run generate` was not run. A new lookup's definition is all its
// function needs.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { defineLookup, named } from "../../../provider/kernel/define";
import { definitions, lookupDefinitions } from "../../../provider/registry";
import { generateSchema, SCHEMA_FILE } from "../../../scripts/generate-schema";
import { ROOT } from "../../../scripts/repo-root";

test("plugin/schema.json is up to date (run `npm run generate`)", () => {
  expect(fs.readFileSync(path.join(ROOT, SCHEMA_FILE), "utf8")).toBe(generateSchema());
});

test("a lookup the registry does not have yet: its definition makes its function and its result's type, nothing else", () => {
  const extra = defineLookup({
    functionName: "getEscalationPolicyRule",
    query: "escalationPolicyRule",
    description: "A rule of an escalation policy, by position.",
    args: z.object({ policy: z.string().describe("Id of the policy."), position: z.number().int().optional().describe("The rule's position.") }).strict(),
    result: named("EscalationRuleLookupResult", z.object({ id: z.string().describe("Id of the rule."), delay: z.number().describe("Minutes.") })),
  });
  const before = JSON.parse(generateSchema());
  const after = JSON.parse(generateSchema(definitions(), [...lookupDefinitions(), extra]));
  expect(after.functions["pagerduty-dynamic:index:getEscalationPolicyRule"]).toEqual({
    description: "A rule of an escalation policy, by position.",
    inputs: {
      type: "object",
      properties: {
        policy: { type: "string", description: "Id of the policy." },
        position: { type: "integer", description: "The rule's position." },
        account: { type: "string", description: expect.stringMatching(/^The account to look in/) },
      },
      required: ["policy"],
    },
    outputs: {
      type: "object",
      properties: { id: { type: "string", description: "Id of the rule." }, delay: { type: "number", description: "Minutes." } },
      required: ["id", "delay"],
    },
  });
  expect(after.types["pagerduty-dynamic:index:EscalationRuleLookupResult"]).toBeDefined();
  delete after.functions["pagerduty-dynamic:index:getEscalationPolicyRule"];
  delete after.types["pagerduty-dynamic:index:EscalationRuleLookupResult"];
  expect(after).toEqual(before);
});

// getEscalationPolicy: the escalation policy with exactly this name (the listing's `query` narrows).
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { ESCALATION_POLICIES, POLICIES_READ } from "../kernel/api-paths";
import { defineLookup, named } from "../kernel/define";
import { listOffset } from "../kernel/pages";
import { idOf, nameArg } from "./fields";
import { byName, type Named, nameOf } from "./find";

export const definition = defineLookup({
  functionName: "getEscalationPolicy",
  query: "escalationPolicy",
  description:
    "The escalation policy with exactly this name (case-sensitive), e.g. for `Service.escalationPolicy`. " +
    "Needs the scope `escalation_policies.read` (add it to `pagerduty:scopes` for OAuth app tokens).",
  args: z.object({ name: nameArg("The policy's name, exactly (case-sensitive).") }).strict(),
  result: named(
    "EscalationPolicyLookupResult",
    z.object({
      id: idOf("escalation policy"),
      name: z.string().describe("The policy's name."),
      description: z.string().nullable().describe("The policy's description, if it has one."),
      numLoops: z.number().nullable().describe("How often the policy repeats when no one acknowledges."),
      htmlUrl: z.string().describe("The policy's page in the PagerDuty web app."),
      summary: z.string().describe("A short text the API gives the policy."),
    }),
  ),
});

interface ApiPolicy extends Named {
  description?: string | null;
  num_loops?: number | null;
  html_url?: string;
}

export const lookup: Lookup<typeof definition> = {
  definition,
  async run({ client }, { name }) {
    const policies = await listOffset<ApiPolicy>(client, ESCALATION_POLICIES, "escalation_policies", POLICIES_READ, { query: name });
    const p = byName(policies, name, "escalation policy");
    return {
      id: p.id,
      name: nameOf(p),
      description: p.description ?? null,
      numLoops: p.num_loops ?? null,
      htmlUrl: p.html_url ?? "",
      summary: p.summary ?? nameOf(p),
    };
  },
};

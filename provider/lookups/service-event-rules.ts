// getServiceEventRules: a service's event rules, in position order, as the API returns them.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { READ, rulesPath } from "../kernel/api-paths";
import { fromApi } from "../kernel/case";
import { defineLookup, documentedOutputs, named } from "../kernel/define";
import { listOffset } from "../kernel/pages";
import { definition as ruleDefinition } from "../resources/service-event-rule";
import { idOf, serviceArg } from "./fields";
import { underService } from "./find";

const rule = named(
  "EventRuleLookup",
  documentedOutputs(ruleDefinition)
    .pick({ position: true, disabled: true, conditions: true, timeFrame: true, variables: true, actions: true })
    .partial({ conditions: true, timeFrame: true, variables: true, actions: true })
    .extend({ id: idOf("rule") })
    .passthrough(),
);

export const definition = defineLookup({
  functionName: "getServiceEventRules",
  query: "serviceEventRules",
  description: "The event rules of a service, in position order.",
  args: z.object({ service: serviceArg }).strict(),
  result: z.object({ rules: z.array(rule).describe("The service's event rules, in position order.") }),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { service }) {
    const rules = await underService(ctx, service, () => listOffset<Record<string, unknown>>(ctx.client, rulesPath(service), "rules", READ));
    return { rules: rules.map((r) => fromApi<z.output<typeof rule>>(r)) };
  },
};

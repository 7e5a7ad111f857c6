// getServiceEnablements: a service's feature switches, with the warnings the API attaches.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { enablementsPath, READ } from "../kernel/api-paths";
import { defineLookup, named } from "../kernel/define";
import { type ApiEnablement, enablementOf, warningsOf } from "../resources/service-enablement";
import { serviceArg } from "./fields";
import { underService } from "./find";

const enablement = named(
  "EnablementLookup",
  z.object({
    feature: z.string().describe('The feature, e.g. "aiops".'),
    enabled: z.boolean().describe("Whether the feature is on for the service."),
    updatedAt: z.string().nullable().describe("When the switch was last written (ISO 8601); null when it never was."),
    warnings: z.array(z.string()).describe("Warnings the API attaches (e.g. the account is not entitled to the feature)."),
  }),
);

export const definition = defineLookup({
  functionName: "getServiceEnablements",
  query: "serviceEnablements",
  description: "The enablements (feature switches) of a service, with any warnings the API attaches.",
  args: z.object({ service: serviceArg }).strict(),
  result: z.object({ enablements: z.array(enablement).describe("The service's feature switches.") }),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { service }) {
    const reply = await underService(ctx, service, () =>
      ctx.client.request<{ enablements?: ApiEnablement[] }>("GET", enablementsPath(service), { scopes: READ }),
    );
    const list = (reply?.enablements ?? []).filter((e): e is ApiEnablement & { feature: string } => typeof e?.feature === "string");
    return {
      enablements: list.map((e) => {
        const one = enablementOf({ enablement: e }, e.feature)!;
        return { feature: e.feature, enabled: one.enabled, updatedAt: one.updated_at ?? null, warnings: warningsOf(one) };
      }),
    };
  },
};

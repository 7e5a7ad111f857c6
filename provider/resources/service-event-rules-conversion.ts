// pagerduty:ServiceEventRulesConversion — the one-way `POST /services/{id}/rules/convert` verb as a
// resource. Create converts; the conversion cannot be undone, so delete only forgets it (with a
// Pulumi warning saying so). The API has no read of the conversion state: once converted, a
// service stays converted, so read checks that the service still exists and keeps the recorded state.
import { z } from "zod";
import { defineResource, type OutputsOf } from "../kernel/define";
import type { Resource } from "../operations/resource";
import { READ, rulesConvertPath, servicePath, WRITE } from "../kernel/api-paths";

export const conversionInputs = z
  .object({
    service: z
      .string()
      .min(1, "must be a service id")
      .describe("Id of the service whose event rules are converted. Changing it converts the other service (the first stays converted)."),
  })
  .strict();

export const definition = defineResource({
  kind: "ServiceEventRulesConversion",
  description: [
    "Converts a service's event rules into event orchestration rules",
    "(`POST /services/{id}/rules/convert`). This is irreversible:",
    "",
    "- creating the resource performs the conversion (converting an already converted service is a no-op);",
    "- afterwards the service's event rules are read-only: creating or updating a `ServiceEventRule` of",
    "  the service fails with an error naming the conversion (order them with `dependsOn`);",
    "- deleting the resource does NOT undo the conversion (the API cannot): it only removes the resource",
    "  from the Pulumi state and logs a warning saying so.",
  ].join("\n"),
  notes:
    "Runs `POST /services/{id}/rules/convert`, which cannot be undone: destroying the resource only removes it from state, " +
    "with a warning saying so. Later rule writes fail with a message naming the conversion.",
  inputs: conversionInputs,
  outputs: z.object({
    service: z.string(),
    convertStatus: z.string().describe('The state the API reports for the conversion, e.g. "completed".'),
    convertedTo: z.string().nullable().describe("Id of the event orchestration the rules now live in."),
    convertedToType: z.string().nullable().describe("Type of the object the rules were converted to, when the API says."),
  }),
  replaceOn: ["service"],
  creates: false,
  importId: "<service id>",
});

/** The reply of `POST /services/{id}/rules/convert`, as the API description shows it. */
interface ApiConversion {
  convert_status?: string;
  /** The API description's shape is the orchestration's URL; older replies carried a reference. */
  converted_to?: string | { id?: string; type?: string; self?: string } | null;
}

/** The orchestration's id: the reference's, or the last segment of its URL. */
function convertedTo(to: ApiConversion["converted_to"]): string | null {
  if (typeof to === "string") return to.split("/").filter(Boolean).pop() ?? null;
  return to?.id ?? null;
}

/** Verb reply -> outputs (fields the real API may omit become null). */
export function toOutputs(service: string, r: ApiConversion): OutputsOf<typeof definition> {
  return {
    service,
    convertStatus: r.convert_status ?? "completed",
    convertedTo: convertedTo(r.converted_to),
    convertedToType: typeof r.converted_to === "object" ? (r.converted_to?.type ?? null) : null,
  };
}

const serviceOf = (id: string, props: Record<string, unknown>) => (typeof props?.service === "string" ? props.service : id);

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `the conversion of service ${serviceOf(id, props)}`,

  async create(ctx, news) {
    const { service } = news;
    // Idempotent on the API side: converting an already converted service reports its state. So a
    // service made moments ago, which may answer 404 for a while, is asked again.
    const res = await ctx.consistency.untilVisible(ctx.consistency.createdAt("Service", service), () =>
      ctx.client.request<ApiConversion>("POST", rulesConvertPath(service), { scopes: WRITE }),
    );
    return { id: service, outs: toOutputs(service, res ?? {}) };
  },

  // Gone with its service (and the converted rules with it).
  async read(ctx, id, props) {
    const service = serviceOf(id, props);
    await ctx.client.request("GET", servicePath(service), { scopes: READ });
    return { id, props: { ...toOutputs(service, {}), ...props } };
  },

  async delete(ctx, id, props) {
    await ctx.warn(
      `the conversion of service ${serviceOf(id, props)}'s event rules to event orchestration rules cannot be undone: ` +
        `removing ServiceEventRulesConversion only drops it from the Pulumi state; the rules stay converted and read-only`,
    );
  },
};

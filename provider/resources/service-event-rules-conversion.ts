// pagerduty:ServiceEventRulesConversion — the one-way `POST /services/{id}/rules/convert` verb as a
// resource. Create converts; the conversion cannot be undone, so delete only forgets it (with a
// Pulumi warning saying so). The API has no read of the conversion state: once converted, a
// service stays converted, so read checks that the service still exists and keeps the recorded state.
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { warn } from "../diagnostics";
import { getClient } from "../runtime";
import { checkInputs, diffManaged, readOrGone, userInputs } from "./fields";

export const conversionInputs = z
  .object({
    /** Id of the service whose event rules are converted; changing it converts another service. */
    service: z.string().min(1, "must be a service id"),
  })
  .strict();

interface ApiConversion {
  convert_status?: string;
  converted_at?: string;
  /** The API description's shape is the orchestration's URL; older replies carried a reference. */
  converted_to?: string | { id?: string; type?: string; self?: string } | null;
  rules_converted?: number;
}

/** The orchestration's id: the reference's, or the last segment of its URL. */
function convertedTo(to: ApiConversion["converted_to"]): string | null {
  if (typeof to === "string") return to.split("/").filter(Boolean).pop() ?? null;
  return to?.id ?? null;
}

/** Verb reply -> outputs (fields the real API may omit become null). */
export function toOutputs(service: string, r: ApiConversion): Record<string, unknown> {
  return {
    service,
    convertStatus: r.convert_status ?? "converted",
    convertedAt: r.converted_at ?? null,
    convertedTo: convertedTo(r.converted_to),
    convertedToType: typeof r.converted_to === "object" ? (r.converted_to?.type ?? null) : null,
    rulesConverted: r.rules_converted ?? null,
  };
}

const servicePath = (service: string) => `/services/${encodeURIComponent(service)}`;

export const provider: dynamic.ResourceProvider = {
  async check(_olds, news) {
    return checkInputs(conversionInputs, news);
  },

  async diff(_id, olds, news) {
    return diffManaged(olds, news, { replaceOn: ["service"] });
  },

  async create(news) {
    const { service } = userInputs(news) as z.infer<typeof conversionInputs>;
    // Idempotent on the API side: converting an already converted service reports its state.
    const res = await getClient().request<ApiConversion>("POST", `${servicePath(service)}/rules/convert`, { scopes: ["services.write"] });
    return { id: service, outs: toOutputs(service, res ?? {}) };
  },

  async read(id, props) {
    const service = typeof props?.service === "string" ? props.service : id;
    // Gone with its service (and the converted rules with it).
    return readOrGone(async () => {
      await getClient().request("GET", servicePath(service), { scopes: ["services.read"] });
      return { id, props: { ...toOutputs(service, {}), ...props } };
    });
  },

  async delete(id, props) {
    const service = typeof props?.service === "string" ? props.service : id;
    await warn(
      `the conversion of service ${service}'s event rules to event orchestration rules cannot be undone: ` +
        `removing ServiceEventRulesConversion only drops it from the Pulumi state; the rules stay converted and read-only`,
    );
  },
};

// pagerduty:ServiceEnablement — one feature switch of a service
// (`GET /services/{id}/enablements`, `PUT /services/{id}/enablements/{feature}`).
//
// Create records the value found before it wrote (`previousEnabled`); delete writes that value back
// and checks the API's reply, so a delete never silently leaves the switch as it was. The API has
// no "unset": an enablement never written reads as enabled, so restoring writes `true`. Warnings
// in replies (e.g. the account is not entitled to the feature) become Pulumi warnings, not errors.
// Adoption needs no id: creating the resource over an existing setting starts managing it, and the
// value it had is what delete restores.
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { PagerDutyError } from "../errors";
import { defineResource, type OutputsOf } from "../kernel/define";
import type { Resource } from "../operations/resource";
import { enablementsPath, READ, WRITE } from "../kernel/api-paths";

export const FEATURES = ["aiops"] as const;

export const enablementInputs = z
  .object({
    service: z.string().min(1, "must be a service id").describe("Id of the service; changing it replaces the resource."),
    feature: z
      .enum(FEATURES, { errorMap: () => ({ message: `must be one of ${FEATURES.map((f) => `"${f}"`).join(", ")} (the features the API has)` }) })
      .describe('The feature; the API has only "aiops". Changing it replaces the resource.'),
    enabled: z
      .boolean({ required_error: "is required (true or false)", invalid_type_error: "must be true or false" })
      .describe("Whether the feature is on for the service."),
  })
  .strict();

export const definition = defineResource({
  kind: "ServiceEnablement",
  description:
    "One feature switch of a service. Create records the value found before (`previousEnabled`);\n" +
    "delete writes it back. API warnings (e.g. the account is not entitled to the feature) are shown\n" +
    "as Pulumi warnings and do not fail the update. There is no `adoptId`: creating this resource\n" +
    "over an existing setting adopts it.",
  notes: "The value found before creation is restored on delete. API `warnings` (e.g. the account is not entitled) become Pulumi warnings, not failures.",
  inputs: enablementInputs,
  outputs: z.object({
    service: z.string(),
    feature: enablementInputs.shape.feature,
    enabled: z.boolean(),
    updatedAt: z.string().nullable().describe("When the switch was last written (ISO 8601); unset when it never was."),
    previousEnabled: z.boolean().describe("The value before this resource first wrote it; restored on delete."),
  }),
  replaceOn: ["service", "feature"],
  creates: false,
  importId: "<service id>/<feature>",
});

export type EnablementInputs = z.infer<typeof enablementInputs>;

export interface ApiEnablement {
  feature?: string;
  enabled: boolean;
  updated_at?: string | null;
  warnings?: unknown;
}

const path = enablementsPath;

/**
 * The enablement of `feature` in any reply shape the API is known to use: `{enablement: {...}}`,
 * `{enablement: [...]}` or `{enablements: [...]}`. An item without `feature` in a one-item reply
 * is taken as the requested one. Undefined when the reply has none.
 */
export function enablementOf(reply: unknown, feature: string): ApiEnablement | undefined {
  const r = (reply ?? {}) as { enablement?: unknown; enablements?: unknown };
  const raw = r.enablement ?? r.enablements;
  const items = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]) as ApiEnablement[];
  const valid = items.filter((i) => i !== null && typeof i === "object" && typeof i.enabled === "boolean");
  return valid.find((i) => i.feature === feature) ?? (valid.length === 1 && valid[0].feature === undefined ? valid[0] : undefined);
}

/** Warning texts of a reply: strings, or objects with a message. */
export function warningsOf(e: Pick<ApiEnablement, "warnings">): string[] {
  const list = Array.isArray(e.warnings) ? e.warnings : e.warnings === undefined || e.warnings === null ? [] : [e.warnings];
  return list.map((w) =>
    typeof w === "string" ? w : typeof (w as { message?: unknown })?.message === "string" ? (w as { message: string }).message : JSON.stringify(w),
  );
}

async function current(ctx: AccountContext, service: string, feature: string): Promise<ApiEnablement> {
  const reply = await ctx.client.request("GET", path(service), { scopes: READ });
  // The API lists only features it knows; one never written reads as enabled.
  return enablementOf(reply, feature) ?? { feature, enabled: true, updated_at: null };
}

/** Writes the switch, surfaces the reply's warnings, and returns the state the API reports. */
async function write(ctx: AccountContext, service: string, feature: string, enabled: boolean): Promise<ApiEnablement> {
  const reply = await ctx.client.request("PUT", path(service, feature), { body: { enablement: { enabled } }, scopes: WRITE });
  const e = enablementOf(reply, feature);
  if (!e) throw new PagerDutyError("ERR_API", `PUT ${path(service, feature)} replied without an enablement for "${feature}"`);
  for (const w of warningsOf(e)) await ctx.warn(`pagerduty:ServiceEnablement ${service}/${feature}: ${w}`);
  return e;
}

function outputs(service: string, feature: Feature, e: ApiEnablement, previousEnabled: boolean): OutputsOf<typeof definition> {
  return { service, feature, enabled: e.enabled, updatedAt: e.updated_at ?? null, previousEnabled };
}

type Feature = (typeof FEATURES)[number];

export const resource: Resource<typeof definition> = {
  definition,

  subject: (_id, props) => `service ${props.service} (enablement ${props.feature})`,

  async create(ctx, news) {
    const { service, feature, enabled } = news;
    // A service made moments ago may answer 404 for a while: a read and a PUT, safe to ask again.
    return ctx.consistency.untilVisible(ctx.consistency.createdAt("Service", service), async () => {
      const before = await current(ctx, service, feature);
      // A switch already as declared (an existing service adopted, say) is not written again.
      const after = before.enabled === enabled ? before : await write(ctx, service, feature, enabled);
      return { id: `${service}/${feature}`, outs: outputs(service, feature, after, before.enabled) };
    });
  },

  async read(ctx, id, props) {
    const { service, feature, previousEnabled } = props;
    const now = await current(ctx, service, feature);
    // An import's read has recorded nothing: the value found is what delete restores, as for a create over it.
    return { id, props: outputs(service, feature, now, previousEnabled ?? now.enabled) };
  },

  async update(ctx, _id, olds, news) {
    const { service, feature, enabled } = news;
    return { outs: outputs(service, feature, await write(ctx, service, feature, enabled), olds.previousEnabled) };
  },

  // A 404 means the service is gone, and its settings with it.
  async delete(ctx, _id, props) {
    const { service, feature, previousEnabled } = props;
    const after = await write(ctx, service, feature, previousEnabled);
    if (after.enabled !== previousEnabled) {
      throw new PagerDutyError(
        "ERR_API",
        `restoring ${feature} of service ${service} to enabled=${previousEnabled} did not take effect: the API reports enabled=${after.enabled}`,
      );
    }
  },
};

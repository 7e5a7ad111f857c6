// pagerduty:AlertGroupingSetting — how the alerts of one or more services are grouped into incidents
// (`/alert_grouping_settings`), the successor of a service's deprecated `alertGroupingParameters`.
// A service belongs to at most one setting (the API refuses a second with a 400 naming it), and
// while it does, the service reports its grouping as a reference to the setting.
import { z } from "zod";
import type { ApiClient } from "../http/client";
import { fromApi, toApi } from "../kernel/case";
import { userInputs } from "../kernel/check";
import { defineResource, type OutputsOf } from "../kernel/define";
import type { Resource } from "../operations/resource";
import { orGone } from "../kernel/gone";
import { MAX_PAGE } from "../kernel/pages";
import { createOnce, type Candidate } from "../operations/recovery";
import { ALERT_GROUPING_SETTINGS, alertGroupingSettingPath, READ, WRITE } from "../kernel/api-paths";
import { PagerDutyError } from "../errors";

export const SETTING_TYPES = ["time", "intelligent", "content_based", "content_based_intelligent"] as const;
type SettingType = (typeof SETTING_TYPES)[number];

/** Which config keys each type takes, and the windows the API accepts (0: the recommended one, or until resolved). */
const TYPE_RULES: Record<SettingType, { keys: readonly string[]; content: boolean; oneService: boolean; window?: readonly [number, number][] }> = {
  time: { keys: ["timeout"], content: false, oneService: true },
  intelligent: { keys: ["timeWindow", "iagFields"], content: false, oneService: false, window: [[300, 3600]] },
  content_based: {
    keys: ["timeWindow", "aggregate", "fields"],
    content: true,
    oneService: false,
    window: [
      [300, 3600],
      [86400, 86400],
    ],
  },
  // The description: "Type of content_based_intelligent allows for only one service"; the Terraform provider says so of time.
  content_based_intelligent: { keys: ["timeWindow", "aggregate", "fields"], content: true, oneService: true, window: [[300, 3600]] },
};

const inRanges = (n: number, ranges: readonly (readonly [number, number])[]) => n === 0 || ranges.some(([lo, hi]) => n >= lo && n <= hi);
const rangeText = (ranges: readonly (readonly [number, number])[]) => ranges.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo} to ${hi}`)).join(" or ");

const config = z
  .object({
    timeout: z
      .number()
      .int()
      .optional()
      .describe('Type "time": seconds within which alerts are grouped, 60 to 86400; 0 or unset: until the incident is resolved.'),
    timeWindow: z
      .number()
      .int()
      .optional()
      .describe(
        'Types "intelligent", "content_based", "content_based_intelligent": the most seconds between grouped alerts, 300 to 3600 ' +
          '("content_based" also 86400); 0 or unset: the window PagerDuty recommends.',
      ),
    aggregate: z.enum(["all", "any"]).optional().describe("Content types (required): whether all or any of `fields` must match."),
    fields: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Content types (required): the alert fields compared, e.g. `summary`, `custom_details.host`."),
    iagFields: z.array(z.string().min(1)).min(1).optional().describe('Type "intelligent": the fields grouped on (server default `["summary"]`).'),
  })
  .strict();

export const settingInputs = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(255).describe("The setting's name (not unique; recovery searches by it)."),
    description: z.string().optional().describe("Free text about the setting. Unset: not managed."),
    type: z.enum(SETTING_TYPES).describe("How alerts are grouped: by time, by machine learning, by content, or by content and machine learning."),
    config: config.optional().describe("Settings of the type; each field is checked against `type`."),
    services: z
      .array(z.string().min(1, "must be a service id"))
      .min(1, "must name at least one service")
      .refine((ids) => new Set(ids).size === ids.length, "must not name a service twice")
      .describe("Ids of the services the setting applies to. A service belongs to at most one setting."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing setting with this id instead of creating one; its managed fields are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    const rules = TYPE_RULES[v.type];
    const c = (v.config ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(c))
      if (c[key] !== undefined && !rules.keys.includes(key))
        ctx.addIssue({ code: "custom", path: ["config", key], message: `does not apply to type "${v.type}"` });
    if (rules.content)
      for (const key of ["aggregate", "fields"])
        if (c[key] === undefined) ctx.addIssue({ code: "custom", path: ["config", key], message: `is required for type "${v.type}"` });
    if (v.type === "time" && v.config?.timeout !== undefined && !inRanges(v.config.timeout, [[60, 86400]]))
      ctx.addIssue({ code: "custom", path: ["config", "timeout"], message: "must be 0 (until resolved) or 60 to 86400 seconds" });
    if (rules.window && v.config?.timeWindow !== undefined && !inRanges(v.config.timeWindow, rules.window))
      ctx.addIssue({
        code: "custom",
        path: ["config", "timeWindow"],
        message: `must be 0 (recommended) or ${rangeText(rules.window)} seconds for type "${v.type}"`,
      });
    if (rules.oneService && v.services.length > 1)
      ctx.addIssue({ code: "custom", path: ["services"], message: `type "${v.type}" applies to one service; ${v.services.length} are named` });
  });

export type SettingInputs = z.infer<typeof settingInputs>;

export const definition = defineResource({
  kind: "AlertGroupingSetting",
  description:
    "How the alerts of one or more services are grouped into incidents: the successor of a service's\n" +
    "deprecated `alertGroupingParameters`. A service belongs to at most one setting; while it does,\n" +
    "the service reports its grouping as a reference to the setting. See docs/alert-grouping-and-dependencies.md\n" +
    "for moving a service's parameters here without a moment of no grouping.",
  notes:
    "A service belongs to one setting. `config` is checked against `type` at preview. Moving from a service's " +
    "`alertGroupingParameters` without a gap: see docs/alert-grouping-and-dependencies.md.",
  inputs: settingInputs,
  outputs: z.object({
    name: z.string().nullable(),
    description: z.string().nullable(),
    type: z.enum(SETTING_TYPES),
    // Described here, not taken from the input, so the lookup's result (documentedOutputs) reuses the SDK's interface of it.
    config: config
      .extend({ recommendedTimeWindow: z.number().optional().describe("The window PagerDuty recommends, when it reports one.") })
      .describe("Settings of the type; each field is checked against `type`."),
    services: z.array(z.string()),
    createdAt: z.string().describe("When the setting was created (ISO 8601)."),
  }),
  replaceOn: [],
  diffIgnore: ["adoptId"],
  creates: true,
});

type SettingOutputs = OutputsOf<typeof definition>;

export interface ApiSetting {
  id: string;
  name?: string | null;
  description?: string | null;
  type: string;
  config?: Record<string, unknown> | null;
  services?: Array<{ id: string }>;
  created_at?: string;
}

export function toOutputs(g: ApiSetting): SettingOutputs {
  return {
    name: g.name ?? null,
    description: g.description ?? null,
    type: g.type as SettingType,
    config: fromApi(g.config ?? {}),
    services: (g.services ?? []).map((s) => s.id),
    createdAt: g.created_at ?? "",
  };
}

/** The declared fields as a request body; services as references. */
export function toBody(inputs: Partial<SettingInputs>): Record<string, unknown> {
  const { services, adoptId: _adopt, config: c, ...rest } = inputs;
  const body: Record<string, unknown> = toApi(rest);
  if (c !== undefined) body.config = toApi(c);
  if (services !== undefined) body.services = services.map((id) => ({ id, type: "service_reference" }));
  return body;
}

async function get(client: ApiClient, id: string): Promise<ApiSetting> {
  return (await client.request<{ alert_grouping_setting: ApiSetting }>("GET", alertGroupingSettingPath(id), { scopes: READ })).alert_grouping_setting;
}

async function put(client: ApiClient, id: string, inputs: Partial<SettingInputs>): Promise<SettingOutputs> {
  const res = await client.request<{ alert_grouping_setting: ApiSetting }>("PUT", alertGroupingSettingPath(id), {
    body: { alert_grouping_setting: toBody(inputs) },
    scopes: WRITE,
  });
  return toOutputs(res.alert_grouping_setting);
}

/** Every setting holding one of `services` (none given: every setting), following the listing's `after` cursors. */
export async function settingsOf(client: ApiClient, services: readonly string[] = []): Promise<ApiSetting[]> {
  const out: ApiSetting[] = [];
  const seen = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const res = await client.request<{ alert_grouping_settings?: ApiSetting[]; after?: string | null }>("GET", ALERT_GROUPING_SETTINGS, {
      query: { "service_ids[]": [...services], limit: MAX_PAGE, after },
      scopes: READ,
    });
    out.push(...(res.alert_grouping_settings ?? []));
    if (typeof res.after !== "string" || res.after === "") return out;
    if (seen.has(res.after)) throw new PagerDutyError("ERR_API", `GET ${ALERT_GROUPING_SETTINGS} returned the cursor of an earlier page again`);
    seen.add(res.after);
    after = res.after;
  }
}

/** The settings that hold the declared services under the declared name and type. */
const settingsLike = async (client: ApiClient, inputs: SettingInputs) =>
  (await settingsOf(client, inputs.services)).filter((g) => g.name === inputs.name && g.type === inputs.type);

/**
 * Candidates for an unanswered create. Settings have no audit records, so there is no record of who
 * made one: the proof is the setting itself. It holds a declared service (a service belongs to one
 * setting, so a second create of this resource could not have made another), carries the declared
 * name and type, and was made after the create was sent; recovery then also requires that no
 * resource of the stack holds it. The credential is taken as this process's, which an intent
 * journaled under another credential therefore does not match (that create fails naming the setting).
 */
async function candidates(client: ApiClient, inputs: SettingInputs, since: number): Promise<Candidate[]> {
  const credential = await client.credentialTail();
  return (await settingsLike(client, inputs))
    .map((g) => ({ id: g.id, createdAt: Date.parse(g.created_at ?? ""), credential }))
    .filter((c) => !Number.isNaN(c.createdAt) && c.createdAt >= since);
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id) => `alert grouping setting ${id}`,

  describe: (inputs) => `alert grouping setting${typeof inputs.name === "string" ? ` "${inputs.name}"` : ""}`,

  findExisting: async (client, inputs) => (await settingsLike(client, inputs as SettingInputs)).map((g) => g.id),

  async adopt(ctx, id, news) {
    const found = await get(ctx.client, id);
    return { id: found.id, outs: await put(ctx.client, found.id, userInputs(news)) };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what: `alert grouping setting "${inputs.name}"`,
      // A 404 naming a service made moments ago made nothing: asked again while that service may be invisible.
      post: () =>
        ctx.consistency.untilVisible(ctx.consistency.youngest("Service", inputs.services), async () => {
          const res = await client.request<{ alert_grouping_setting: ApiSetting }>("POST", ALERT_GROUPING_SETTINGS, {
            body: { alert_grouping_setting: { config: {}, ...toBody(inputs) } },
            scopes: WRITE,
          });
          return { id: res.alert_grouping_setting.id, value: res.alert_grouping_setting };
        }),
      exists: async (id) => (await orGone(() => get(client, id))) !== undefined,
      find: (since) => candidates(client, inputs, since),
      findExisting: async () => (await settingsLike(client, inputs)).map((g) => g.id),
    });
    if ("adopted" in outcome) return { id: outcome.id, outs: await put(client, outcome.id, inputs) };
    return { id: outcome.id, outs: toOutputs(outcome.created) };
  },

  async read(ctx, id) {
    const found = await get(ctx.client, id);
    return { id: found.id, props: toOutputs(found) };
  },

  async update(ctx, id, _olds, news) {
    return { outs: await put(ctx.client, id, userInputs(news)) };
  },

  async delete(ctx, id) {
    await ctx.client.request("DELETE", alertGroupingSettingPath(id), { scopes: WRITE });
  },
};

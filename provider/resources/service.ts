// pagerduty:Service — a PagerDuty service (`/services`).
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import { ApiError, PagerDutyError } from "../errors";
import { getClient } from "../runtime";
import { checkInputs, deleteOrGone, diffManaged, fromApi, readOrGone, toApi, updateOrGone, userInputs } from "./fields";
import { listOffset } from "./pages";
import { journal } from "./journal";
import { finishCreate } from "./partial";
import { createdSince, createOnce, orGone, RECOVER_COMMAND, type Candidate } from "./recovery";

const READ = ["services.read"];
const WRITE = ["services.write"];

const timeout = z.number().int().nonnegative().nullable();
const urgency = z.enum(["low", "high", "severity_based"]);
const urgencyRule = z.object({ type: z.enum(["constant", "use_support_hours"]), urgency: urgency.optional() }).strict();

export const serviceInputs = z
  .object({
    name: z.string().trim().min(1, "must not be empty"),
    description: z.string().optional(),
    escalationPolicy: z.string().min(1, "must be an escalation policy id"),
    autoResolveTimeout: timeout.optional(),
    acknowledgementTimeout: timeout.optional(),
    status: z.enum(["active", "warning", "critical", "maintenance", "disabled"]).optional(),
    alertCreation: z.enum(["create_incidents", "create_alerts_and_incidents"]).optional(),
    incidentUrgencyRule: z
      .object({
        type: z.enum(["constant", "use_support_hours"]),
        urgency: urgency.optional(),
        duringSupportHours: urgencyRule.optional(),
        outsideSupportHours: urgencyRule.optional(),
      })
      .strict()
      .optional(),
    supportHours: z
      .object({
        type: z.literal("fixed_time_per_day"),
        timeZone: z.string().min(1),
        startTime: z.string().regex(/^\d{2}:\d{2}:\d{2}$/, "must be HH:MM:SS"),
        endTime: z.string().regex(/^\d{2}:\d{2}:\d{2}$/, "must be HH:MM:SS"),
        daysOfWeek: z.array(z.number().int().min(1).max(7)).min(1),
      })
      .strict()
      .nullable()
      .optional(),
    scheduledActions: z
      .array(
        z
          .object({
            type: z.literal("urgency_change"),
            at: z.object({ type: z.literal("named_time"), name: z.enum(["support_hours_start", "support_hours_end"]) }).strict(),
            toUrgency: urgency,
          })
          .strict(),
      )
      .optional(),
    alertGroupingParameters: z
      .object({
        type: z.enum(["time", "intelligent", "content_based"]).nullable(),
        config: z
          .object({
            timeout: z.number().int().nonnegative().optional(),
            timeWindow: z.number().int().nonnegative().optional(),
            aggregate: z.enum(["all", "any"]).optional(),
            fields: z.array(z.string()).optional(),
            recommendedTimeWindow: z.number().int().optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .nullable()
      .optional(),
    autoPauseNotificationsParameters: z
      .object({
        enabled: z.boolean(),
        timeout: z.union([z.literal(0), z.literal(120), z.literal(180), z.literal(300), z.literal(600), z.literal(900)]).nullable().optional(),
      })
      .strict()
      .optional(),
    /** Adopt an existing service instead of creating one (the `import` option does not work for dynamic resources). */
    adoptId: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.incidentUrgencyRule?.type === "use_support_hours" && !v.supportHours) {
      ctx.addIssue({ code: "custom", path: ["supportHours"], message: 'is required when incidentUrgencyRule.type is "use_support_hours"' });
    }
  });

export type ServiceInputs = z.infer<typeof serviceInputs>;

interface ApiService {
  id: string;
  name: string;
  description?: string | null;
  escalation_policy?: { id: string } | null;
  auto_resolve_timeout?: number | null;
  acknowledgement_timeout?: number | null;
  status?: string;
  alert_creation?: string;
  incident_urgency_rule?: unknown;
  support_hours?: unknown;
  scheduled_actions?: unknown[];
  alert_grouping_parameters?: unknown;
  auto_pause_notifications_parameters?: unknown;
  html_url?: string;
  created_at?: string;
  summary?: string;
  last_incident_timestamp?: string | null;
}

/** Live service -> Pulumi outputs. Absent and empty values are normalized so diffs stay stable. */
export function toOutputs(s: ApiService): Record<string, unknown> {
  return {
    name: s.name,
    description: s.description ?? "",
    escalationPolicy: s.escalation_policy?.id ?? null,
    autoResolveTimeout: s.auto_resolve_timeout ?? null,
    acknowledgementTimeout: s.acknowledgement_timeout ?? null,
    status: s.status ?? "active",
    alertCreation: s.alert_creation ?? null,
    incidentUrgencyRule: fromApi(s.incident_urgency_rule ?? null),
    supportHours: fromApi(s.support_hours ?? null),
    scheduledActions: fromApi(s.scheduled_actions ?? []),
    alertGroupingParameters: fromApi(s.alert_grouping_parameters ?? null),
    autoPauseNotificationsParameters: fromApi(s.auto_pause_notifications_parameters ?? null),
    htmlUrl: s.html_url ?? "",
    createdAt: s.created_at ?? "",
    summary: s.summary ?? s.name,
    lastIncidentTimestamp: s.last_incident_timestamp ?? null,
  };
}

/** Managed inputs -> request body. Only what the user set is sent. */
export function toBody(inputs: Partial<ServiceInputs>, opts: { includeStatus: boolean }): Record<string, unknown> {
  const { escalationPolicy, adoptId: _adopt, status, ...rest } = inputs;
  const body: Record<string, unknown> = { type: "service", ...toApi(rest) };
  if (escalationPolicy !== undefined) body.escalation_policy = { id: escalationPolicy, type: "escalation_policy_reference" };
  if (opts.includeStatus && status !== undefined) body.status = status;
  return body;
}

const managed = (news: Record<string, unknown>) => userInputs(news) as Partial<ServiceInputs>;

async function put(id: string, inputs: Partial<ServiceInputs>): Promise<Record<string, unknown>> {
  const res = await getClient().request<{ service: ApiService }>("PUT", `/services/${encodeURIComponent(id)}`, {
    body: { service: toBody(inputs, { includeStatus: true }) },
    scopes: WRITE,
  });
  return toOutputs(res.service);
}

// ---- interrupted creates ----------------------------------------------------------------------

/** Services named exactly `name` (names are unique per account) created since `since`. */
async function servicesNamed(name: string, since: number): Promise<Candidate[]> {
  const named = (await listOffset<ApiService>("/services", "services", READ, { query: name })).filter((s) => s.name === name);
  const out: Candidate[] = [];
  for (const s of named) out.push(...(await createdSince(s.id, /^service_reference$/, since)).filter((c) => c.id === s.id));
  return out;
}

const isNameTaken = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 400 && /already been taken/i.test(e.message);

/** "Name has already been taken", with the id of the holder and the way out when it came from an interrupted deployment. */
async function nameTaken(name: string, cause: ApiError): Promise<PagerDutyError> {
  const holder = (await listOffset<ApiService>("/services", "services", READ, { query: name }).catch(() => [])).find((s) => s.name === name);
  return new PagerDutyError(
    "ERR_CONFLICT",
    `service "${name}": a service with this name already exists${holder ? ` (${holder.id})` : ""} and this machine has no record that this stack made it. ` +
      `If an interrupted deployment of this stack created it, run \`${RECOVER_COMMAND}\` in the project directory (it records it in the state), then \`pulumi up\`; ` +
      `otherwise rename the service in the program or adopt the existing one with \`adoptId\``,
    { cause },
  );
}

export const provider: dynamic.ResourceProvider = {
  async check(_olds, news) {
    return checkInputs(serviceInputs, news);
  },

  async diff(id, olds, news) {
    journal().settle("Service", id);
    return diffManaged(olds, news, { ignore: ["adoptId"] });
  },

  async create(news) {
    const inputs = managed(news);
    if (inputs.adoptId) {
      // Adoption: the object exists already; bring its managed fields to the declared values.
      const found = await getClient().request<{ service: ApiService }>("GET", `/services/${encodeURIComponent(inputs.adoptId)}`, { scopes: READ });
      return { id: found.service.id, outs: await put(found.service.id, inputs) };
    }
    // An interrupted earlier create may have made this service already: adopt it rather than fail on its name.
    const outcome = await createOnce({
      kind: "Service",
      origin: news.__origin,
      what: `service "${inputs.name}"`,
      post: async () => {
        try {
          const res = await getClient().request<{ service: ApiService }>("POST", "/services", {
            body: { service: toBody(inputs, { includeStatus: false }) },
            scopes: WRITE,
          });
          return { id: res.service.id, value: res.service };
        } catch (e) {
          throw isNameTaken(e) ? await nameTaken(inputs.name!, e) : e;
        }
      },
      exists: async (id) => (await orGone(() => getClient().request("GET", `/services/${encodeURIComponent(id)}`, { scopes: READ }))) !== undefined,
      find: (since) => servicesNamed(inputs.name!, since),
    });
    if ("adopted" in outcome) return { id: outcome.id, outs: await put(outcome.id, inputs) };
    const id = outcome.id;
    const created = toOutputs(outcome.created);
    // The API creates services only as active; any other status is a second step.
    if (inputs.status === undefined || inputs.status === created.status) return { id, outs: created };
    return { id, outs: await finishCreate(id, created, () => put(id, { status: inputs.status })) };
  },

  async read(id) {
    return readOrGone(async () => {
      const res = await getClient().request<{ service: ApiService }>("GET", `/services/${encodeURIComponent(id)}`, { scopes: READ });
      return { id: res.service.id, props: toOutputs(res.service) };
    });
  },

  async update(id, _olds, news) {
    return { outs: await updateOrGone(`service ${id}`, () => put(id, managed(news))) };
  },

  async delete(id) {
    await deleteOrGone(() => getClient().request("DELETE", `/services/${encodeURIComponent(id)}`, { scopes: WRITE }));
  },
};

// pagerduty:Service — a PagerDuty service (`/services`).
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { ApiError, isNotFound, PagerDutyError, ScopeError, messageOf } from "../errors";
import type { ApiClient } from "../http/client";
import { fromApi, toApi } from "../kernel/case";
import { toFailure, UNKNOWN, userInputs } from "../kernel/check";
import { defineResource, diffRules, named, type OutputsOf } from "../kernel/define";
import { diffManaged, unsatisfied } from "../kernel/diff";
import type { Resource } from "../operations/resource";
import { clockTime, timeZone } from "../kernel/formats";
import { orGone } from "../kernel/gone";
import { listOffset } from "../kernel/pages";
import { finishCreate } from "../kernel/partial";
import { createOnce, RECOVER_COMMAND, type Candidate } from "../operations/recovery";
import { createdSince } from "./audit-records";
import { escalationPolicyPath, POLICIES_READ, READ, servicePath, SERVICES, WRITE } from "../kernel/api-paths";

// ---- what of a service's state is the user's --------------------------------------------------

// PagerDuty computes `status` from what happens on the service (its API description, `Service.status`):
// `active` is "enabled and no open incidents", `warning` "one or more acknowledged incidents",
// `critical` "one or more triggered incidents", `maintenance` comes from maintenance windows; only
// enabled or `disabled` is a setting. So a program declares `active` (enabled) or `disabled`, and a
// busy service satisfies `active`: its incidents are never drift, and nothing is sent to change what
// PagerDuty computes. PagerDuty's Terraform provider stopped reading `status` for the same reason
// (v3.31.5, "persistent drift").

/** Every status the API reports. */
export const LIVE_STATUSES = ["active", "warning", "critical", "maintenance", "disabled"] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

/** The statuses a program declares: enabled (`active`) or disabled. */
export const DECLARED_STATUSES = ["active", "disabled"] as const;
export type DeclaredStatus = (typeof DECLARED_STATUSES)[number];

/** A live status as a program declares it: disabled, or enabled whatever the service's incidents. */
export function declaredStatus(live: LiveStatus): DeclaredStatus {
  return live === "disabled" ? "disabled" : "active";
}

/** Why `value` is not a status a program can declare. */
export function statusProblem(value: unknown): string {
  const enabled = 'declare "active" (enabled) or "disabled"';
  if (typeof value === "string" && (LIVE_STATUSES as readonly string[]).includes(value))
    return value === "maintenance"
      ? `"maintenance" is set by PagerDuty while a maintenance window is open, not by the service's settings; ${enabled}`
      : `"${value}" is computed by PagerDuty from the service's open incidents; ${enabled}`;
  return `must be "active" (enabled) or "disabled"; got ${JSON.stringify(value)}`;
}

/**
 * `alertCreation` is no longer a setting: every service now creates alerts and incidents, and the
 * incident-only setting reached its end of life (the API description deprecates the field; the
 * Terraform provider suppresses every diff on it). The service reports `create_alerts_and_incidents`.
 */
export const ALERT_CREATION_GONE =
  'alertCreation: "create_incidents" is no longer offered by PagerDuty: every service creates alerts and incidents, so the service ' +
  'reports "create_alerts_and_incidents". The field changes nothing and is never compared; remove it from the program';

/**
 * The largest timeout PagerDuty takes: the description gives the field as an integer with no
 * maximum, and PagerDuty keeps it as a 32-bit one (2147483647 s, 68 years). A larger number (1e308
 * is an integer to JSON) fails here rather than at the API after other objects were made.
 */
export const MAX_TIMEOUT = 2_147_483_647;
const timeout = z
  .number()
  .int()
  .nonnegative()
  .max(MAX_TIMEOUT, `must be at most ${MAX_TIMEOUT} seconds (about 68 years), the largest the API stores; null disables it`)
  .nullable();
/** The API's limit on the length of a service's name. */
export const MAX_NAME = 255;
const urgency = z.enum(["low", "high", "severity_based"]);
const urgencyRule = named(
  "ServiceUrgencyRule",
  z
    .object({
      type: z.enum(["constant", "use_support_hours"]).describe('"constant": one urgency; "use_support_hours": see supportHours.'),
      urgency: urgency.optional().describe('The urgency of incidents, with type "constant".'),
    })
    .strict(),
);
const incidentUrgencyRule = z
  .object({
    type: z
      .enum(["constant", "use_support_hours"])
      .describe('"constant": every incident gets `urgency`; "use_support_hours": the urgency depends on the support hours.'),
    urgency: urgency.optional().describe('The urgency of every incident, with type "constant".'),
    duringSupportHours: urgencyRule.optional().describe('The rule inside the support hours, with type "use_support_hours".'),
    outsideSupportHours: urgencyRule.optional().describe('The rule outside the support hours, with type "use_support_hours".'),
  })
  .strict();
const supportHours = z
  .object({
    type: z.literal("fixed_time_per_day").describe("The only kind of support hours: the same hours on the days listed."),
    timeZone: timeZone.describe('IANA time zone of the hours, e.g. "Europe/Berlin".'),
    startTime: clockTime.describe('Start of the support hours, "HH:MM:SS".'),
    endTime: clockTime.describe('End of the support hours, "HH:MM:SS".'),
    daysOfWeek: z.array(z.number().int().min(1).max(7)).min(1).describe("Days with support hours, 1 (Monday) to 7 (Sunday)."),
  })
  .strict();
const scheduledAction = z
  .object({
    type: z.literal("urgency_change").describe("The only kind of scheduled action: a change of urgency."),
    at: z
      .object({
        type: z.literal("named_time").describe("The only kind of moment: a named time."),
        name: z.enum(["support_hours_start", "support_hours_end"]).describe("When the support hours start or end."),
      })
      .strict()
      .describe("When the action happens."),
    toUrgency: urgency.describe("The urgency open incidents change to."),
  })
  .strict();
const alertGroupingParameters = z
  .object({
    type: z
      .enum(["time", "intelligent", "content_based"])
      .nullable()
      .describe("How alerts are grouped into incidents: by time window, by machine learning, by content; null: no grouping."),
    config: z
      .object({
        timeout: z.number().int().nonnegative().optional().describe('Type "time": minutes an incident stays open for new alerts (0: until resolved).'),
        timeWindow: z.number().int().nonnegative().optional().describe('Types "intelligent" and "content_based": seconds within which alerts are grouped.'),
        aggregate: z.enum(["all", "any"]).optional().describe('Type "content_based": whether all or any of `fields` must match.'),
        fields: z.array(z.string()).optional().describe('Type "content_based": the alert fields compared.'),
        recommendedTimeWindow: z.number().int().optional().describe('Type "intelligent": the time window the service recommends, in seconds.'),
      })
      .strict()
      .optional()
      .describe("Settings of the grouping type."),
  })
  .strict();
const autoPauseNotificationsParameters = z
  .object({
    enabled: z.boolean().describe("Whether notifications of transient alerts are paused."),
    timeout: z
      .union([z.literal(0), z.literal(120), z.literal(180), z.literal(300), z.literal(600), z.literal(900)])
      .nullable()
      .optional()
      .describe("Seconds to pause before notifying."),
  })
  .strict();

export const serviceInputs = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .refine(
        (n) => n.length <= MAX_NAME,
        (n) => ({ message: `must be at most ${MAX_NAME} characters; it has ${n.length}` }),
      )
      .describe("The service's name, unique in the account."),
    description: z.string().optional().describe("Free text about the service. Unset: not managed."),
    escalationPolicy: z.string().min(1, "must be an escalation policy id").describe("Id of the escalation policy incidents of the service follow."),
    autoResolveTimeout: timeout.optional().describe("Seconds until an incident resolves itself; `null` disables. Unset: not managed (server default 14400)."),
    acknowledgementTimeout: timeout
      .optional()
      .describe("Seconds until an acknowledged incident triggers again; `null` disables. Unset: not managed (server default 1800)."),
    status: z
      .enum(DECLARED_STATUSES, {
        errorMap: (issue, ctx) => ({ message: issue.code === "invalid_enum_value" ? statusProblem(issue.received) : ctx.defaultError }),
      })
      .optional()
      .describe(
        'Whether the service is enabled ("active") or "disabled". A busy service (the `status` output "warning", "critical" or "maintenance", ' +
          'which PagerDuty computes from its incidents and maintenance windows) is enabled: it satisfies "active" and is never drift. ' +
          'The API creates services enabled: "disabled" is a second request after create.',
      ),
    alertCreation: z
      .enum(["create_incidents", "create_alerts_and_incidents"])
      .optional()
      .describe(
        'No longer a setting: every service creates alerts and incidents and reports "create_alerts_and_incidents". Accepted so existing ' +
          'programs still run, never compared; "create_incidents" gives a warning at preview.',
      ),
    incidentUrgencyRule: incidentUrgencyRule.optional().describe("How the urgency of new incidents is chosen."),
    supportHours: supportHours.nullable().optional().describe('Support hours, for incidentUrgencyRule type "use_support_hours"; `null` removes them.'),
    scheduledActions: z.array(scheduledAction).optional().describe("Urgency changes at the start or end of the support hours."),
    alertGroupingParameters: alertGroupingParameters.nullable().optional().describe("How alerts are grouped into incidents; `null` turns grouping off."),
    autoPauseNotificationsParameters: autoPauseNotificationsParameters.optional().describe("Pausing notifications of transient alerts."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing service with this id instead of creating one; its managed fields are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.incidentUrgencyRule?.type === "use_support_hours" && !v.supportHours) {
      ctx.addIssue({ code: "custom", path: ["supportHours"], message: 'is required when incidentUrgencyRule.type is "use_support_hours"' });
    }
  });

const serviceOutputs = z.object({
  name: z.string(),
  description: z.string(),
  escalationPolicy: z.string(),
  autoResolveTimeout: timeout,
  acknowledgementTimeout: timeout,
  status: z
    .enum(LIVE_STATUSES)
    .describe(
      'The service\'s status as PagerDuty reports it: "active" (enabled, no open incident), "warning" (acknowledged incidents), ' +
        '"critical" (triggered incidents), "maintenance" (in a maintenance window) or "disabled".',
    ),
  alertCreation: serviceInputs
    .innerType()
    .shape.alertCreation.unwrap()
    .describe('What the service reports: "create_alerts_and_incidents" for every service since the incident-only setting ended.'),
  incidentUrgencyRule: incidentUrgencyRule.nullable(),
  supportHours: supportHours.nullable(),
  scheduledActions: z.array(scheduledAction),
  alertGroupingParameters: alertGroupingParameters.nullable(),
  autoPauseNotificationsParameters: autoPauseNotificationsParameters.nullable(),
  htmlUrl: z.string().describe("The service's page in the PagerDuty web app."),
  createdAt: z.string().describe("When the service was created (ISO 8601)."),
  summary: z.string().describe("A short text the API gives the service (its name)."),
  lastIncidentTimestamp: z.string().nullable().describe("When the service's last incident was opened (ISO 8601), if it had one."),
});

export const definition = defineResource({
  kind: "Service",
  description: "A PagerDuty service: what incidents are opened against. A field left unset is not managed, so server defaults never show as a diff.",
  notes: '`status` is enabled (`"active"`) or `"disabled"`: open incidents are never drift. `"disabled"` is a second request after create.',
  inputs: serviceInputs,
  outputs: serviceOutputs,
  replaceOn: [],
  // alertCreation changes nothing any more (service-status.ts): it is never compared.
  diffIgnore: ["adoptId", "alertCreation"],
  liveAsDeclared: { status: declaredStatus },
  creates: true,
  uniqueInAccount: "name",
});

export type ServiceInputs = z.infer<typeof serviceInputs>;
const rules = diffRules(definition);
export type ServiceOutputs = OutputsOf<typeof definition>;

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
export function toOutputs(s: ApiService): ServiceOutputs {
  return {
    name: s.name,
    description: s.description ?? "",
    escalationPolicy: s.escalation_policy?.id ?? "",
    autoResolveTimeout: s.auto_resolve_timeout ?? null,
    acknowledgementTimeout: s.acknowledgement_timeout ?? null,
    status: (s.status ?? "active") as LiveStatus,
    // The API always sends it; its default for new services stands in when a reply leaves it out.
    alertCreation: (s.alert_creation ?? "create_alerts_and_incidents") as ServiceOutputs["alertCreation"],
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

async function put(client: ApiClient, id: string, inputs: Partial<ServiceInputs>): Promise<ServiceOutputs> {
  const res = await client.request<{ service: ApiService }>("PUT", servicePath(id), {
    body: { service: toBody(inputs, { includeStatus: true }) },
    scopes: WRITE,
  });
  return toOutputs(res.service);
}

// ---- checks at preview ------------------------------------------------------------------------

/**
 * Whether the account has the policy: undefined when it cannot be told here (the credentials lack
 * `escalation_policies.read`, or the read failed otherwise); the create then finds out. One request
 * per id per process.
 */
function policyExists(ctx: AccountContext, id: string): Promise<boolean | undefined> {
  return ctx.once(`escalation-policy/${id}`, () =>
    ctx.client
      .request("GET", escalationPolicyPath(id), { scopes: POLICIES_READ })
      .then(() => true as boolean | undefined)
      .catch(async (e) => {
        if (isNotFound(e)) return false;
        // Lacking the scope is a setting docs/configuration.md describes; any other failure is worth a word.
        if (!(e instanceof ScopeError))
          await ctx.warn(`escalationPolicy: ${id} could not be checked at preview (${messageOf(e)}); the create at \`up\` checks it`);
        return undefined;
      }),
  );
}

// ---- interrupted creates ----------------------------------------------------------------------

/**
 * The services named exactly `name` (names are unique per account, so at most one in practice):
 * the API's `query` narrows by substring, the match must be exact.
 */
export async function servicesNamed<T extends { id: string; name?: unknown } = ApiService>(client: ApiClient, name: string): Promise<T[]> {
  return (await listOffset<T>(client, SERVICES, "services", READ, { query: name })).filter((s) => s.name === name);
}

/** Ids of the services named exactly `name`. */
export async function idsOfServicesNamed(client: ApiClient, name: string): Promise<string[]> {
  return (await servicesNamed(client, name)).map((s) => s.id);
}

/** Services named exactly `name` created since `since`. */
async function servicesNamedSince(client: ApiClient, name: string, since: number): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const id of await idsOfServicesNamed(client, name))
    out.push(...(await createdSince(client, id, /^service_reference$/, since)).filter((c) => c.id === id));
  return out;
}

const isNameTaken = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 400 && /already been taken/i.test(e.message);

/**
 * "Name has already been taken", saying who holds the name: another resource of this stack (the
 * program gives two resources one name), or a service the stack does not manage. Only the latter can
 * come from an interrupted deployment, and only if the stack's state was not readable (otherwise it
 * would have been adopted), so only then is recovery suggested.
 */
async function nameTaken(ctx: AccountContext, name: string, cause: ApiError): Promise<PagerDutyError> {
  // The holder may be a service made moments ago, not yet in the listing: asked again while it may lag.
  const holder = (await ctx.consistency.search(Date.now(), () => idsOfServicesNamed(ctx.client, name)).catch(() => []))[0];
  let resource: string | undefined;
  let known = false;
  try {
    resource = holder ? await ctx.stack?.holder("Service", holder) : undefined;
    known = ctx.stack !== undefined;
  } catch {
    // the state is unreadable: say what may have happened
  }
  const taken = `service "${name}": the name is taken by service ${holder ?? "(not found when looked up)"}`;
  const message = resource
    ? `${taken}, which resource ${resource} of this stack manages. Service names are unique in an account: give this resource another name`
    : known
      ? `${taken}, which this stack does not manage. Rename the service in the program, or adopt the existing one with \`adoptId\``
      : `${taken}, which this stack may not manage. If an interrupted deployment of this stack created it, run \`${RECOVER_COMMAND}\` in the project ` +
        "directory (it records it in the state), then `pulumi up`; otherwise rename the service in the program or adopt the existing one with `adoptId`";
  return new PagerDutyError("ERR_CONFLICT", message, { cause });
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id) => `service ${id}`,

  describe: (inputs) => `service "${inputs.name}"`,

  findExisting: (client, inputs) => idsOfServicesNamed(client, String(inputs.name ?? "")),

  diff(olds, news) {
    const result = diffManaged(olds, news, rules);
    // A service in an alert grouping setting reports a reference to it; writing parameters would take
    // it out of the setting, and the setting's own resource would put it back on every run.
    const grouping = olds.alertGroupingParameters as { type?: unknown; id?: unknown } | null;
    if (result.changed.includes("alertGroupingParameters") && grouping?.type === "alert_grouping_setting_reference") {
      throw new PagerDutyError(
        "ERR_CONFLICT",
        `service "${olds.name}": alertGroupingParameters: the service groups its alerts by alert grouping setting ${String(grouping.id)}, ` +
          "which owns its grouping now; remove alertGroupingParameters from the program (docs/alert-grouping-and-dependencies.md)",
      );
    }
    return result;
  },

  async verify(ctx, news) {
    if (news.alertCreation === "create_incidents")
      await ctx.warnOnce(`alertCreation/${String(news.name)}`, `service "${String(news.name)}": ${ALERT_CREATION_GONE}`);
    const policy = news.escalationPolicy;
    if (policy === UNKNOWN) return [];
    // A policy that does not exist fails at preview, not after other objects were made.
    return (await policyExists(ctx, policy)) === false ? [toFailure(["escalationPolicy"], `the account has no escalation policy ${policy}`)] : [];
  },

  async adopt(ctx, id, news) {
    const live = toOutputs((await ctx.client.request<{ service: ApiService }>("GET", servicePath(id), { scopes: READ })).service);
    const differs = unsatisfied(live, userInputs(news), rules);
    return { id, outs: Object.keys(differs).length ? await put(ctx.client, id, differs) : live };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    // An interrupted earlier create may have made this service already: adopt it rather than fail on its name.
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what: `service "${inputs.name}"`,
      post: async () => {
        try {
          const res = await client.request<{ service: ApiService }>("POST", SERVICES, {
            body: { service: toBody(inputs, { includeStatus: false }) },
            scopes: WRITE,
          });
          return { id: res.service.id, value: res.service };
        } catch (e) {
          throw isNameTaken(e) ? await nameTaken(ctx, inputs.name, e) : e;
        }
      },
      exists: async (id) => (await orGone(() => client.request("GET", servicePath(id), { scopes: READ }))) !== undefined,
      find: (since) => servicesNamedSince(client, inputs.name, since),
      findExisting: () => idsOfServicesNamed(client, inputs.name),
    });
    if ("adopted" in outcome) return this.adopt!(ctx, outcome.id, news);
    const id = outcome.id;
    const created = toOutputs(outcome.created);
    // The API creates services only enabled; "disabled" is a second step.
    if (inputs.status === undefined || inputs.status === declaredStatus(created.status)) return { id, outs: created };
    // A service made a moment ago may answer 404 for a while (kernel/consistency.ts).
    const since = ctx.consistency.createdAt("Service", id);
    return { id, outs: await finishCreate(id, created, () => ctx.consistency.untilVisible(since, () => put(client, id, { status: inputs.status }))) };
  },

  async read(ctx, id) {
    const service = await ctx.listings.service(
      id,
      (s) => s as unknown as ApiService,
      async () => (await ctx.client.request<{ service: ApiService }>("GET", servicePath(id), { scopes: READ })).service,
    );
    return { id: service.id, props: toOutputs(service) };
  },

  async update(ctx, id, _olds, news) {
    return { outs: await put(ctx.client, id, userInputs(news)) };
  },

  async delete(ctx, id) {
    await ctx.client.request("DELETE", servicePath(id), { scopes: WRITE });
  },
};

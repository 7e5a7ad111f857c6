// pagerduty:ServiceEventRule — an event rule of a service (`/services/{service}/rules`).
//
// Rules are ordered, and the engine writes sibling rules in parallel: every write goes through its
// service's lane in the account context (account/rule-lanes.ts), which keeps them in order and at
// the positions asked for (kernel/rule-order.ts).
import { z } from "zod";
import type { AccountContext } from "../account/context";
import type { Lane, RuleMover } from "../account/rule-lanes";
import { ApiError, PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import { fromApi, toApi } from "../kernel/case";
import { UNKNOWN, userInputs } from "../kernel/check";
import { defineResource, diffRules, type OutputsOf } from "../kernel/define";
import { diffManaged, satisfies } from "../kernel/diff";
import type { Resource } from "../operations/resource";
import { timeZone } from "../kernel/formats";
import { orGone, parentService } from "../kernel/gone";
import { listOffset } from "../kernel/pages";
import { PartialCreateError } from "../kernel/partial";
import { createOnce } from "../operations/recovery";
import { childrenLike } from "./audit-records";
import { effectivePosition } from "../kernel/rule-order";
import { READ, rulesPath, WRITE } from "../kernel/api-paths";

const millis = z.number().int().nonnegative();
const subcondition = z
  .object({
    operator: z
      .enum(["exists", "nexists", "equals", "nequals", "contains", "ncontains", "matches", "nmatches"])
      .describe("How the event field at `parameters.path` is tested."),
    parameters: z
      .object({
        path: z.string().min(1, "must not be empty").describe('Path of the event field, e.g. "payload.source".'),
        value: z.string().optional().describe("The value compared with; required except with exists/nexists."),
        options: z.record(z.unknown()).optional().describe("Options of the comparison (e.g. case sensitivity)."),
      })
      .strict()
      .describe("What is tested."),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.operator !== "exists" && s.operator !== "nexists" && s.parameters.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["parameters", "value"], message: `is required with operator "${s.operator}"` });
    }
  });

const valued = <T extends z.ZodTypeAny>(value: T, doc: string) =>
  z
    .object({ value: value.describe(doc) })
    .strict()
    .nullable()
    .optional();

const conditions = z
  .object({
    operator: z.enum(["and", "or"]).describe("Whether all or any of the subconditions must hold."),
    subconditions: z.array(subcondition).describe("The tests on the event's fields."),
  })
  .strict();

const timeFrame = z
  .object({
    activeBetween: z
      .object({
        startTime: millis.describe("Start, in epoch milliseconds."),
        endTime: millis.describe("End, in epoch milliseconds."),
      })
      .strict()
      .optional()
      .describe("The rule applies between two moments."),
    scheduledWeekly: z
      .object({
        startTime: millis.describe("Start, in milliseconds after midnight."),
        duration: z.number().int().positive().describe("Length, in milliseconds."),
        timezone: timeZone.describe('IANA time zone, e.g. "Europe/Berlin".'),
        weekdays: z.array(z.number().int().min(1).max(7)).min(1).describe("Days, 1 (Monday) to 7 (Sunday)."),
      })
      .strict()
      .optional()
      .describe("The rule applies at the same times every week."),
  })
  .strict()
  .superRefine((t, ctx) => {
    if ((t.activeBetween === undefined) === (t.scheduledWeekly === undefined)) {
      ctx.addIssue({ code: "custom", message: 'set exactly one of "activeBetween" and "scheduledWeekly"' });
    } else if (t.activeBetween && t.activeBetween.endTime <= t.activeBetween.startTime) {
      ctx.addIssue({ code: "custom", path: ["activeBetween", "endTime"], message: "must be after startTime" });
    }
  });

const variable = z
  .object({
    type: z.literal("regex").describe("The only kind of variable: a regex capture."),
    name: z.string().min(1, "must not be empty").describe("The variable's name, usable in actions' templates."),
    parameters: z
      .object({
        value: z.string().describe("The regex."),
        path: z.string().min(1, "must not be empty").describe("Path of the event field the regex is applied to."),
      })
      .strict()
      .describe("What the regex is applied to."),
  })
  .strict();

const actions = z
  .object({
    annotate: valued(z.string(), "The note.").describe("Adds a note to the incident."),
    eventAction: valued(z.enum(["trigger", "resolve"]), '"trigger" or "resolve".').describe("Turns the event into a trigger or a resolve."),
    priority: valued(z.string().min(1), "Id of a priority.").describe("Sets the incident's priority."),
    severity: valued(z.enum(["info", "warning", "error", "critical"]), "The severity.").describe("Sets the alert's severity."),
    suppress: z
      .object({
        value: z.boolean().describe("Whether matching alerts are suppressed."),
        thresholdValue: z.number().int().positive().optional().describe("Alerts within the window after which an incident is created anyway."),
        thresholdTimeUnit: z.enum(["seconds", "minutes", "hours"]).optional().describe("Unit of thresholdTimeAmount."),
        thresholdTimeAmount: z.number().int().positive().optional().describe("Length of the threshold window."),
      })
      .strict()
      .nullable()
      .optional()
      .describe("Suppresses matching alerts (no incident), optionally up to a threshold."),
    suspend: valued(z.number().int().nonnegative(), "Seconds.").describe("Holds alerts this long before creating incidents."),
    extractions: z
      .array(
        z
          .object({
            target: z.string().min(1).describe("The event field written."),
            source: z.string().optional().describe("The event field read, with `regex`."),
            regex: z.string().optional().describe("The regex whose first group is extracted from `source`."),
            template: z.string().optional().describe("A template of variables, instead of `source` and `regex`."),
          })
          .strict()
          .superRefine((e, ctx) => {
            if (e.template === undefined && (e.source === undefined || e.regex === undefined)) {
              ctx.addIssue({ code: "custom", path: [e.source === undefined ? "source" : "regex"], message: 'is required unless "template" is set' });
            }
          }),
      )
      .optional()
      .describe("Writes event fields, each with `template`, or with `source` and `regex`."),
  })
  .strict();

export const ruleInputs = z
  .object({
    service: z.string().min(1, "must be a service id").describe("Id of the service. Changing it replaces the rule."),
    position: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "0-based position among the service's rules (first match wins). Rules of one service written\n" +
          "in the same `pulumi up` end at the positions requested; a position past the end means last.\n" +
          "Unset: not managed.",
      ),
    disabled: z.boolean().optional().describe("Whether the rule is off."),
    conditions: conditions.optional().describe("When the rule matches an event."),
    timeFrame: timeFrame.nullable().optional().describe("When the rule is active: exactly one of `activeBetween` and `scheduledWeekly`; `null` removes it."),
    variables: z.array(variable).optional().describe("Values captured from the event for the actions' templates."),
    actions: actions.optional().describe("What a matching event does. Managed as a whole: an action removed from the program is removed from the rule."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing rule with this id (of `service`) instead of creating one; its managed fields are set to the declared values."),
  })
  .strict();

export const definition = defineResource({
  kind: "ServiceEventRule",
  description:
    "An event rule of a PagerDuty service. Once the service's rules are converted\n" +
    "(`ServiceEventRulesConversion`), creating or updating a rule fails with an error naming the\n" +
    "conversion; deleting one only removes it from the state, with a warning.",
  notes:
    "Writes are serialized per service inside the provider process, then the rules are reordered once, so several rules " +
    "created in one `up` end at the positions asked for. `actions` is managed as a whole.",
  inputs: ruleInputs,
  outputs: z.object({
    service: z.string(),
    position: z.number().int(),
    disabled: z.boolean(),
    conditions: conditions.nullable(),
    timeFrame: timeFrame.nullable(),
    variables: z.array(variable),
    actions: actions.describe("What a matching event does, as the rule has it (actions it does not take left out)."),
    summary: z.string().describe("A short text the API gives the rule."),
  }),
  replaceOn: ["service"],
  diffIgnore: ["adoptId"],
  creates: true,
  importId: "<service id>/<id>",
});

type RuleOutputs = OutputsOf<typeof definition>;

export type RuleInputs = z.infer<typeof ruleInputs>;

export interface ApiRule {
  id: string;
  position?: number;
  disabled?: boolean;
  conditions?: unknown;
  time_frame?: unknown;
  variables?: unknown[];
  actions?: Record<string, unknown> | null;
  summary?: string;
}

/** The API's action kinds, camelCase. Every one is sent on write so a removed action goes away. */
export const ACTION_KEYS = ["annotate", "eventAction", "priority", "severity", "suppress", "suspend", "extractions"] as const;

/** Live actions without the "none" markers (null actions, empty extractions) the API may add. */
export function liveActions(actions: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fromApi(actions ?? {}))) {
    if (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  }
  return out;
}

/** Live rule -> Pulumi outputs. */
export function toOutputs(r: ApiRule, service: string): RuleOutputs {
  return {
    service,
    // The API always sends a position; a reply without one reads as null, as before.
    position: (r.position ?? null) as number,
    disabled: r.disabled ?? false,
    conditions: fromApi(r.conditions ?? null),
    timeFrame: fromApi(r.time_frame ?? null),
    variables: fromApi(r.variables ?? []),
    actions: liveActions(r.actions),
    summary: r.summary ?? `Event rule ${r.id}`,
  };
}

/** Managed inputs -> request body. `actions`, when managed, is sent whole: absent kinds as "none". */
export function toBody(inputs: Partial<RuleInputs>): Record<string, unknown> {
  const { service: _s, adoptId: _a, actions, ...rest } = inputs;
  const body: Record<string, unknown> = toApi(rest);
  if (actions !== undefined) {
    const full: Record<string, unknown> = {};
    for (const k of ACTION_KEYS) full[k] = actions[k] ?? (k === "extractions" ? [] : null);
    body.actions = toApi(full);
  }
  return body;
}

/**
 * The declared actions, exactly: an action the program no longer lists is drift (unlike other
 * fields, where only declared keys count), because removing it from the program means "stop doing it".
 */
export function actionsMatch(desired: Record<string, unknown>, live: unknown): boolean {
  const want = liveActions(toApi(desired));
  const have = (live ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...keys].every((k) => want[k] !== undefined && satisfies(want[k], have[k]));
}

// ---- API ---------------------------------------------------------------------------------------

const listRules = (client: ApiClient, service: string) => listOffset<ApiRule>(client, rulesPath(service), "rules", READ);

/** 405/409 on a rule write: the service's rules were converted and are read-only. */
function isConverted(e: unknown): e is ApiError {
  return e instanceof ApiError && (e.status === 405 || e.status === 409);
}

function convertedError(service: string, e: ApiError): PagerDutyError {
  return new PagerDutyError(
    "ERR_CONFLICT",
    `the event rules of service ${service} are read-only: they were converted to event orchestration rules ` +
      `(ServiceEventRulesConversion, POST /services/${service}/rules/convert), which cannot be undone; ` +
      `manage them through event orchestration and remove this rule from the program (API: ${e.status} ${e.apiMessage ?? ""})`.trimEnd(),
    { cause: e },
  );
}

/** Rule writes with the conversion turned into a clear error. */
async function rulesWrite<T>(client: ApiClient, service: string, method: "POST" | "PUT" | "DELETE", id: string | undefined, body?: unknown): Promise<T> {
  try {
    return await client.request<T>(method, rulesPath(service, id), { ...(body ? { body } : {}), scopes: WRITE });
  } catch (e) {
    throw isConverted(e) ? convertedError(service, e) : e;
  }
}

function putRule(client: ApiClient, service: string, id: string, inputs: Partial<RuleInputs>): Promise<{ rule: ApiRule }> {
  // The API description requires the body to name the rule again (`rule_id`).
  return rulesWrite(client, service, "PUT", id, { rule_id: id, rule: toBody(inputs) });
}

async function getRule(client: ApiClient, service: string, id: string): Promise<ApiRule> {
  return (await client.request<{ rule: ApiRule }>("GET", rulesPath(service, id), { scopes: READ })).rule;
}

/** The service's lane in the account, which reconciles with these requests. */
function laneOf(ctx: AccountContext, service: string): Lane {
  // Rules made moments ago may be left out of the listing and answer 404 for a while
  // (kernel/consistency.ts): the order is planned only once the listing shows every rule made here.
  const young = (id: string) => ctx.consistency.createdAt("ServiceEventRule", id);
  const mover: RuleMover = {
    list: async (s, expect) => {
      const ages = expect.map(young).filter((t): t is number => t !== undefined);
      let ids: string[] = [];
      await ctx.consistency.search(ages.length ? Math.max(...ages) : 0, async () => {
        ids = (await listRules(ctx.client, s)).map((r) => r.id);
        return ages.length && expect.some((id) => young(id) !== undefined && !ids.includes(id)) ? [] : [ids];
      });
      return ids;
    },
    move: (s, id, position) => ctx.consistency.untilVisible(young(id), () => putRule(ctx.client, s, id, { position })),
  };
  return ctx.lanes.of(service, mover);
}

/** Live outputs of a rule (refresh); `requested` is the position the program asked for. Rules of one service read in one burst share one listing. */
async function outputsOf(ctx: AccountContext, service: string, id: string, requested: unknown): Promise<RuleOutputs> {
  const rule = await ctx.listings.rule(service, id, () => getRule(ctx.client, service, id));
  const out = toOutputs(rule, service);
  if (typeof requested === "number" && typeof rule.position === "number" && requested > rule.position) {
    out.position = effectivePosition(requested, rule.position, (await listRules(ctx.client, service)).length);
  }
  return out;
}

/** Outputs of a rule written here, from the write's own reply: no read after the write. */
function writtenOutputs(service: string, lane: Lane, rule: ApiRule): RuleOutputs {
  // Null only for a reply without a position, as in toOutputs.
  return { ...toOutputs(rule, service), position: lane.reported(rule.id, rule.position) as number };
}

/** Writes the managed fields of an existing rule (one PUT); `from` is where the state last saw it. */
async function update(ctx: AccountContext, service: string, id: string, inputs: Partial<RuleInputs>, from?: unknown): Promise<RuleOutputs> {
  const lane = laneOf(ctx, service);
  const rule = await lane.write(async () => {
    lane.ask(id, inputs.position);
    const res = await putRule(ctx.client, service, id, inputs);
    if (typeof res.rule.position === "number") lane.place(id, res.rule.position, typeof from === "number" ? from : undefined, false);
    return res.rule;
  });
  return writtenOutputs(service, lane, rule);
}

/** Ids of the declared service's rules whose content matches the declared one (everything but the position, which siblings shift). */
export async function rulesLike(client: ApiClient, inputs: RuleInputs): Promise<string[]> {
  const rules = (await orGone(() => listRules(client, inputs.service))) ?? [];
  return rules.filter(sameRule(inputs)).map((r) => r.id);
}

export const sameRule = (inputs: RuleInputs) => (r: ApiRule) => {
  const { actions, position: _p, service: _s, adoptId: _a, ...rest } = inputs;
  const live = toOutputs(r, inputs.service);
  return satisfies(rest, live) && (actions === undefined || actionsMatch(actions, live.actions));
};

const serviceOf = (props: Record<string, unknown> | undefined, id: string) => parentService(props, `event rule ${id}`);

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `event rule ${id} of service ${serviceOf(props, id)} (or the service)`,

  describe: (inputs) => `event rule of service ${inputs.service}`,

  // Taken as check left them when the create began; a secret there (an encrypted object) matches nothing.
  findExisting: (client, inputs) => rulesLike(client, inputs as RuleInputs),

  diff(olds, news) {
    const { actions, ...rest } = userInputs(news);
    const base = diffManaged(olds, rest, diffRules(definition));
    // An action not known yet in preview is a change.
    if (actions === undefined || (actions !== UNKNOWN && actionsMatch(actions, olds.actions))) return base;
    return { ...base, changes: true, changed: [...base.changed, "actions"] };
  },

  async adopt(ctx, id, news) {
    const inputs = userInputs(news);
    const found = await getRule(ctx.client, inputs.service, id);
    // A rule that already holds what the program declares is taken over without a write.
    const live = toOutputs(found, inputs.service);
    if (!this.diff!(live, news).changes) return { id: found.id, outs: live };
    return { id: found.id, outs: await update(ctx, inputs.service, found.id, inputs, found.position) };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    const { service } = inputs;
    const lane = laneOf(ctx, service);
    let created: ApiRule | undefined;
    const release = lane.hold();
    try {
      // An interrupted earlier create may have made this rule already: adopt it rather than add a second one.
      const outcome = await createOnce(ctx, {
        definition,
        origin: news.__origin,
        what: `event rule of service ${service}`,
        parent: service,
        post: async () => {
          await lane.write(async () => {
            created = (await rulesWrite<{ rule: ApiRule }>(client, service, "POST", undefined, { rule: toBody(inputs) })).rule;
            lane.created(created.id, inputs.position, typeof created.position === "number" ? created.position : undefined);
          });
          return { id: created!.id, value: created! };
        },
        exists: async (id) => (await orGone(() => getRule(client, service, id))) !== undefined,
        find: (since) => childrenLike(client, service, /rule_reference$/, since, (id) => getRule(client, service, id), sameRule(inputs)),
        findExisting: () => rulesLike(client, inputs),
      });
      if ("adopted" in outcome) {
        await release();
        return await this.adopt!(ctx, outcome.id, news);
      }
      // Reported while held: the position asked for, which the reconcile on release brings about.
      const outs = writtenOutputs(service, lane, created!);
      await release();
      return { id: created!.id, outs };
    } catch (e) {
      await release().catch(() => undefined);
      // The rule exists once the POST answered: a failed reorder after it must not lose it.
      if (created) throw new PartialCreateError(created.id, toOutputs(created, service), e);
      throw e;
    }
  },

  async read(ctx, id, props) {
    return { id, props: await outputsOf(ctx, serviceOf(props, id), id, props?.position) };
  },

  async update(ctx, id, olds, news) {
    return { outs: await update(ctx, serviceOf(olds, id), id, userInputs(news), olds.position) };
  },

  async delete(ctx, id, props) {
    const service = serviceOf(props, id);
    const lane = laneOf(ctx, service);
    try {
      await lane.write(async () => {
        lane.ask(id, undefined); // whatever the DELETE answers, no position is asked of it any more
        await rulesWrite(ctx.client, service, "DELETE", id);
        lane.deleted(id, typeof props?.position === "number" ? props.position : undefined);
      });
    } catch (e) {
      if (!(e instanceof PagerDutyError && e.code === "ERR_CONFLICT")) throw e;
      // A converted rule cannot be deleted, and failing would block every destroy of the stack.
      await ctx.warn(
        `event rule ${id} of service ${service} was NOT deleted: the service's event rules were converted to event ` +
          `orchestration rules and are read-only. It is removed from the Pulumi state only; it goes away with its service.`,
      );
    }
  },
};

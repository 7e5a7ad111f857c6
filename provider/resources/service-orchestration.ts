// pagerduty:ServiceOrchestration — a service's event orchestration
// (`/event_orchestrations/services/{id}`, and `/active`). Every service has exactly one, so create
// takes it over (no `adoptId`) and delete puts it back to empty: a "start" set with no rules and an
// empty catch_all, as PagerDuty's Terraform provider does. `sets` and `catchAll` are managed as a
// whole: each write is one PUT of both. Rule ids the program leaves out are the API's: a write sends
// back the id the rule at the same place had (so ids stay put), and diffs never compare them.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { ApiError, PagerDutyError } from "../errors";
import { fromApi, toApi } from "../kernel/case";
import { holdsUnknown, reads, UNKNOWN } from "../kernel/check";
import { defineResource, named, type OutputsOf } from "../kernel/define";
import { finishCreate } from "../kernel/partial";
import type { Resource } from "../operations/resource";
import { orchestrationActivePath, orchestrationPath, READ, servicePath, WRITE } from "../kernel/api-paths";

const text = (what: string) => z.string().min(1, "must not be empty").describe(what);
const pairs = (what: string) =>
  z
    .array(z.object({ key: text("The key."), value: z.string().optional().describe("The value.") }).strict())
    .optional()
    .describe(what);
const triggerTypes = z
  .array(z.enum(["alert_triggered", "alert_suppressed", "alert_suspended"]))
  .max(1, "takes one trigger type")
  .optional()
  .describe("The alert state that runs it: alert_triggered, alert_suppressed or alert_suspended (one).");

/** The actions a rule and the catch_all share (the API's names in camelCase). */
const actionFields = {
  suppress: z.boolean().optional().describe("Suppress the alert: it opens no incident."),
  suspend: z.number().int().min(0).optional().describe("Seconds to hold the alert before it triggers."),
  priority: text("Id of the priority to give the incident.").optional(),
  escalationPolicy: text("Id of the escalation policy to assign the incident to, instead of the service's.").optional(),
  annotate: z.string().optional().describe("A note to add to the incident."),
  severity: z.enum(["info", "warning", "error", "critical"]).optional().describe("The alert's severity."),
  eventAction: z.enum(["trigger", "resolve"]).optional().describe("Whether the event triggers or resolves an alert."),
  variables: z
    .array(
      z
        .object({
          name: text("The variable's name."),
          path: text("The event field it reads, e.g. `event.summary`."),
          type: z.literal("regex").describe('"regex": the only kind the API has.'),
          value: z.string().describe("The RE2 regular expression; its capture groups make the value."),
        })
        .strict(),
    )
    .optional()
    .describe("Variables taken from the event, for the other actions' templates."),
  extractions: z
    .array(
      z
        .object({
          target: text("The event field to set, e.g. `event.summary`."),
          template: z.string().optional().describe("The value, with `{{variables.x}}` templates. Set either this or `source` and `regex`."),
          source: text("The event field the regex reads.").optional(),
          regex: text("The RE2 regular expression that takes the value from `source`.").optional(),
        })
        .strict(),
    )
    .optional()
    .describe("Event fields to set, from a template or a regex."),
  incidentCustomFieldUpdates: z
    .array(z.object({ id: text("Id of the incident custom field."), value: z.string().describe("The value, templates allowed.") }).strict())
    .optional()
    .describe("Incident custom fields to set."),
  pagerdutyAutomationActions: z
    .array(z.object({ actionId: text("Id of the automation action."), triggerTypes }).strict())
    .optional()
    .describe("PagerDuty automation actions to run."),
  automationActions: z
    .array(
      z
        .object({
          name: text("The webhook's name."),
          url: text("Where the webhook is sent."),
          autoSend: z.boolean().optional().describe("Send it at once (otherwise responders send it by hand)."),
          headers: pairs("Request headers."),
          parameters: pairs("Fields of the JSON payload."),
          triggerTypes,
        })
        .strict(),
    )
    .optional()
    .describe("Webhooks to send for the incident."),
};

const catchAllActions = named("OrchestrationCatchAllActions", z.object(actionFields).strict().describe("What happens to an event no rule of a set matched."));
const ruleActions = named(
  "OrchestrationRuleActions",
  z
    .object({ ...actionFields, routeTo: text("Id of a set of this orchestration whose rules the event goes through next.").optional() })
    .strict()
    .describe("What happens to a matching event."),
);
const rule = named(
  "OrchestrationRule",
  z
    .object({
      id: text("The rule's id. Leave it out to let the API assign one (it is kept on later writes and not compared).").optional(),
      label: z.string().optional().describe("What the rule is for."),
      conditions: z
        .array(z.object({ expression: text("A PCL condition, e.g. `event.summary matches part 'db'`.") }).strict())
        .optional()
        .describe("The rule matches when any condition does; none: every event matches."),
      actions: ruleActions.optional(),
      disabled: z.boolean().optional().describe("A disabled rule is not evaluated."),
    })
    .strict()
    .describe("A rule: conditions and the actions taken on a matching event."),
);
const ruleSet = named(
  "OrchestrationSet",
  z
    .object({
      id: text('The set\'s id: "start" is where every event begins; other sets are reached by `routeTo`.'),
      rules: z.array(rule).optional().describe("The rules, in order: the first that matches applies."),
    })
    .strict()
    .describe("A set of rules."),
);
const catchAll = named("OrchestrationCatchAll", z.object({ actions: catchAllActions.optional() }).strict().describe("Actions for events no rule matched."));

type RuleSet = z.infer<typeof ruleSet>;
type CatchAll = z.infer<typeof catchAll>;

export const orchestrationInputs = z
  .object({
    service: text("Id of the service; changing it replaces the resource."),
    sets: z
      .array(ruleSet)
      .min(1, 'must hold at least the "start" set')
      .describe('The sets of rules, managed as a whole: one must be "start"; rules not listed are removed.'),
    catchAll: catchAll.optional().describe("Actions for events no rule matched, managed as a whole (unset: none)."),
    active: z
      .boolean()
      .optional()
      .describe(
        "Whether the service's events go through this orchestration (its active switch). Event rules reached their end of life, so a new " +
          "service's orchestration is active; false makes events bypass it, and preview warns. Unset: left as it is.",
      ),
  })
  .strict()
  .superRefine((v, ctx) => {
    const ids = v.sets.map((s) => s.id);
    if (!ids.includes("start")) ctx.addIssue({ code: "custom", path: ["sets"], message: 'must hold a set with id "start", where every event begins' });
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: ["sets", i, "id"], message: `"${id}" is the id of an earlier set` });
    });
    const ruleIds = new Set<string>();
    v.sets.forEach((s, i) =>
      s.rules?.forEach((r, j) => {
        const at = ["sets", i, "rules", j];
        const to = r.actions?.routeTo;
        if (to !== undefined && !ids.includes(to))
          ctx.addIssue({
            code: "custom",
            path: [...at, "actions", "routeTo"],
            message: `names set "${to}", which \`sets\` does not have (sets: ${[...new Set(ids)].join(", ")})`,
            params: reads(...ids.map((_, k) => ["sets", k, "id"])),
          });
        if (r.id !== undefined && ruleIds.has(r.id)) ctx.addIssue({ code: "custom", path: [...at, "id"], message: `"${r.id}" is the id of an earlier rule` });
        if (r.id !== undefined) ruleIds.add(r.id);
        r.actions?.extractions?.forEach((e, k) => {
          if ((e.template === undefined) === (e.source === undefined || e.regex === undefined))
            ctx.addIssue({ code: "custom", path: [...at, "actions", "extractions", k], message: "set either `template`, or `source` and `regex`" });
        });
      }),
    );
  });

export const definition = defineResource({
  kind: "ServiceOrchestration",
  description: [
    "The event orchestration of a service: sets of rules that events go through, starting with the",
    '"start" set, and the catch_all actions for events no rule matched. `sets` and `catchAll` are',
    "managed as a whole. Every service has one orchestration, so there is no `adoptId`: creating the",
    "resource takes the service's orchestration over, and deleting it puts it back to empty (a",
    '"start" set with no rules, no catch_all actions; `active` is left as it is). Rule ids are',
    "optional: one the program leaves out is the API's, kept on later writes and never a diff.",
    "After a `ServiceEventRulesConversion`, declaring the converted rules shows no change: see",
    "docs/orchestrations.md. A service's orchestration is active from the start (event rules are",
    "gone); with `active` false its events bypass the rules, and preview warns, naming the service.",
  ].join("\n"),
  notes:
    "Every service has one: create takes it over (no `adoptId`), delete puts it back to empty " +
    "(a `start` set with no rules, no catch_all actions; `active` stays). " +
    "Rule ids left out are the API's and never a diff. See [Event orchestrations](docs/orchestrations.md).",
  inputs: orchestrationInputs,
  outputs: z.object({
    service: z.string(),
    sets: z.array(ruleSet).describe("The live sets, every rule with its id."),
    catchAll: catchAll.describe("The live catch_all."),
    active: z.boolean().describe("Whether the service's events go through the orchestration."),
  }),
  replaceOn: ["service"],
  creates: false,
  importId: "<service id>",
});

type Outputs = OutputsOf<typeof definition>;
type Inputs = z.infer<typeof orchestrationInputs>;

/** The API's `orchestration_path`, as far as this resource reads it. */
interface ApiOrchestration {
  sets?: unknown[];
  catch_all?: unknown;
}

/** What an orchestration puts back on delete: PagerDuty's Terraform provider's empty service orchestration. */
export const EMPTY: Pick<Inputs, "sets" | "catchAll"> = { sets: [{ id: "start", rules: [] }], catchAll: { actions: {} } };

/**
 * A value without its unset parts (null, "", false, empty arrays and objects), deep: the API may
 * write unset actions in any of these forms (go-pagerduty sends every key), so they compare equal.
 */
export function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const c = compact(x);
    const empty =
      c === undefined || c === null || c === "" || c === false || (Array.isArray(c) && !c.length) || (typeof c === "object" && c && !Object.keys(c).length);
    if (!empty) out[k] = c;
  }
  return out;
}

/** `live` sets with the ids of rules the program declares without one left out, compacted. */
export function comparable(live: readonly RuleSet[], declared: readonly RuleSet[]): unknown {
  return compact(
    live.map((s, i) => ({
      ...s,
      rules: s.rules?.map((r, j) => {
        const d = declared[i]?.id === s.id ? declared[i].rules?.[j] : undefined;
        return d && d.id === undefined ? { ...r, id: undefined } : r;
      }),
    })),
  );
}

/** Whether the live orchestration is what the program declares (ids left out are not compared). */
export function sameSets(live: readonly RuleSet[] | undefined, declared: readonly RuleSet[]): boolean {
  return isDeepStrictEqual(comparable(live ?? [], declared), compact(declared));
}

/**
 * The sets to write: a rule without an id takes the id of the live rule at the same place (same
 * set, same index), unless the program gives that id to another rule, so the API's ids stay put.
 */
export function withLiveIds(sets: readonly RuleSet[], live: readonly RuleSet[]): RuleSet[] {
  const declared = new Set(sets.flatMap((s) => (s.rules ?? []).map((r) => r.id).filter(Boolean)));
  return sets.map((s) => {
    const before = live.find((l) => l.id === s.id)?.rules ?? [];
    return {
      ...s,
      rules: (s.rules ?? []).map((r, j) => {
        const id = before[j]?.id;
        return r.id !== undefined || !id || declared.has(id) ? r : { ...r, id };
      }),
    };
  });
}

async function getOrchestration(ctx: AccountContext, service: string): Promise<Pick<Outputs, "sets" | "catchAll">> {
  const r = await ctx.client.request<{ orchestration_path?: ApiOrchestration }>("GET", orchestrationPath(service), { scopes: READ });
  return fromReply(service, r?.orchestration_path);
}

function fromReply(service: string, o: ApiOrchestration | undefined): Pick<Outputs, "sets" | "catchAll"> {
  if (!o || !Array.isArray(o.sets)) throw new PagerDutyError("ERR_API", `the event orchestration of service ${service} came without its sets`);
  return { sets: fromApi<RuleSet[]>(o.sets), catchAll: fromApi<CatchAll>(o.catch_all ?? {}) };
}

/** One PUT of the whole orchestration; the API's warnings become Pulumi warnings. */
async function putOrchestration(ctx: AccountContext, service: string, o: Pick<Inputs, "sets" | "catchAll">) {
  const body = { orchestration_path: toApi({ sets: o.sets, catchAll: o.catchAll ?? { actions: {} } }) };
  const r = await ctx.client.request<{ orchestration_path?: ApiOrchestration; warnings?: { message?: string }[] }>("PUT", orchestrationPath(service), {
    body,
    scopes: WRITE,
  });
  for (const w of r?.warnings ?? []) await ctx.warn(`pagerduty:ServiceOrchestration ${service}: ${w?.message ?? JSON.stringify(w)}`);
  return fromReply(service, r?.orchestration_path);
}

/** 410: PagerDuty retired the switch, so events can only go through the orchestration (its Terraform provider reads it so). */
const switchGone = (e: unknown) => e instanceof ApiError && e.status === 410;

async function getActive(ctx: AccountContext, service: string): Promise<boolean> {
  try {
    const r = await ctx.client.request<{ active?: boolean }>("GET", orchestrationActivePath(service), { scopes: READ });
    return r?.active === true;
  } catch (e) {
    if (switchGone(e)) return true;
    throw e;
  }
}

async function putActive(ctx: AccountContext, service: string, active: boolean): Promise<boolean> {
  const r = await ctx.client.request<{ active?: boolean }>("PUT", orchestrationActivePath(service), { body: { active }, scopes: WRITE });
  if (r?.active !== active)
    throw new PagerDutyError("ERR_API", `setting active=${active} on the event orchestration of service ${service} did not take effect`);
  return active;
}

/** Writes the declared sets and catch_all over `live` (one PUT). */
async function writeSets(ctx: AccountContext, news: Inputs, live: readonly RuleSet[]) {
  return putOrchestration(ctx, news.service, { sets: withLiveIds(news.sets, live), catchAll: news.catchAll });
}

/** Writes `active` when the program declares it, else reads it. */
function writeActive(ctx: AccountContext, news: Inputs): Promise<boolean> {
  return news.active === undefined ? getActive(ctx, news.service) : putActive(ctx, news.service, news.active);
}

/**
 * Why the service's events would bypass the orchestration, or undefined when they go through it (or
 * preview cannot tell). Declared, `active` decides; unset, today's `/active` does. A service not
 * made yet has an active orchestration (event rules are gone; emulator/README.md, "Which events an
 * orchestration sees"), so only a declared false can make it bypassed.
 */
async function bypassCause(ctx: AccountContext, service: unknown, active: unknown): Promise<string | undefined> {
  if (active === false) return "active: false";
  if (active !== undefined || typeof service !== "string" || service === UNKNOWN) return undefined;
  try {
    return (await getActive(ctx, service)) ? undefined : "active is unset, and the orchestration is not active today";
  } catch {
    // A preview warning only: a service the API does not show yet, or a read refused, says nothing.
    return undefined;
  }
}

/** The service as a warning names it: `service "Platform" (P123ABC)`, its id alone when its name cannot be read. */
async function serviceNamed(ctx: AccountContext, service: unknown): Promise<string> {
  if (typeof service !== "string" || service === UNKNOWN) return "a service not created yet";
  try {
    const r = await ctx.client.request<{ service?: { name?: string } }>("GET", servicePath(service), { scopes: READ });
    return r?.service?.name ? `service ${JSON.stringify(r.service.name)} (${service})` : `service ${service}`;
  } catch {
    return `service ${service}`;
  }
}

/** The fields of an event as a condition reads them (`event.<field>`): PagerDuty's Common Event Format, and the dedup key. */
const EVENT_FIELDS = ["summary", "source", "severity", "timestamp", "component", "group", "class", "custom_details", "dedup_key"];
const ROOTS = ["event", "raw_event", "cache_var"];

/**
 * What a PCL condition reads that no event has: a path under another root than `event`,
 * `raw_event` and `cache_var`, or `event.<name>` of a field the event does not have. PagerDuty
 * accepts both at write time and reads them as nil when an event comes, so the condition never
 * matches on them: worth a warning at preview, not a failure. Quoted strings are skipped.
 */
export function unknownPaths(expression: string): string[] {
  const code = expression.replace(/'(?:\\.|[^'\\])*'/g, "''");
  const out: string[] = [];
  for (const m of code.matchAll(/(?<![\w./-])([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*|\[[^\]]*\])+)/g)) {
    const [path, root, rest] = m;
    const field = /^\.(\w+)/.exec(rest)?.[1];
    if (!ROOTS.includes(root)) out.push(`${path} (paths start with ${ROOTS.join(", ")})`);
    else if (root === "event" && field !== undefined && !EVENT_FIELDS.includes(field)) out.push(`${path} (an event has ${EVENT_FIELDS.join(", ")})`);
  }
  return out;
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id, props) => `the event orchestration of service ${props.service ?? id}`,

  /**
   * Warns at preview, naming the service, when its events would bypass the orchestration
   * (bypassCause), and, naming the rule, of conditions that read what no event has (unknownPaths).
   * What is not known yet (a set, a rule, a condition or an expression computed from another
   * resource) is skipped; the known expressions beside it are still read.
   */
  async verify(ctx, news) {
    const cause = await bypassCause(ctx, news.service, news.active);
    if (cause)
      await ctx.warnOnce(
        `bypass/${String(news.service)}/${cause}`,
        `ServiceOrchestration: the orchestration of ${await serviceNamed(ctx, news.service)} is not active: events bypass it (${cause}); set active: true`,
      );
    const known = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
    const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
    for (const [i, set] of items(news.sets).entries()) {
      if (!known(set)) continue;
      const setName = typeof set.id === "string" && set.id !== UNKNOWN ? `"${set.id}"` : `sets[${i}]`;
      for (const [j, rule] of items(set.rules).entries()) {
        if (!known(rule)) continue;
        const name = typeof rule.label === "string" && rule.label && rule.label !== UNKNOWN ? `rule "${rule.label}"` : `rule sets[${i}].rules[${j}]`;
        for (const [k, c] of items(rule.conditions).entries()) {
          const expression = known(c) ? c.expression : undefined;
          const paths = typeof expression === "string" && expression !== UNKNOWN ? unknownPaths(expression) : [];
          for (const p of paths)
            await ctx.warnOnce(
              `pcl/${String(news.service)}/${i}/${j}/${k}/${p}`,
              `ServiceOrchestration ${name} (set ${setName}), conditions[${k}]: ${p} names nothing an event has; ` +
                "PagerDuty accepts it, and reads it as nil, so this condition never matches on it",
            );
        }
      }
    }
    return [];
  },

  diff(olds, news) {
    const changed: string[] = [];
    if (news.service !== olds.service) changed.push("service");
    if (holdsUnknown(news.sets) || !sameSets(olds.sets, news.sets as RuleSet[])) changed.push("sets");
    const catchAll = news.catchAll ?? { actions: {} };
    if (holdsUnknown(catchAll) || !isDeepStrictEqual(compact(olds.catchAll ?? {}), compact(catchAll))) changed.push("catchAll");
    if (news.active !== undefined && news.active !== olds.active) changed.push("active");
    return { changes: changed.length > 0, replaces: changed.filter((k) => definition.replaceOn.includes(k as "service")), deleteBeforeReplace: false };
  },

  async create(ctx, news) {
    const { service } = news;
    // A service made moments ago may answer 404 for a while: reads and PUTs, safe to ask again.
    const since = ctx.consistency.createdAt("Service", service);
    const written = await ctx.consistency.untilVisible(since, async () => writeSets(ctx, news, (await getOrchestration(ctx, service)).sets));
    // The orchestration is written: a failure from here on must not lose it (kernel/partial.ts); the
    // next update writes `active`.
    const outs: Outputs = { service, ...written, active: false };
    return {
      id: service,
      outs: await finishCreate(service, outs, async () => ({ ...outs, active: await ctx.consistency.untilVisible(since, () => writeActive(ctx, news)) })),
    };
  },

  async read(ctx, id, props) {
    const service = props.service ?? id;
    const o = await getOrchestration(ctx, service);
    return { id, props: { service, ...o, active: await getActive(ctx, service) } };
  },

  async update(ctx, _id, olds, news) {
    const written = await writeSets(ctx, news, olds.sets ?? []);
    return { outs: { service: news.service, ...written, active: await writeActive(ctx, news) } };
  },

  // A 404 means the service is gone, and its orchestration with it.
  async delete(ctx, id, props) {
    await putOrchestration(ctx, props.service ?? id, EMPTY);
  },
};

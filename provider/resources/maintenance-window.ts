// pagerduty:MaintenanceWindow — a time during which services open no incidents from events
// (`/maintenance_windows`, scopes services.read/write as PagerDuty's API description says).
//
// Times are instants: "2030-01-01T01:00:00+01:00" and "2030-01-01T00:00:00Z" are the same start, and
// PagerDuty answers in the account's time zone, so times are compared by instant, never as text.
// `services` is a set: a reordering is no change.
//
// A window's past is history. PagerDuty starts a window whose start has passed at once (it moves the
// start to the moment it made it), cannot move the start of a window that has begun, and refuses any
// change to a window that has ended; deleting a window that has begun ends it, and one that has ended
// cannot be deleted (405). So only what is still to come is compared: a begun window satisfies any
// declared start that has passed too, an ended one any declared end that has passed, and time passing
// is never drift. A start moved into the future of a begun window, or an end moved into the future of
// an ended one, is a new window: the change replaces it (the old one is ended, or kept as history).
// Other changes to an ended window fail at preview; an end moved into the past of a begun window ends
// it now.
import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { AccountContext } from "../account/context";
import { ApiError, PagerDutyError } from "../errors";
import type { ApiClient } from "../http/client";
import { MAINTENANCE_WINDOWS, maintenanceWindowPath, READ, WRITE } from "../kernel/api-paths";
import { holdsUnknown, reads, UNKNOWN, userInputs } from "../kernel/check";
import { defineResource, type OutputsOf } from "../kernel/define";
import { instantOf } from "../kernel/formats";
import { orGone } from "../kernel/gone";
import { listOffset } from "../kernel/pages";
import { AmbiguousCreateError, createOnce } from "../operations/recovery";
import type { Recorded, Resource, StateOf } from "../operations/resource";

const EXAMPLES = '"2030-03-14T02:00:00Z" or "2030-03-14T03:00:00+01:00"';

const instant = (role: string) =>
  z
    .string()
    .refine(
      (v) => instantOf(v) !== undefined,
      (v) => ({ message: `must be an ISO 8601 date and time with an offset or Z, such as ${EXAMPLES}; got ${JSON.stringify(v)}` }),
    )
    .describe(role);

export const windowInputs = z
  .object({
    services: z
      .array(z.string().min(1, "must be a service id"))
      .min(1, "must list at least one service")
      .describe("Ids of the services the window holds (at least one). A set: the order is not compared."),
    startTime: instant(
      "When the services stop opening incidents: an ISO 8601 time with an offset or Z, compared as an instant. A start that has passed starts the " +
        "window at once (PagerDuty moves it to the moment it makes the window). Changing it updates a window still to come; moving the start of " +
        "a window that has begun into the future replaces it.",
    ),
    endTime: instant(
      "When the services open incidents again: an ISO 8601 time with an offset or Z after `startTime`, compared as an instant. Changing it " +
        "updates a window that has not ended (an end that has passed ends it now); moving the end of a window that has ended into the future replaces it.",
    ),
    description: z.string().optional().describe("What the window is for. Unset: not managed (a window made without one has none)."),
    adoptId: z
      .string()
      .min(1)
      .optional()
      .describe("Adopt the existing window with this id instead of creating one; its services, times and description are set to the declared values."),
  })
  .strict()
  .superRefine((v, ctx) => {
    const [start, end] = [instantOf(v.startTime), instantOf(v.endTime)];
    if (start !== undefined && end !== undefined && end <= start)
      ctx.addIssue({ code: "custom", path: ["endTime"], message: `must be after startTime (${v.startTime}); got ${v.endTime}`, params: reads(["startTime"]) });
    v.services.forEach((s, i) => {
      if (v.services.indexOf(s) !== i) ctx.addIssue({ code: "custom", path: ["services", i], message: `${JSON.stringify(s)} is listed twice` });
    });
  });

export type WindowInputs = z.infer<typeof windowInputs>;

export const definition = defineResource({
  kind: "MaintenanceWindow",
  description:
    "A maintenance window: while it lasts, its services open no incidents from events (PagerDuty's\n" +
    "maintenance windows). Times are ISO 8601 with an offset or Z and compared as instants;\n" +
    "`services` is a set. A window's past is history: a window that has begun keeps its start, one that\n" +
    "has ended takes no change (a change other than its times fails at preview) and is never drift, and\n" +
    "deleting a window that has begun ends it at once, while one that has ended is left as PagerDuty's\n" +
    "history. A start or an end moved into the future of a window that has begun or ended replaces it.",
  notes:
    "Times compared as instants, `services` as a set; the times replace only a window that has begun or ended (one still to come updates " +
    "in place). Only what is still to come is compared: a window that has begun or ended is never " +
    "drift. Delete ends a window that has begun and leaves one that has ended as history (a warning says which).",
  inputs: windowInputs,
  outputs: z.object({
    services: z.array(z.string()).describe("Ids of the services the window holds, in the API's order."),
    startTime: z.string().describe("When the window starts or started, as PagerDuty reports it (in the account's time zone)."),
    endTime: z.string().describe("When the window ends or ended, as PagerDuty reports it (ended early when a window that had begun was deleted)."),
    description: z.string().describe('What the window is for ("" when it has none).'),
    sequenceNumber: z.number().describe("The order in which the account's windows were made."),
    summary: z.string().describe("A short text the API gives the window."),
    htmlUrl: z.string().describe("The window's page in PagerDuty's web app."),
    teams: z.array(z.string()).describe("Ids of the teams of the window's services."),
  }),
  // Only once the window has begun or ended (see the diff): a window still to come updates in place.
  replaceOn: ["startTime", "endTime"],
  diffIgnore: ["adoptId"],
  writeScopes: WRITE,
  creates: true,
});

type WindowOutputs = OutputsOf<typeof definition>;

interface ApiReference {
  id: string;
  type?: string;
}

export interface ApiWindow {
  id: string;
  type?: string;
  summary?: string;
  html_url?: string;
  sequence_number?: number;
  start_time: string;
  end_time: string;
  description?: string | null;
  services?: ApiReference[];
  teams?: ApiReference[];
}

/** Live window -> Pulumi outputs. */
export function toOutputs(w: ApiWindow): WindowOutputs {
  return {
    services: (w.services ?? []).map((s) => s.id),
    startTime: w.start_time,
    endTime: w.end_time,
    description: w.description ?? "",
    sequenceNumber: w.sequence_number ?? 0,
    summary: w.summary ?? w.description ?? "",
    htmlUrl: w.html_url ?? "",
    teams: (w.teams ?? []).map((t) => t.id),
  };
}

/** The body of a create or update; `start_time` is left out of the update of a window that has begun (it cannot move). */
export function toBody(inputs: Pick<WindowInputs, "services" | "startTime" | "endTime" | "description">, begun = false) {
  return {
    maintenance_window: {
      type: "maintenance_window",
      ...(begun ? {} : { start_time: inputs.startTime }),
      end_time: inputs.endTime,
      ...(inputs.description !== undefined ? { description: inputs.description } : {}),
      services: inputs.services.map((id) => ({ id, type: "service_reference" })),
    },
  };
}

const sameSet = (a: readonly unknown[], b: readonly unknown[]) => isDeepStrictEqual([...new Set(a)].sort(), [...new Set(b)].sort());

/** Where a window stands at `now`, by the times its state records (undefined parts: not known). */
function phase(state: { startTime?: unknown; endTime?: unknown }, now: number) {
  const [start, end] = [instantOf(state.startTime), instantOf(state.endTime)];
  return { begun: start !== undefined && start <= now, ended: end !== undefined && end <= now };
}

/** A declared time as an instant, or "unknown" (not known yet, in preview) or "invalid" (check refuses it). */
const declaredInstant = (v: unknown): number | "unknown" | "invalid" => (v === UNKNOWN ? "unknown" : (instantOf(v) ?? "invalid"));

/**
 * The plan of `news` against the window's state at `now`: only what is still to come is compared
 * (the file comment). Exported for tests, which give `now`.
 */
export function windowDiff(olds: Partial<WindowOutputs>, news: Record<string, unknown>, now = Date.now()): dynamic.DiffResult {
  const { begun, ended } = phase(olds, now);
  const changed = new Set<string>();
  const replaces = new Set<string>();
  const start = declaredInstant(news.startTime);
  if (!begun) {
    if (start !== instantOf(olds.startTime)) changed.add("startTime");
  } else if (start === "unknown" || start === "invalid" || start > now) {
    // The start of a window that has begun cannot move: one still to come is a new window.
    changed.add("startTime");
    if (start !== "invalid") replaces.add("startTime");
  }
  const end = declaredInstant(news.endTime);
  if (!ended) {
    if (end !== instantOf(olds.endTime)) changed.add("endTime");
  } else if (end === "unknown" || end === "invalid" || end > now) {
    // A window that has ended takes no change: an end still to come is a new window.
    changed.add("endTime");
    if (end !== "invalid") replaces.add("endTime");
  }
  if (news.services !== undefined && (holdsUnknown(news.services) || !Array.isArray(news.services) || !sameSet(news.services, olds.services ?? [])))
    changed.add("services");
  if (news.description !== undefined && news.description !== (olds.description ?? "")) changed.add("description");
  return { changes: changed.size > 0, replaces: [...replaces], deleteBeforeReplace: false };
}

/**
 * What cannot be done at all, judged at preview: a new window that has ended, a window still to come
 * moved wholly into the past, a change to a window that has ended other than a new future for it.
 * `olds` are the inputs of the last deployment (the live values after a refresh); none for a create.
 */
export function windowProblems(news: Record<string, unknown>, olds: Record<string, unknown>, now = Date.now()): dynamic.CheckFailure[] {
  const end = declaredInstant(news.endTime);
  if (typeof end !== "number" || end > now) return [];
  const failure = (field: string, reason: string) => ({ property: "", reason: `${field}: ${reason}` });
  const at = String(news.endTime);
  if (Object.keys(userInputs(olds)).length === 0)
    return [failure("endTime", `${at} has passed: PagerDuty makes no window that has ended; declare an end still to come`)];
  const was = phase(olds, now);
  if (!was.begun && !was.ended)
    return [failure("endTime", `${at} has passed, and the window has not begun: a window still to come cannot be moved into the past; remove it instead`)];
  if (!was.ended) return [];
  const fixed =
    "PagerDuty refuses changes to a window that has ended; declare a new window, or remove this one from the program (its delete then leaves it as history)";
  const problems: dynamic.CheckFailure[] = [];
  if (Array.isArray(news.services) && !holdsUnknown(news.services) && Array.isArray(olds.services) && !sameSet(news.services, olds.services))
    problems.push(failure("services", `the window ended at ${String(olds.endTime)}: ${fixed}`));
  if (typeof news.description === "string" && typeof olds.description === "string" && news.description !== olds.description)
    problems.push(failure("description", `the window ended at ${String(olds.endTime)}: ${fixed}`));
  return problems;
}

async function get(client: ApiClient, id: string): Promise<ApiWindow> {
  return (await client.request<{ maintenance_window: ApiWindow }>("GET", maintenanceWindowPath(id), { scopes: READ })).maintenance_window;
}

/** Whether live window `w` is the declared one: the same services and end, and the same start or one PagerDuty moved to when it made it. */
function isDeclared(w: ApiWindow, inputs: Partial<WindowInputs>): boolean {
  const [start, liveStart] = [instantOf(inputs.startTime), instantOf(w.start_time)];
  const sameStart = start !== undefined && liveStart !== undefined && (start === liveStart || (start < liveStart && liveStart <= Date.now()));
  return (
    sameStart &&
    instantOf(w.end_time) === instantOf(inputs.endTime) &&
    sameSet(
      (w.services ?? []).map((s) => s.id),
      inputs.services ?? [],
    ) &&
    (inputs.description === undefined || (w.description ?? "") === inputs.description)
  );
}

/** The windows still open (to come or under way) that hold the declared services, times and description. */
async function windowsLike(client: ApiClient, inputs: Partial<WindowInputs>): Promise<ApiWindow[]> {
  if (!Array.isArray(inputs.services) || !inputs.services.length) return [];
  const open = await listOffset<ApiWindow>(client, MAINTENANCE_WINDOWS, "maintenance_windows", READ, { "service_ids[]": inputs.services, filter: "open" });
  return open.filter((w) => isDeclared(w, inputs));
}

/**
 * An unanswered create's search. PagerDuty records neither when a window was made nor by which
 * credential (no created_at, no audit record), so nothing proves a window is the one it made: when
 * one like it is there, the create stops and names it rather than risk making a second.
 */
async function unprovable(client: ApiClient, inputs: WindowInputs): Promise<never[]> {
  const like = (await windowsLike(client, inputs)).map((w) => w.id).sort();
  if (!like.length) return [];
  throw new AmbiguousCreateError(
    `maintenance window ${describeWindow(inputs)}: the create's reply was lost and ${like.length === 1 ? "window" : "windows"} ${like.join(", ")} ` +
      "hold the declared services and times, but PagerDuty records no creation time or creator of a window, so nothing shows whether this create " +
      `made ${like.length === 1 ? "it" : "one"}. Adopt it with \`adoptId\`, or delete it by hand and run \`pulumi up\` again`,
    like,
  );
}

const describeWindow = (inputs: Recorded<typeof definition>) =>
  `of ${Array.isArray(inputs.services) ? inputs.services.join(", ") : "?"} from ${String(inputs.startTime ?? "?")} to ${String(inputs.endTime ?? "?")}`;

/**
 * Sends a request naming `services`, asked again while one of them that this process made moments ago
 * may still answer 404: such a 404 made and changed nothing.
 */
const whileServicesYoung = <T>(ctx: AccountContext, services: readonly string[], send: () => Promise<T>): Promise<T> =>
  ctx.consistency.untilVisible(ctx.consistency.youngest("Service", services), send);

/**
 * Brings window `id` (whose state is `state`) to the declared values: a PUT (without the start of a
 * window that has begun), then, when the declared end has passed, a DELETE, which ends it now.
 */
async function put(ctx: AccountContext, id: string, state: Partial<WindowOutputs>, inputs: WindowInputs): Promise<WindowOutputs> {
  const now = Date.now();
  const { begun, ended } = phase(state, now);
  if (ended) throw new PagerDutyError("ERR_INPUT", `maintenance window ${id} ended at ${state.endTime}: PagerDuty refuses changes to a window that has ended`);
  const endsNow = begun && (instantOf(inputs.endTime) ?? Number.POSITIVE_INFINITY) <= now;
  let live: ApiWindow | undefined;
  // What the PUT sends: the declared values, but the end the window has while the DELETE below is what ends it.
  const sent = { ...inputs, endTime: endsNow ? (state.endTime ?? inputs.endTime) : inputs.endTime };
  if (!endsNow || !sameSet(inputs.services, state.services ?? []) || (inputs.description !== undefined && inputs.description !== state.description)) {
    const res = await whileServicesYoung(ctx, inputs.services, () =>
      ctx.client.request<{ maintenance_window: ApiWindow }>("PUT", maintenanceWindowPath(id), { body: toBody(sent, begun), scopes: WRITE }),
    );
    live = res.maintenance_window;
  }
  if (endsNow) {
    await ctx.client.request("DELETE", maintenanceWindowPath(id), { scopes: WRITE });
    await ctx.warn(`maintenance window ${id}: the declared end ${inputs.endTime} has passed, so PagerDuty ended the window now`);
    live = await get(ctx.client, id);
  }
  return toOutputs(live!);
}

export const resource: Resource<typeof definition> = {
  definition,

  subject: (id) => `maintenance window ${id}`,

  describe: (inputs) => `maintenance window ${describeWindow(inputs)}`,

  findExisting: async (client, inputs) => (await windowsLike(client, inputs as Partial<WindowInputs>)).map((w) => w.id),

  async verify(_ctx, news, olds) {
    return windowProblems(news as Record<string, unknown>, olds as Record<string, unknown>);
  },

  diff: (olds: StateOf<typeof definition>, news) => windowDiff(olds, news),

  async adopt(ctx, id, news) {
    const inputs = userInputs(news);
    const state = toOutputs(await get(ctx.client, id));
    // Taking over a window that already holds what the program declares writes nothing.
    return { id, outs: windowDiff(state, inputs).changes ? await put(ctx, id, state, inputs) : state };
  },

  async create(ctx, news) {
    const { client } = ctx;
    const inputs = userInputs(news);
    const outcome = await createOnce(ctx, {
      definition,
      origin: news.__origin,
      what: `maintenance window ${describeWindow(inputs)}`,
      post: () =>
        whileServicesYoung(ctx, inputs.services, async () => {
          const res = await client.request<{ maintenance_window: ApiWindow }>("POST", MAINTENANCE_WINDOWS, { body: toBody(inputs), scopes: WRITE });
          return { id: res.maintenance_window.id, value: res.maintenance_window };
        }),
      exists: async (id) => (await orGone(() => get(client, id))) !== undefined,
      find: () => unprovable(client, inputs),
      findExisting: async () => (await windowsLike(client, inputs)).map((w) => w.id),
    });
    if ("adopted" in outcome) return this.adopt!(ctx, outcome.id, news);
    return { id: outcome.id, outs: toOutputs(outcome.created) };
  },

  async read(ctx, id) {
    const found = await get(ctx.client, id);
    return { id: found.id, props: toOutputs(found) };
  },

  async update(ctx, id, olds, news) {
    return { outs: await put(ctx, id, olds, userInputs(news)) };
  },

  // PagerDuty deletes a window still to come, ends one that has begun, and keeps one that has ended (405).
  async delete(ctx, id, state) {
    const { begun } = phase(state, Date.now());
    try {
      await ctx.client.request("DELETE", maintenanceWindowPath(id), { scopes: WRITE });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 405)) throw e;
      await ctx.warn(`maintenance window ${id} ended at ${state.endTime}: PagerDuty keeps a window that has ended as history, so there is nothing to delete`);
      return;
    }
    if (begun) await ctx.warn(`maintenance window ${id} had begun: PagerDuty ended it now rather than deleting it, and keeps it as history`);
  },
};

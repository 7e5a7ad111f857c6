// The incident kind: incidents are opened by events (kinds/alert/); through REST, index, show, and
// update single to acknowledge, resolve or reopen one, change its title or urgency, and read the
// notes and custom field values an orchestration gave it. Creating incidents through the REST API
// and updating several at once are not served. A deleted service's incidents go with it.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { ApiError, invalid } from "../../errors";
import { baseUrl, many, paginate, params, query, rest, single, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, object } from "../../schemas";
import { defineKind, type KindOptions } from "../kind";
import { renderService } from "../service/view";
import { type Agent, findIncident, type IncidentRecord, type IncidentStatus, renderIncident, transition, lastIncidentAt, serviceStatus } from "./model";

export const kind = defineKind({
  name: "incident",
  tables: { incidents: {}, incidentNumbers: {} },
  routes,
  lag: { never: "incidents are opened by events, which read no REST replica; the lag hides what REST clients create" },
  serviceDeleted: (core, s) => {
    for (const id of s.incidentIds ?? []) delete core.state.incidents[id];
  },
  // A service's status and last incident are computed from its incidents (model.ts).
  serviceView: (core, _base, s) => ({ status: serviceStatus(core, s), last_incident_timestamp: lastIncidentAt(core, s) }),
  example: {
    // Events open incidents: an incident has no create of its own.
    create: (ids) => ({
      method: "POST",
      path: "/v2/enqueue",
      body: { routing_key: ids.routingKey, event_action: "trigger", payload: { summary: "example", source: "example", severity: "critical" } },
    }),
    found: (_made, ids) => ({ list: `/incidents?service_ids[]=${ids.service}`, key: "incidents" }),
  },
});

/**
 * PUT /incidents/{id}: `type` is required by the description and sent by clients (go-pagerduty's
 * ManageIncidentsOptions, the python client's and pdjs's documented bodies); other writable fields
 * of the description (priority, assignments, escalation, conference bridge) are accepted and ignored.
 */
const updateIncidentBody = envelope(
  "incident",
  object(
    {
      type: { type: "string", enum: ["incident", "incident_reference"] },
      status: { type: "string", enum: ["triggered", "acknowledged", "resolved"] },
      title: { type: "string", minLength: 1, maxLength: 1024, pattern: "\\S" },
      urgency: { type: "string", enum: ["high", "low"] },
      resolution: { type: "string" },
    },
    ["type"],
  ),
);

const STATUSES = ["triggered", "acknowledged", "resolved"] as const;
const URGENCIES = ["high", "low"] as const;
const INCLUDES = [
  "acknowledgers",
  "agents",
  "assignees",
  "conference_bridge",
  "escalation_policies",
  "first_trigger_log_entries",
  "priorities",
  "services",
  "teams",
  "users",
];
const SORT_FIELDS = ["incident_number", "created_at", "resolved_at", "urgency"];
/** The description: without `since`/`until` the index covers the last month; at most 6 months. */
const DEFAULT_RANGE_MS = 30 * 86_400_000;
const MAX_RANGE_MS = 183 * 86_400_000;

/** Values of a repeated query parameter, each one of `allowed` (400 naming the parameter otherwise). */
function listParam(q: Record<string, string | string[] | undefined>, key: string, allowed?: readonly string[]): string[] {
  const values = many(q, key);
  const bad = allowed ? values.filter((v) => !allowed.includes(v)) : [];
  if (bad.length) throw invalid(`"${key}[]" must be one of: ${allowed?.join(", ")} (got ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return values;
}

function dateParam(q: Record<string, string | string[] | undefined>, key: string): number | undefined {
  const raw = single(q[key]);
  if (raw === undefined || raw === "") return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new ApiError("INVALID_DATE_RANGE", [`"${key}" must be an ISO 8601 date and time, got ${JSON.stringify(raw.slice(0, 40))}`]);
  return t;
}

/** `sort_by`: up to two of `field[:asc|:desc]`, comma separated; default `created_at` ascending. */
function sorter(raw: string | undefined): (a: IncidentRecord, b: IncidentRecord) => number {
  const keys = (raw ?? "created_at").split(",").map((k) => k.trim());
  if (keys.length > 2 || keys.some((k) => !SORT_FIELDS.includes(k.split(":")[0]) || !["", "asc", "desc"].includes(k.split(":")[1] ?? "")))
    throw invalid(`"sort_by" takes up to two of ${SORT_FIELDS.join(", ")}, each optionally with ":asc" or ":desc"`);
  const value = (i: IncidentRecord, field: string): string | number =>
    field === "incident_number"
      ? i.number
      : field === "urgency"
        ? i.urgency === "high"
          ? 1
          : 0
        : field === "resolved_at"
          ? (i.resolved_at ?? "")
          : i.created_at;
  return (a, b) => {
    for (const k of keys) {
      const [field, dir] = k.split(":");
      const x = value(a, field);
      const y = value(b, field);
      if (x !== y) return (x < y ? -1 : 1) * (dir === "desc" ? -1 : 1);
    }
    return a.number - b.number;
  };
}

/**
 * Who acts on an incident. A user credential is its user. An account key or app token names one in
 * the `From` header, as the service requires for incident writes (go-pagerduty's ManageIncidents
 * and the python client's `default_from` send it).
 */
function actingUser(core: EmulatorCore, req: FastifyRequest): Agent {
  const p = who(req);
  if (p.userId) return { type: "user", id: p.userId };
  const from = single(req.headers.from)?.trim();
  if (!from) throw new ApiError("FROM_REQUIRED", ['Send the "From" header with the email address of a user of this account']);
  const user = Object.values(core.state.users).find((u) => u.accountId === p.accountId && !u.removed && u.email.toLowerCase() === from.toLowerCase());
  if (!user) throw new ApiError("FROM_REQUIRED", [`"From" (${from.slice(0, 100)}) is not the email address of a user of this account`]);
  return { type: "user", id: user.id };
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/incidents", SCOPES.incidentsRead, (req) => {
    const q = query(req);
    const p = who(req);
    const serviceIds = new Set(listParam(q, "service_ids"));
    const statuses = new Set(listParam(q, "statuses", STATUSES));
    const urgencies = new Set(listParam(q, "urgencies", URGENCIES));
    const include = new Set(listParam(q, "include", INCLUDES));
    const key = single(q.incident_key);
    const dateRange = single(q.date_range);
    if (dateRange !== undefined && dateRange !== "all") throw invalid('"date_range" must be "all"');
    let since = dateParam(q, "since");
    let until = dateParam(q, "until");
    if (dateRange !== "all") {
      until ??= since !== undefined ? since + DEFAULT_RANGE_MS : core.clock.now();
      since ??= until - DEFAULT_RANGE_MS;
      if (until < since || until - since > MAX_RANGE_MS) throw new ApiError("INVALID_DATE_RANGE", ['"until" must be after "since" and at most 6 months later']);
    }
    const list = Object.values(core.state.incidents)
      .filter((i) => {
        const at = Date.parse(i.created_at);
        return (
          i.accountId === p.accountId &&
          (!serviceIds.size || serviceIds.has(i.serviceId)) &&
          (!statuses.size || statuses.has(i.status)) &&
          (!urgencies.size || urgencies.has(i.urgency)) &&
          (key === undefined || i.incident_key === key) &&
          (dateRange === "all" || (at >= (since as number) && at <= (until as number)))
        );
      })
      .sort(sorter(single(q.sort_by)));
    const { page, meta } = paginate(list, q);
    const base = baseUrl(core, req);
    const full = include.has("services") ? (s: Parameters<typeof renderService>[2]) => renderService(core, base, s) : undefined;
    return { incidents: page.map((i) => renderIncident(core, base, i, full)), ...meta };
  });

  rest(app, "GET", "/incidents/:id", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    const base = baseUrl(core, req);
    const full = many(query(req), "include").includes("services") ? (s: Parameters<typeof renderService>[2]) => renderService(core, base, s) : undefined;
    return { incident: renderIncident(core, base, i, full) };
  });

  rest(
    app,
    "PUT",
    "/incidents/:id",
    SCOPES.incidentsWrite,
    (req) => {
      const i = findIncident(core, who(req), params(req).id);
      const by = actingUser(core, req);
      const o = (req.body as { incident: { status?: IncidentStatus; title?: string; urgency?: IncidentRecord["urgency"] } }).incident;
      if (o.status !== undefined) transition(core, i, o.status, by);
      if (o.title !== undefined) i.title = o.title;
      if (o.urgency !== undefined) i.urgency = o.urgency;
      if (o.title !== undefined || o.urgency !== undefined) i.updated_at = core.clock.iso();
      return { incident: renderIncident(core, baseUrl(core, req), i) };
    },
    updateIncidentBody,
  );

  rest(app, "GET", "/incidents/:id/notes", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    return {
      notes: (i.notes ?? []).map((n) => ({ id: n.id, user: null, channel: { summary: "Event Orchestration" }, content: n.content, created_at: n.created_at })),
    };
  });

  rest(app, "GET", "/incidents/:id/custom_fields/values", SCOPES.incidentsRead, (req) => {
    const i = findIncident(core, who(req), params(req).id);
    return { custom_fields: Object.entries(i.customFields ?? {}).map(([id, value]) => ({ id, type: "field_value", value })) };
  });
}

// The maintenance window kind (`/maintenance_windows`): list, create, show, update, delete. While a
// window is ongoing by the emulator's clock, the services it names are in maintenance: their status
// is "maintenance" and events to them open, acknowledge and resolve nothing (the core's `maintenance`
// hook; the event's trace says which window). What follows whom: the request shapes are those
// PagerDuty's Terraform provider sends through heimweh/go-pagerduty (no `type`, no `From` header,
// services as `service_reference`s; a 405 on deleting an ended window taken as deleted);
// PagerDuty/go-pagerduty sends `From` when given one, kept here as the window's `created_by`; the
// times' rules are those of PagerDuty's API reference (a start in the past becomes now; the end must
// be in the future and after the start; an ongoing window is ended, not deleted, and an ended one
// can be neither deleted nor changed). Windows are read and written with the services scopes, as
// PagerDuty's reference says ("Scoped OAuth requires: services.read" / "services.write").
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { ApiError, invalid, notFound } from "../../errors";
import { baseUrl, many, paginate, params, query, reference, rest, single, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, nullable, object, reference as referenceSchema } from "../../schemas";
import { owned } from "../../store";
import type { Json } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { serviceRef } from "../service/model";
import { FILTERS, findWindow, isoSeconds, leaveWindows, type MaintenanceWindowRecord, maintenanceOf, parseTime, standing } from "./model";

const ONE = "/maintenance_windows/:id";

export const kind = defineKind({
  name: "maintenance window",
  tables: { maintenanceWindows: {}, maintenanceWindowNumbers: {} },
  routes,
  lag: {
    paths: [ONE],
    find: ownedFind((core) => core.state.maintenanceWindows, "id", "Maintenance window"),
  },
  serviceDeleted: leaveWindows,
  maintenance: maintenanceOf,
  example: {
    create: (ids) => ({
      method: "POST",
      path: "/maintenance_windows",
      body: {
        maintenance_window: {
          type: "maintenance_window",
          start_time: "2099-01-01T00:00:00Z",
          end_time: "2099-01-01T02:00:00Z",
          services: [
            { id: ids.service, type: "service_reference" },
            { id: ids.other, type: "service_reference" },
          ],
        },
      },
    }),
    found: ({ id }) => ({ get: `/maintenance_windows/${id}` }),
  },
});

const fields = {
  type: { type: "string", enum: ["maintenance_window"] },
  start_time: { type: "string" },
  end_time: { type: "string" },
  description: nullable({ type: "string" }),
  services: { type: "array", minItems: 1, items: referenceSchema },
};
const createBody = envelope("maintenance_window", object(fields, ["start_time", "end_time", "services"]));
const updateBody = envelope("maintenance_window", object(fields));

function render(core: EmulatorCore, base: string, w: MaintenanceWindowRecord) {
  const user = w.createdBy ? core.state.users[w.createdBy] : undefined;
  return {
    id: w.id,
    type: "maintenance_window",
    summary: w.description ?? "",
    self: `${base}/maintenance_windows/${w.id}`,
    html_url: `${base}/maintenance_windows#${w.id}`,
    sequence_number: w.sequence,
    start_time: isoSeconds(w.start),
    end_time: isoSeconds(w.end),
    description: w.description,
    created_by: user ? reference("user", user.id, user.name, `${base}/users/${user.id}`, `${base}/users/${user.id}`) : null,
    services: w.serviceIds.map((id) => core.state.services[id]).flatMap((s) => (s ? [serviceRef(base, s)] : [])),
    // Teams are not modelled: no window belongs to one.
    teams: [],
  };
}

/** The user who makes a window: a user credential's, else the one the optional `From` header names. */
function creator(core: EmulatorCore, req: FastifyRequest): string | null {
  const p = who(req);
  if (p.userId) return p.userId;
  const from = single(req.headers.from)?.trim();
  if (!from) return null;
  const user = Object.values(core.state.users).find((u) => u.accountId === p.accountId && !u.removed && u.email.toLowerCase() === from.toLowerCase());
  if (!user) throw new ApiError("FROM_REQUIRED", [`"From" (${from.slice(0, 100)}) is not the email address of a user of this account`]);
  return user.id;
}

/** The body's services: each a service of the caller's account, each once. */
function servicesOf(core: EmulatorCore, accountId: string, list: { id: string }[]): string[] {
  const ids = [...new Set(list.map((s) => s.id))];
  ids.forEach((id) => {
    if (!owned(core.state.services, id, accountId)) throw notFound(`Service ${id.slice(0, 100)} (maintenance_window.services)`);
  });
  return ids;
}

/**
 * The window's times from a body: a start in the past becomes now, unless it is the start the window
 * has (an ongoing window sent back as read); the end must be in the future and after the start.
 */
function timesOf(core: EmulatorCore, input: Json, was?: MaintenanceWindowRecord): { start: number; end: number } {
  const now = Math.floor(core.clock.now() / 1000) * 1000;
  const given = input.start_time === undefined && was ? was.start : parseTime("start_time", input.start_time);
  const start = given < now && given !== was?.start ? now : given;
  const end = input.end_time === undefined && was ? was.end : parseTime("end_time", input.end_time);
  if (end <= now) throw invalid(`"end_time" must be in the future (now is ${isoSeconds(now)}), got ${isoSeconds(end)}`);
  if (end <= start) throw invalid(`"end_time" (${isoSeconds(end)}) must be after "start_time" (${isoSeconds(start)})`);
  return { start, end };
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  const find = (req: FastifyRequest) => {
    const w = findWindow(core, params(req).id, who(req).accountId);
    if (!w) throw notFound(`Maintenance window ${params(req).id.slice(0, 100)}`);
    return w;
  };

  rest(app, "GET", "/maintenance_windows", SCOPES.servicesRead, (req) => {
    const q = query(req);
    const filter = single(q.filter) ?? "all";
    if (!Object.hasOwn(FILTERS, filter))
      throw invalid(`"filter" must be one of: ${Object.keys(FILTERS).join(", ")}; got ${JSON.stringify(filter.slice(0, 40))}`);
    const standings = FILTERS[filter];
    const services = many(q, "service_ids");
    const teams = many(q, "team_ids");
    const text = single(q.query)?.toLowerCase() ?? "";
    const now = core.clock.now();
    const mine = Object.values(core.state.maintenanceWindows).filter(
      (w) =>
        w.accountId === who(req).accountId &&
        standings.includes(standing(w, now)) &&
        (!services.length || w.serviceIds.some((id) => services.includes(id))) &&
        // No window has a team (teams are not modelled), so a team filter leaves none.
        !teams.length &&
        (w.description ?? "").toLowerCase().includes(text),
    );
    const list = core.lag.visible(mine, (w) => w.id).sort((a, b) => a.start - b.start || a.sequence - b.sequence);
    const { page, meta } = paginate(list, q);
    return { maintenance_windows: page.map((w) => render(core, baseUrl(core, req), w)), ...meta };
  });

  rest(
    app,
    "POST",
    "/maintenance_windows",
    SCOPES.servicesWrite,
    (req, reply) => {
      const input = (req.body as { maintenance_window: Json }).maintenance_window;
      const accountId = who(req).accountId;
      const { start, end } = timesOf(core, input);
      const serviceIds = servicesOf(core, accountId, input.services as { id: string }[]);
      const createdBy = creator(core, req);
      const sequence = (core.state.maintenanceWindowNumbers[accountId] ?? 0) + 1;
      core.state.maintenanceWindowNumbers[accountId] = sequence;
      const w: MaintenanceWindowRecord = {
        id: core.ids.next(),
        accountId,
        sequence,
        start,
        end,
        description: (input.description as string | null | undefined) ?? null,
        serviceIds,
        createdBy,
      };
      core.state.maintenanceWindows[w.id] = w;
      core.startLag(accountId, w.id);
      reply.code(201);
      return { maintenance_window: render(core, baseUrl(core, req), w) };
    },
    createBody,
  );

  rest(app, "GET", ONE, SCOPES.servicesRead, (req) => ({ maintenance_window: render(core, baseUrl(core, req), find(req)) }));

  rest(
    app,
    "PUT",
    ONE,
    SCOPES.servicesWrite,
    (req) => {
      const w = find(req);
      if (standing(w, core.clock.now()) === "past")
        throw invalid(`Maintenance window ${w.id} ended at ${isoSeconds(w.end)}: an ended window cannot be changed`);
      const input = (req.body as { maintenance_window: Json }).maintenance_window;
      const { start, end } = timesOf(core, input, w);
      const serviceIds = input.services === undefined ? w.serviceIds : servicesOf(core, w.accountId, input.services as { id: string }[]);
      Object.assign(w, { start, end, serviceIds });
      if (input.description !== undefined) w.description = input.description as string | null;
      return { maintenance_window: render(core, baseUrl(core, req), w) };
    },
    updateBody,
  );

  rest(app, "DELETE", ONE, SCOPES.servicesWrite, (req, reply) => {
    const w = find(req);
    const now = core.clock.now();
    const at = standing(w, now);
    if (at === "past")
      throw new ApiError("METHOD_NOT_ALLOWED", [`Maintenance window ${w.id} ended at ${isoSeconds(w.end)}: an ended window cannot be deleted`]);
    // Once started, a window cannot be deleted: it ends now.
    if (at === "ongoing") w.end = Math.max(w.start, Math.floor(now / 1000) * 1000);
    else delete core.state.maintenanceWindows[w.id];
    return reply.code(204).send();
  });
}

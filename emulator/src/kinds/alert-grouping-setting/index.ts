// The alert grouping setting kind: list (cursor pages, `service_ids[]`), create, show, update,
// delete. A setting groups the alerts of its services; a service belongs to at most one (model.ts),
// and while it does its `alert_grouping_parameters` read as a reference to the setting. A deleted
// service leaves its setting, and a setting left without services goes.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorCore } from "../../core";
import { ApiError, invalid, notFound } from "../../errors";
import { baseUrl, intParam, MAX_LIMIT, many, params, query, rest, single, who } from "../../http";
import { SCOPES } from "../../scopes";
import { envelope, nullable, object, reference, type Schema } from "../../schemas";
import { owned } from "../../store";
import { isObject, type Json, Validator } from "../../validate";
import { defineKind, type KindOptions, ownedFind } from "../kind";
import { findService } from "../service/model";
import { type AlertGroupingSettingRecord, leaveSetting, settingOf, settingReference } from "./model";

const ONE = "/alert_grouping_settings/:id";

export const kind = defineKind({
  name: "alert grouping setting",
  tables: { alertGroupingSettings: {} },
  routes,
  lag: {
    paths: [ONE],
    find: ownedFind((core) => core.state.alertGroupingSettings, "id", "Alert grouping setting"),
  },
  serviceDeleted: (core, s) => leaveSetting(core, s.id),
  // A service under a setting shows a reference to it instead of its own parameters.
  serviceView: (core, base, s) => {
    const g = settingOf(core, s.id);
    return g ? { alert_grouping_parameters: settingReference(base, g) } : {};
  },
  // Its own parameters take a service out of its setting (the Terraform provider warns that dropping
  // them "might delete an alert_grouping_setting depending on it").
  serviceWritten: (core, s, sent) => {
    if (sent.alert_grouping_parameters !== undefined) leaveSetting(core, s.id);
  },
  example: {
    create: (ids) => ({
      method: "POST",
      path: "/alert_grouping_settings",
      body: { alert_grouping_setting: { type: "time", config: { timeout: 0 }, services: [{ id: ids.service, type: "service_reference" }] } },
    }),
    found: ({ id }) => ({ get: `/alert_grouping_settings/${id}` }),
  },
});

/** The grouping types of `/alert_grouping_settings` (the description's enum). */
const GROUPING_SETTING_TYPES = ["content_based", "content_based_intelligent", "intelligent", "time"] as const;
const SETTING_FIELDS: Record<string, Schema> = {
  name: nullable({ type: "string", maxLength: 255 }),
  description: nullable({ type: "string", maxLength: 1024 }),
  type: { type: "string", enum: [...GROUPING_SETTING_TYPES] },
  // Checked per type by the handler (parseConfig).
  config: nullable({ type: "object" }),
  services: { type: "array", items: reference },
};
/** POST /alert_grouping_settings: the Terraform provider always sends `type`, `config` and `services`. */
const createSettingBody = envelope("alert_grouping_setting", object(SETTING_FIELDS, ["type", "services"]));
/** PUT /alert_grouping_settings/{id}: absent fields stay, `services` included (the description says so). */
const updateSettingBody = envelope("alert_grouping_setting", object(SETTING_FIELDS));

type SettingType = (typeof GROUPING_SETTING_TYPES)[number];

/** Types whose setting applies to one service: the description says so of content_based_intelligent, the Terraform provider of time. */
const SINGLE_SERVICE: readonly string[] = ["time", "content_based_intelligent"];

/**
 * A window in seconds: 0 asks for the recommended one (the Terraform provider sends 0 when the
 * program leaves it unset), else within the description's bounds for the type.
 */
function windowOf(v: Validator, c: Json, key: string, ranges: readonly [number, number][]): number {
  const n = v.integer(c, key, { min: 0 });
  if (n === undefined || n === null) return 0;
  if (n !== 0 && !ranges.some(([lo, hi]) => n >= lo && n <= hi))
    v.fail(`"config.${key}" must be 0 (recommended) or ${ranges.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo} to ${hi}`)).join(" or ")}`);
  return n;
}

function fields(v: Validator, c: Json, key: string): string[] | undefined {
  const list = v.array(c, key, { required: true });
  if (!list) return undefined;
  if (list.length === 0 || !list.every((f) => typeof f === "string" && f !== "")) return v.fail(`"config.${key}" must be a non-empty array of field names`);
  return list as string[];
}

/** The config of `type` with its own keys only (others are ignored, as unknown fields are). */
export function parseConfig(v: Validator, type: SettingType, c: Json): Json {
  const n = v.nested("config.");
  switch (type) {
    case "time":
      return { timeout: windowOf(n, c, "timeout", [[60, 86400]]) };
    case "intelligent": {
      const iag = c.iag_fields === undefined || c.iag_fields === null ? ["summary"] : fields(n, c, "iag_fields");
      return { time_window: windowOf(n, c, "time_window", [[300, 3600]]), iag_fields: iag };
    }
    case "content_based":
    case "content_based_intelligent":
      return {
        aggregate: n.oneOf(c, "aggregate", ["all", "any"], { required: true }),
        fields: fields(n, c, "fields"),
        time_window: windowOf(
          n,
          c,
          "time_window",
          type === "content_based"
            ? [
                [300, 3600],
                [86400, 86400],
              ]
            : [[300, 3600]],
        ),
      };
  }
}

/** Service ids of the body's `services`: each exists (404 otherwise: it may be lagging) and is in no other setting. */
function parseServices(core: EmulatorCore, req: FastifyRequest, v: Validator, refs: Json[], type: string, self?: string): string[] {
  const p = who(req);
  const ids = refs.map((r) => r.id as string);
  if (ids.length === 0) v.fail('"services" must name at least one service');
  if (SINGLE_SERVICE.includes(type) && ids.length > 1) v.fail(`"services" may name one service for type "${type}"; it names ${ids.length}`);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) return v.fail(`"services[${i}]": service ${id} is listed twice`);
    const s = findService(core, p, id);
    core.lag.notFoundIfHidden(s.id, `Service ${id}`);
    const other = settingOf(core, s.id);
    if (other && other.id !== self)
      v.fail(`"services[${i}]": service ${id} already belongs to alert grouping setting ${other.id}; a service belongs to one setting`);
  });
  return ids;
}

function render(core: EmulatorCore, base: string, g: AlertGroupingSettingRecord) {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    type: g.type,
    config: g.config,
    services: g.serviceIds.map((id) => ({
      id,
      type: "service_reference",
      name: core.state.services[id]?.name ?? id,
      self: `${base}/services/${id}`,
    })),
    created_at: g.created_at,
    updated_at: g.updated_at,
  };
}

/** Opaque page cursors, as the description's examples are: the position of a page's first item. */
const cursor = (offset: number) => Buffer.from(`o:${offset}`).toString("base64url");
function position(raw: string, key: string): number {
  const m = /^o:(\d{1,15})$/.exec(Buffer.from(raw, "base64url").toString());
  if (!m) throw invalid(`"${key}" is not a cursor this listing gave`);
  return Number(m[1]);
}

function find(core: EmulatorCore, req: FastifyRequest): AlertGroupingSettingRecord {
  const id = params(req).id;
  const g = owned(core.state.alertGroupingSettings, id, who(req).accountId);
  if (!g) throw notFound(`Alert grouping setting ${id}`);
  return g;
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/alert_grouping_settings", SCOPES.servicesRead, (req) => {
    const q = query(req);
    const only = new Set(many(q, "service_ids"));
    const mine = Object.values(core.state.alertGroupingSettings).filter(
      (g) => g.accountId === who(req).accountId && (only.size === 0 || g.serviceIds.some((id) => only.has(id))),
    );
    // Oldest first, so a cursor stays valid while settings are added.
    const list = core.lag
      .visible(mine, (g) => g.id)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
    const limit = Math.min(intParam(q, "limit", 25, 1), MAX_LIMIT);
    const after = single(q.after);
    const before = single(q.before);
    let start = after ? position(after, "after") : 0;
    if (!after && before) start = Math.max(0, position(before, "before") - limit);
    const page = list.slice(start, start + limit);
    return {
      alert_grouping_settings: page.map((g) => render(core, baseUrl(core, req), g)),
      limit,
      total: single(q.total) === "true" ? list.length : null,
      // The description: `after` "only present if next page exists", `before` "only present if not on first page".
      ...(start + limit < list.length ? { after: cursor(start + limit) } : {}),
      ...(start > 0 ? { before: cursor(start) } : {}),
    };
  });

  rest(
    app,
    "POST",
    "/alert_grouping_settings",
    SCOPES.servicesWrite,
    (req, reply) => {
      const p = who(req);
      const input = (req.body as { alert_grouping_setting: Json }).alert_grouping_setting;
      const type = input.type as SettingType;
      const v = new Validator();
      const config = parseConfig(v, type, isObject(input.config) ? input.config : {});
      const serviceIds = parseServices(core, req, v, input.services as Json[], type);
      v.done();
      const now = core.clock.iso();
      const g: AlertGroupingSettingRecord = {
        id: core.ids.next(),
        accountId: p.accountId,
        name: (input.name as string | null | undefined) ?? null,
        description: (input.description as string | null | undefined) ?? null,
        type,
        config,
        serviceIds,
        created_at: now,
        updated_at: now,
      };
      join(core, g);
      core.state.alertGroupingSettings[g.id] = g;
      core.startLag(p.accountId, g.id);
      reply.code(201);
      return { alert_grouping_setting: render(core, baseUrl(core, req), g) };
    },
    createSettingBody,
  );

  rest(app, "GET", ONE, SCOPES.servicesRead, (req) => ({
    alert_grouping_setting: render(core, baseUrl(core, req), find(core, req)),
  }));

  rest(
    app,
    "PUT",
    ONE,
    SCOPES.servicesWrite,
    (req) => {
      const g = find(core, req);
      const input = (req.body as { alert_grouping_setting: Json }).alert_grouping_setting;
      if (input.id !== undefined && input.id !== g.id) throw invalid(`"alert_grouping_setting.id" (${String(input.id)}) does not match the path (${g.id})`);
      const type = (input.type as SettingType | undefined) ?? (g.type as SettingType);
      const v = new Validator();
      // A new type needs its own config; the same type keeps the config unless one is sent.
      const given = isObject(input.config) ? input.config : type === g.type ? g.config : {};
      const config = parseConfig(v, type, given);
      const serviceIds = input.services === undefined ? g.serviceIds : parseServices(core, req, v, input.services as Json[], type, g.id);
      if (input.services === undefined && SINGLE_SERVICE.includes(type) && serviceIds.length > 1)
        v.fail(`"type" "${type}" applies to one service; the setting has ${serviceIds.length}`);
      v.done();
      if (input.name !== undefined) g.name = input.name as string | null;
      if (input.description !== undefined) g.description = input.description as string | null;
      Object.assign(g, { type, config, serviceIds, updated_at: core.clock.iso() });
      join(core, g);
      return { alert_grouping_setting: render(core, baseUrl(core, req), g) };
    },
    updateSettingBody,
  );

  rest(app, "DELETE", ONE, SCOPES.servicesWrite, (req, reply) => {
    const g = find(core, req);
    delete core.state.alertGroupingSettings[g.id];
    return reply.code(204).send();
  });
}

/**
 * The setting's services give up their own grouping parameters: the setting is now where their
 * grouping is configured, so when they leave it they group nothing until configured again.
 */
function join(core: EmulatorCore, g: AlertGroupingSettingRecord): void {
  for (const id of g.serviceIds) {
    const s = core.state.services[id];
    if (!s) throw new ApiError("INTERNAL");
    s.alert_grouping_parameters = { type: null };
  }
}

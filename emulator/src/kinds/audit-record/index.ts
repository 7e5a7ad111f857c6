// The audit record kind: a service's records, newest first, with cursor pagination and a
// since/until window (since defaults to 24 h ago, until to now, and until may be at most 31 days
// after since). Every write of a service or its children makes one (model.ts). Records stay
// listable after the service is deleted: that is what an audit trail is for.
import type { FastifyInstance } from "fastify";
import { ApiError, notFound } from "../../errors";
import { intParam, MAX_LIMIT, params, query, rest, single, who } from "../../http";
import { SCOPES } from "../../scopes";
import { owned } from "../../store";
import { defineKind, type KindOptions } from "../kind";
import type { AuditRecord } from "./model";

export const kind = defineKind({
  name: "audit record",
  tables: { auditRecords: [], auditSeq: 0 },
  routes,
  lag: { never: "a record has no window of its own: the listing leaves out a record about an object in its window (lag.visible by the object)" },
  serviceDeleted: { kept: "an audit trail outlives what it records: a deleted service's records stay listable" },
  example: {
    // Every write makes one: here an update of the service.
    create: (ids) => ({ method: "PUT", path: `/services/${ids.service}`, body: { service: { description: "audited" } } }),
    found: (_made, ids) => ({ list: `/services/${ids.service}/audit/records`, key: "records" }),
  },
});

const DAY = 86_400_000;

function time(raw: string | undefined, dflt: number, name: string): number {
  if (raw === undefined || raw === "") return dflt;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new ApiError("INVALID_DATE_RANGE", [`"${name}" must be an ISO 8601 date-time`]);
  return t;
}

const encodeCursor = (seq: number): string => Buffer.from(JSON.stringify({ seq })).toString("base64url");

function decodeCursor(raw: string): number {
  try {
    const { seq } = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as { seq: unknown };
    if (Number.isSafeInteger(seq)) return seq as number;
  } catch {
    // fall through
  }
  throw new ApiError("INVALID_INPUT", ['"cursor" is not a cursor this server returned']);
}

/** The service a record is about and the object it changed. */
function resourceIds(r: AuditRecord): string[] {
  const details = r.body.details as { resource?: { id?: string } } | undefined;
  return [r.serviceId, details?.resource?.id ?? r.serviceId];
}

async function routes(app: FastifyInstance, { core }: KindOptions): Promise<void> {
  rest(app, "GET", "/services/:id/audit/records", SCOPES.auditRead, (req) => {
    const p = who(req);
    const id = params(req).id;
    const mine = core.state.auditRecords.filter((r) => r.serviceId === id && r.accountId === p.accountId);
    if (!owned(core.state.services, id, p.accountId) && mine.length === 0) throw notFound(`Service ${id}`);
    const q = query(req);
    const now = core.clock.now();
    // The window ends before `until`; by default it holds everything recorded so far, including a
    // record made in this very millisecond (a change and a listing right after it).
    const until = time(single(q.until), now + 1, "until");
    const since = time(single(q.since), until - DAY, "since");
    if (until <= since) throw new ApiError("INVALID_DATE_RANGE", ['"until" must be after "since"']);
    if (until - since > 31 * DAY) throw new ApiError("INVALID_DATE_RANGE", ['"until" may be at most 31 days after "since"']);
    const limit = Math.min(intParam(q, "limit", 25, 1), MAX_LIMIT);
    const cursor = single(q.cursor);
    const before = cursor ? decodeCursor(cursor) : Infinity;
    // Records of objects in their consistency-lag window are left out with them (lag.ts).
    const inRange = mine.filter((r) => r.at >= since && r.at < until && r.seq < before);
    const matching = core.lag.visible(inRange, resourceIds).sort((a, b) => b.seq - a.seq);
    const page = matching.slice(0, limit);
    return {
      records: page.map((r) => r.body),
      limit,
      next_cursor: matching.length > limit ? encodeCursor(page[page.length - 1].seq) : null,
      response_metadata: { messages: [] },
    };
  });
}

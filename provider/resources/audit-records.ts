// Who created what under a service, from its audit records: the candidates a search for an
// interrupted or unanswered create weighs (operations/recovery.ts decides; this only asks the API).
import type { ApiClient } from "../http/client";
import { orGone } from "../kernel/gone";
import { listCursor } from "../kernel/pages";
import type { Candidate } from "../operations/recovery";
import { AUDIT_READ, auditRecordsPath } from "../kernel/api-paths";

interface AuditRecord {
  execution_time?: string;
  action?: string;
  method?: { truncated_token?: string | null } | null;
  details?: { resource?: { id?: string; type?: string } | null } | null;
}

/**
 * Objects of a service's audit trail that were created at or after `since`: id, time and the
 * credential that created them. `type` matches the reference type, e.g. /integration_reference$/
 * (the API names integration references after their type).
 */
export async function createdSince(client: ApiClient, service: string, type: RegExp, since: number): Promise<Candidate[]> {
  const records = await listCursor<AuditRecord>(client, auditRecordsPath(service), "records", AUDIT_READ, {
    since: new Date(since).toISOString(),
  });
  const out: Candidate[] = [];
  for (const r of records) {
    const id = r.details?.resource?.id;
    if (r.action !== "create" || !id || !type.test(r.details?.resource?.type ?? "")) continue;
    const at = Date.parse(r.execution_time ?? "");
    out.push({ id, createdAt: Number.isNaN(at) ? 0 : at, ...(r.method?.truncated_token ? { credential: tail(r.method.truncated_token) } : {}) });
  }
  return out;
}

/** Audit records show a truncated token; compared by its last 4 characters. */
const tail = (truncated: string) => `****${truncated.slice(-4)}`;

/**
 * Children of a service (integrations, rules) created since `since` that still exist and match the
 * declared identifying inputs (`matches`).
 */
export async function childrenLike<T>(
  client: ApiClient,
  service: string,
  type: RegExp,
  since: number,
  get: (id: string) => Promise<T>,
  matches: (found: T) => boolean,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const c of await createdSince(client, service, type, since)) {
    const found = await orGone(() => get(c.id));
    if (found !== undefined && matches(found)) out.push(c);
  }
  return out;
}

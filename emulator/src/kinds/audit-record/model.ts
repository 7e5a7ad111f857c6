// Audit records: one per change to a service or one of its children, listing changed fields
// with before/after values, who acted and with which kind of credential. Every kind that changes a
// service or its children records here (`audit`).
import type { Principal } from "../../auth";
import type { EmulatorCore } from "../../core";
import type { Reference } from "../../http";
import type { ActorRef } from "../../store";

declare module "../../store" {
  interface KindTables {
    auditRecords: AuditRecord[];
    /** The last record's `seq`. */
    auditSeq: number;
  }
}

export interface AuditRecord {
  id: string;
  accountId: string;
  serviceId: string;
  /** Epoch ms, for the since/until window and ordering. */
  at: number;
  seq: number;
  body: Record<string, unknown>;
}

export type AuditAction = "create" | "update" | "delete";

export interface FieldChange {
  name: string;
  value?: string;
  before_value?: string;
}

const show = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/** Field-level changes between two plain views of a resource (undefined = did not exist). */
export function changes(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): FieldChange[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: FieldChange[] = [];
  for (const name of keys) {
    const b = before?.[name];
    const a = after?.[name];
    if (before && after && show(a) === show(b)) continue;
    const c: FieldChange = { name };
    if (after) c.value = show(a);
    if (before) c.before_value = show(b);
    out.push(c);
  }
  return out;
}

function actors(core: EmulatorCore, p: Principal) {
  const s = core.state;
  const list: Record<string, string>[] = [];
  if (p.userId && s.users[p.userId]) list.push({ id: p.userId, type: "user_reference", summary: s.users[p.userId].name });
  if (p.appId && s.apps[p.appId]) list.push({ id: p.appId, type: "app_reference", summary: s.apps[p.appId].name });
  if (p.kind === "account_key" && p.apiKeyId && s.apiKeys[p.apiKeyId])
    list.push({ id: p.apiKeyId, type: "api_key_reference", summary: s.apiKeys[p.apiKeyId].name });
  return list;
}

/** Who acted, as a reference (a user, else the app, else the API key): the `*_by` fields of objects that record it. */
export function actorRef(base: string, p: Principal): ActorRef {
  if (p.userId) return { id: p.userId, type: "user_reference", self: `${base}/users/${p.userId}` };
  if (p.appId) return { id: p.appId, type: "app_reference", self: `${base}/apps/${p.appId}` };
  return { id: p.apiKeyId ?? "", type: "api_key_reference", self: `${base}/api_keys/${p.apiKeyId ?? ""}` };
}

export function audit(core: EmulatorCore, p: Principal, root: Reference, action: AuditAction, resource: Reference, fields: FieldChange[]): void {
  if (action === "update" && fields.length === 0) return;
  const at = core.clock.now();
  const id = core.ids.next();
  core.state.auditRecords.push({
    id,
    accountId: p.accountId,
    serviceId: root.id,
    at,
    seq: ++core.state.auditSeq,
    body: {
      id,
      execution_time: new Date(at).toISOString(),
      execution_context: { request_id: id, remote_address: null },
      actors: actors(core, p),
      method: { type: p.kind.endsWith("token") ? "oauth" : "api_token", truncated_token: `****${p.tail}` },
      root_resource: root,
      action,
      details: { resource, fields, references: [] },
    },
  });
}

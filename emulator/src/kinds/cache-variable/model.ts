// Cache variables of a service's event orchestration (`/event_orchestrations/services/{id}/cache_variables`):
// values an orchestration keeps between events, read by its rules as `cache_var.<name>`. What a body
// may hold per `configuration.type` follows the description's three schemas and what PagerDuty's
// Terraform provider sends (it checks the same pairs before sending):
// - recent_value: `source` and `regex`;
// - trigger_event_count: `ttl_seconds`;
// - external_data: `data_type` and `ttl_seconds`, and no conditions (the description's external_data
//   schema has none; the Terraform provider refuses them, and sends `conditions: []`, accepted here).
// Each type's keys are required (the description's examples always send them; the Terraform provider
// refuses a configuration without them); keys of other types are ignored, as unknown fields are.
// Names are unique within an orchestration (the Terraform provider's data source relies on it).
// Conditions, `source` and `regex` are checked as an orchestration's are (pcl/checks.ts); their
// values are kept by kinds/cache-variable/values.ts.
import type { Principal } from "../../auth";
import { actorRef } from "../audit-record/model";
import type { EmulatorCore } from "../../core";
import { checkedExpression, checkedPath, checkedRegex } from "../../pcl/checks";
import type { ActorRef } from "../../store";
import { type Json, Validator } from "../../validate";

declare module "../../store" {
  interface KindTables {
    cacheVariables: Record<string, CacheVariableRecord>;
    /** Their values between events, by cache variable id. */
    cacheValues: Record<string, CacheValueRecord>;
  }
}

/** A cache variable of a service's event orchestration (`.../cache_variables`): a value kept between events. */
export interface CacheVariableRecord {
  id: string;
  accountId: string;
  serviceId: string;
  /** Unique within the service's orchestration. */
  name: string;
  disabled: boolean;
  conditions: { expression: string }[];
  /** `type` and that type's keys only (as `configuration` below checks it). */
  configuration: Record<string, unknown>;
  created_at: string;
  created_by: ActorRef;
  updated_at: string;
  updated_by: ActorRef;
}

/** What a service orchestration keeps of a cache variable between events (kinds/cache-variable/values.ts). */
export interface CacheValueRecord {
  type: string;
  value?: string;
  /** trigger_event_count: when each counted trigger event came (epoch ms), oldest first. */
  hits?: number[];
}

const CACHE_TYPES = ["recent_value", "trigger_event_count", "external_data"] as const;
const DATA_TYPES = ["string", "number", "boolean"] as const;

type Fields = Pick<CacheVariableRecord, "name" | "disabled" | "conditions" | "configuration">;

/** The configuration of its `type`, with that type's keys only. */
function configuration(v: Validator, c: Json): Json {
  const type = v.oneOf(c, "type", CACHE_TYPES, { required: true });
  const ttl = () => v.integer(c, "ttl_seconds", { required: true, min: 1 });
  switch (type) {
    case "recent_value":
      return { type, source: checkedPath(v, c, "source"), regex: checkedRegex(v, c, "regex") };
    case "trigger_event_count":
      return { type, ttl_seconds: ttl() };
    case "external_data":
      return { type, data_type: v.oneOf(c, "data_type", DATA_TYPES, { required: true }), ttl_seconds: ttl() };
    default:
      return {};
  }
}

/**
 * The fields of a body's `cache_variable`, checked (one 400 names every wrong field). A PUT is partial:
 * absent fields keep `current`'s values. `taken` says whether another variable of the service has a name.
 */
export function parseCacheVariable(body: Json, current: Fields | undefined, taken: (name: string) => boolean): Fields {
  const v = new Validator("cache_variable.");
  const given = (k: string) => body[k] !== undefined && body[k] !== null;
  const name = given("name") || !current ? v.string(body, "name", { required: true, nonEmpty: true }) : current.name;
  if (typeof name === "string" && name !== current?.name && taken(name))
    v.fail(`${v.path("name")} "${name}" is already taken by another cache variable of this orchestration; names are unique within one`);
  const disabled = given("disabled") ? v.boolean(body, "disabled") : (current?.disabled ?? false);
  const conditions = given("conditions")
    ? (v.objects(body, "conditions", (n, c) => ({ expression: checkedExpression(n, c, { thresholds: false }) as string })) ?? [])
    : (current?.conditions ?? []);
  const raw = given("configuration") || !current ? v.object(body, "configuration", { required: true }) : undefined;
  const config = raw ? configuration(v.nested("configuration."), raw) : (current?.configuration ?? {});
  if (config.type === "external_data" && conditions.length)
    v.fail(`${v.path("conditions")} do not apply to an external_data cache variable (its value is set through its data endpoint)`);
  v.done();
  return { name: name as string, disabled: disabled as boolean, conditions: conditions as { expression: string }[], configuration: config };
}

export function newCacheVariable(core: EmulatorCore, p: Principal, base: string, serviceId: string, fields: Fields): CacheVariableRecord {
  const now = core.clock.iso();
  const by = actorRef(base, p);
  return { id: core.ids.uuid(), accountId: p.accountId, serviceId, ...fields, created_at: now, created_by: by, updated_at: now, updated_by: by };
}

/** The reply's object: the description's fields; `data_endpoint` only for external_data. */
export function renderCacheVariable(base: string, c: CacheVariableRecord) {
  const { accountId: _a, serviceId, ...shown } = c;
  return {
    ...shown,
    ...(c.configuration.type === "external_data" ? { data_endpoint: `${base}/event_orchestrations/services/${serviceId}/cache_variables/${c.id}/data` } : {}),
  };
}

/** A service's variables, oldest first. */
export const cacheVariablesOf = (core: EmulatorCore, serviceId: string): CacheVariableRecord[] =>
  Object.values(core.state.cacheVariables).filter((c) => c.serviceId === serviceId);

/** The values a service's variables hold go (events are forgotten); the variables stay. */
export function dropCacheValues(core: EmulatorCore, serviceId: string): void {
  for (const c of cacheVariablesOf(core, serviceId)) delete core.state.cacheValues[c.id];
}

/** A deleted service's orchestration goes, and its variables and their values with it. */
export function dropCacheVariables(core: EmulatorCore, serviceId: string): void {
  dropCacheValues(core, serviceId);
  for (const c of cacheVariablesOf(core, serviceId)) delete core.state.cacheVariables[c.id];
}

// The values of a service orchestration's cache variables, kept per variable in the state (so a
// data file keeps them). PagerDuty: "both variable types are populated whenever an event matches
// the conditions assigned to a cache variable" (no conditions: every event). Each event updates
// them before the rules run, so the rules see the value the event itself made:
// - recent_value: the regex on `source` (capture groups appended, or the whole match); an event
//   whose source does not match leaves the value as it was; never set: `cache_var.<name>` is nil;
// - trigger_event_count: the matching trigger events of the last `ttl_seconds` (a sliding window,
//   the current event included); 0 when there are none;
// - external_data: set through its data endpoint, which the emulator does not serve: nil.
// Disabled variables are nil. A dry run computes the same values and keeps none.
import { type CacheValueRecord, cacheVariablesOf } from "./model";
import type { EmulatorCore } from "../../core";
import type { ServiceRecord } from "../../store";
import { compiledCacheVariable } from "../../pcl/compile";
import { asText, evaluateCondition, MISSING, resolvePath } from "../../pcl/conditions";
import type { RoutedEvent } from "../../pcl/event-model";
import { PclError } from "../../pcl/pcl-ast";
import { cachedRegex, extract } from "../../pcl/regex";
import type { CacheVariableTrace } from "../../pcl/trace";

export interface CacheEvaluation {
  /** By name, as `cache_var.<name>` reads them. */
  values: Record<string, unknown>;
  trace: CacheVariableTrace[];
}

export function updateCacheVariables(
  core: EmulatorCore,
  s: ServiceRecord,
  routed: RoutedEvent,
  isTrigger: boolean,
  now: number,
  keep: boolean,
): CacheEvaluation {
  const store = core.state.cacheValues;
  const vars = cacheVariablesOf(core, s.id);
  const before: Record<string, unknown> = {};
  for (const c of vars) {
    const v = store[c.id];
    if (c.disabled || v?.type !== c.configuration.type) continue;
    if (v.type === "recent_value" && v.value !== undefined) before[c.name] = v.value;
  }
  const root = (name: string) => (name === "event" ? routed.event : name === "raw_event" ? routed.raw_event : name === "cache_var" ? before : MISSING);
  const values: Record<string, unknown> = {};
  const trace: CacheVariableTrace[] = [];
  for (const c of vars) {
    const type = String(c.configuration.type);
    const t: CacheVariableTrace = { name: c.name, type, disabled: c.disabled, matched: null, value: null, warnings: [] };
    trace.push(t);
    if (c.disabled || (type !== "recent_value" && type !== "trigger_event_count")) continue;
    const compiled = compiledCacheVariable(c);
    let matched = compiled.conditions.length === 0;
    for (const cond of compiled.conditions) {
      if (!cond.node) {
        t.warnings.push(`${cond.expression} does not parse: ${cond.error?.message}`);
        continue;
      }
      const r = evaluateCondition(cond.expression, cond.node, { root, now, count: () => 0, resetCount: () => undefined });
      t.warnings.push(...r.warnings);
      if ((matched = r.matched)) break;
    }
    t.matched = matched;
    // Kept values change in place; a dry run only reads them.
    const old: CacheValueRecord = store[c.id]?.type === type ? store[c.id] : { type };
    if (type === "recent_value") {
      let value = old.value;
      if (matched) {
        const found = compiled.source instanceof PclError ? undefined : resolvePath(root, compiled.source);
        const taken = found?.found && found.value !== null ? extract(cachedRegex(String(c.configuration.regex)), asText(found.value)) : undefined;
        if (taken === undefined)
          t.warnings.push(`${String(c.configuration.source)} ${found?.found ? "does not match the regex" : "does not exist"}: the value stays as it was`);
        else value = taken;
      }
      if (value !== undefined) values[c.name] = value;
      if (keep && value !== undefined) store[c.id] = { type, value };
    } else {
      // Hits are in time order: the expired ones are at the front.
      const hits = old.hits ?? [];
      const since = now - Number(c.configuration.ttl_seconds) * 1000;
      let first = 0;
      while (first < hits.length && hits[first] <= since) first++;
      const counted = matched && isTrigger;
      values[c.name] = hits.length - first + (counted ? 1 : 0);
      if (keep) {
        hits.splice(0, first);
        if (counted) hits.push(now);
        store[c.id] = { type, hits };
      }
    }
    t.value = values[c.name] ?? null;
  }
  return { values, trace };
}

// What a routing run checks before it sends a case: the services the cases reach, learnt by one dry
// run per integration (it changes nothing), and whether their events go through their orchestration.
// A service whose orchestration is not active (`/active` false) passes every event around its rules:
// each case would fail for that one reason, so the run stops with it instead (nothing judged).
import { PagerDutyError } from "../errors";
import type { EmulatorClient, Trace } from "./routing-emulator";

/** A trigger only a dry run sees: it tells the integration's service and changes nothing. */
export const PROBE = { event_action: "trigger", payload: { summary: "pagerduty-routing-test probe", source: "pagerduty-routing-test", severity: "info" } };

/** The services the cases send to, each with what a dry run of it showed (one per service). */
export async function probeServices(emu: EmulatorClient, keys: ReadonlyMap<string, string>): Promise<Trace[]> {
  const byService = new Map<string, Trace>();
  for (const key of keys.values()) {
    const trace = await emu.dryRun({ routing_key: key, ...PROBE });
    if (!byService.has(trace.service.id)) byService.set(trace.service.id, trace);
  }
  return [...byService.values()];
}

/** The services whose events would bypass their orchestration. */
export class OrchestrationBypassedError extends PagerDutyError {
  constructor(readonly services: readonly Trace["service"][]) {
    const lines = services.map((s) => `the orchestration of service ${JSON.stringify(s.name)} (${s.id}) is not active: events bypass it`);
    const todo = services.length === 1 ? "set active: true on its ServiceOrchestration" : "set active: true on their ServiceOrchestrations";
    // A state of the account that forbids the run, not a fault of the case file.
    super("ERR_CONFLICT", [...lines, todo].join("\n"));
    this.name = "OrchestrationBypassedError";
  }
}

/**
 * Throws when a service's events would bypass its orchestration: its dry run ran no orchestration
 * (`orchestration: null`) and was not ignored (a disabled service, or one in maintenance, runs none
 * either, and the cases may mean to show that).
 */
export function assertOrchestrated(traces: readonly Trace[]): void {
  const bypassed = traces.filter((t) => t.orchestration === null && t.outcome.kind !== "ignored").map((t) => t.service);
  if (bypassed.length) throw new OrchestrationBypassedError(bypassed);
}

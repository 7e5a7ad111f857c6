// One run of a case file on the emulator, as the default routing test and replay both make it: a
// recorded file's instants moved by whole weeks to the emulator's clock, every `at` checked before
// anything is sent, the events of the services the cases reach reset, then the cases in order (the
// clock moved to each one's `at`), each event's trace kept. Routing keys travel in event bodies only.
import { CasesError, type CaseFile, type RoutingCase } from "./routing-cases";
import type { EmulatorClient, OutgoingEvent } from "./routing-emulator";
import { judge } from "./routing-expect";
import { assertOrchestrated, probeServices } from "./routing-preflight";
import type { CaseResult } from "./routing-report";
import { resolveCaseTime, shiftedTime, weeksToClock } from "./routing-time";

/** The Events API v2 event of a case, sent to `key`. */
export function outgoing(c: RoutingCase, key: string): OutgoingEvent {
  const { event_action, dedup_key, ...payload } = c.event;
  return {
    routing_key: key,
    event_action,
    ...(dedup_key !== undefined ? { dedup_key } : {}),
    ...(event_action === "trigger" ? { payload } : {}),
  };
}

/**
 * Resets the events of every service the cases send to (learnt by dry runs), once none of them
 * would pass the events around its orchestration (routing-preflight.ts; it throws, nothing reset).
 */
export async function resetServices(emu: EmulatorClient, keys: ReadonlyMap<string, string>): Promise<number> {
  const services = await probeServices(emu, keys);
  assertOrchestrated(services);
  for (const { service } of services) await emu.resetEvents(service.id);
  return services.length;
}

/**
 * The cases of `file` as they run at the clock `now`: a recorded file's instants (in the past) all
 * moved by the same whole number of weeks so the earliest lands at or after the clock; any other
 * file's cases as they are, unless `everyFile` (replay's second run comes after the first's clock).
 */
export function casesAtClock(file: CaseFile, now: number, everyFile = false): RoutingCase[] {
  if (!file.recorded && !everyFile) return file.cases;
  const instants = file.cases.flatMap((c) => (c.at?.kind === "instant" ? [c.at.ms] : []));
  if (!instants.length) return file.cases;
  const weeks = weeksToClock(Math.min(...instants), now);
  return weeks ? file.cases.map((c) => (c.at ? { ...c, at: shiftedTime(c.at, weeks) } : c)) : file.cases;
}

/**
 * Checks every case's `at` before anything is sent: the clock only moves forward, so an instant
 * before the time the cases above it moved the clock to cannot be reached.
 */
export function checkTimes(cases: readonly RoutingCase[], now: number): void {
  let clock = now;
  for (const [i, c] of cases.entries()) {
    if (!c.at) continue;
    const at = resolveCaseTime(c.at, clock);
    if (at < clock)
      throw new CasesError(
        `cases[${i}].at: ${new Date(at).toISOString()} is before the emulator's clock ` +
          `(${new Date(clock).toISOString()}${i ? " after the cases above" : ""}), which only moves forward: ` +
          `name a wall-clock time ("Sat 03:00 Europe/London") instead`,
      );
    clock = at;
  }
}

/** Moves the emulator's clock to a case's `at` (only a wall-clock time needs to know the clock first). */
async function moveClock(emu: EmulatorClient, c: RoutingCase): Promise<void> {
  if (c.at) await emu.moveClockTo(resolveCaseTime(c.at, c.at.kind === "instant" ? 0 : await emu.now()));
}

/** Runs the cases; resolves to the results, in order. */
export async function runCases(cases: readonly RoutingCase[], emu: EmulatorClient, keys: ReadonlyMap<string, string>): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    await moveClock(emu, c);
    const trace = await emu.send(outgoing(c, keys.get(c.integration)!));
    results.push({ name: c.name, verdicts: judge(c.expect, trace), trace });
  }
  return results;
}

/** What a run of a file did: the cases as they ran (times moved), the services reset, each case's result. */
export interface FileRun {
  cases: RoutingCase[];
  services: number;
  results: CaseResult[];
}

/** How a file runs: `started` hears how many services were reset before the first event goes. */
export interface RunOptions {
  started?: (services: number) => void;
  /** Move every file's instants to the clock, not only a recorded file's. */
  moveEveryFile?: boolean;
}

/** Runs `file` on the emulator: times moved and checked, services reset, cases in order. */
export async function runCaseFile(file: CaseFile, emu: EmulatorClient, keys: ReadonlyMap<string, string>, opts: RunOptions = {}): Promise<FileRun> {
  const now = await emu.now();
  const cases = casesAtClock(file, now, opts.moveEveryFile);
  checkTimes(cases, now);
  const services = await resetServices(emu, keys);
  opts.started?.(services);
  return { cases, services, results: await runCases(cases, emu, keys) };
}

// The emulator's controls as the benchmark uses them: statistics, rate-limit windows, latency.
import { request } from "undici";
import type { EmulatorProcess } from "../../tests/e2e/harness";
import { type Counts, counts, type EmulatorStats, type Limit } from "../compare-math";

export const PER_MINUTE = 960;
/** Every timed phase starts in a fresh window (the rate-limit windows are reset right before it). */
export const FRESH: Limit = { perMinute: PER_MINUTE, startBudget: PER_MINUTE, resetSeconds: 60 };
/** "No rate limit" for the scale case: the emulator's limit set far above anything a run sends. */
export const UNLIMITED = 1_000_000_000;

export async function admin(emu: EmulatorProcess, method: string, p: string, body?: unknown): Promise<any> {
  const r = await emu.admin(method, p, body);
  if (r.status >= 300) throw new Error(`emulator admin ${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const stats = (emu: EmulatorProcess): Promise<EmulatorStats> => admin(emu, "GET", "/_emulator/stats");
export const snapshot = async (emu: EmulatorProcess): Promise<Counts> => counts(await stats(emu));

/** New windows for every client: the next phase starts with the whole budget. */
export const freshWindows = (emu: EmulatorProcess, perMinute = PER_MINUTE) => admin(emu, "PUT", "/_emulator/rate-limit", { perMinute });

export async function setLatency(emu: EmulatorProcess, ms: number): Promise<void> {
  await admin(emu, "DELETE", "/_emulator/faults");
  if (ms > 0) await admin(emu, "POST", "/_emulator/faults", { route: "*", latencyMs: ms });
}

/** The limit must be on and at 960/min, as the targets assume; an authenticated reply says so. */
export async function checkRateLimit(emu: EmulatorProcess): Promise<void> {
  const res = await request(`${emu.apiUrl}/services?limit=1`, {
    reset: true,
    headers: { accept: "application/vnd.pagerduty+json;version=2", authorization: `Token token=${emu.apiKey}` },
  });
  await res.body.text();
  const limit = Number(res.headers["ratelimit-limit"]);
  if (res.statusCode !== 200 || limit !== PER_MINUTE)
    throw new Error(`the emulator's rate limit is not ${PER_MINUTE}/min (status ${res.statusCode}, ratelimit-limit ${res.headers["ratelimit-limit"]})`);
}

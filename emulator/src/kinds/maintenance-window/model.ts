// A maintenance window as the state keeps it, where it stands by the emulator's clock, and what it
// does to the services it names: while it is ongoing they are in maintenance (their status shows
// "maintenance" and events to them change nothing), through the core's `maintenance` hook.
import type { EmulatorCore } from "../../core";
import { invalid } from "../../errors";
import { owned, type ServiceRecord } from "../../store";

declare module "../../store" {
  interface KindTables {
    maintenanceWindows: Record<string, MaintenanceWindowRecord>;
    /** Last sequence number handed out, by account id. */
    maintenanceWindowNumbers: Record<string, number>;
  }
}

export interface MaintenanceWindowRecord {
  id: string;
  accountId: string;
  /** Per account, from 1, in the order windows were created (`sequence_number`). */
  sequence: number;
  /** Epoch ms; PagerDuty keeps whole seconds. */
  start: number;
  end: number;
  description: string | null;
  /** The services it names, in the order given. */
  serviceIds: string[];
  /** The user who made it (a user credential, or the `From` header), none for an app token or account key without one. */
  createdBy: string | null;
}

export type Standing = "past" | "ongoing" | "future";

export function standing(w: MaintenanceWindowRecord, now: number): Standing {
  if (w.end <= now) return "past";
  return w.start <= now ? "ongoing" : "future";
}

/** The list's `filter`: which standings each value takes (PagerDuty's default, `all`, takes every one). */
export const FILTERS: Record<string, readonly Standing[]> = {
  past: ["past"],
  future: ["future"],
  ongoing: ["ongoing"],
  open: ["ongoing", "future"],
  all: ["past", "ongoing", "future"],
};

/** An ISO 8601 date and time with its offset (`2026-12-24T18:00:00Z`, `...-05:00`), in ms, truncated to the second. */
export function parseTime(field: string, v: unknown): number {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
  const ms = typeof v === "string" && iso.test(v) ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(ms))
    throw invalid(`"${field}" must be an ISO 8601 date and time with a time zone offset (2026-12-24T18:00:00Z), got ${JSON.stringify(v)?.slice(0, 60)}`);
  return Math.floor(ms / 1000) * 1000;
}

/** The window's times as replies show them: UTC, whole seconds. */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The window that puts `s` in maintenance now, if any (the one ending last). */
export function ongoingWindowOf(core: EmulatorCore, s: ServiceRecord): MaintenanceWindowRecord | undefined {
  const now = core.clock.now();
  let found: MaintenanceWindowRecord | undefined;
  for (const w of Object.values(core.state.maintenanceWindows))
    if (w.accountId === s.accountId && w.serviceIds.includes(s.id) && standing(w, now) === "ongoing" && (!found || w.end > found.end)) found = w;
  return found;
}

/** The core's `maintenance` hook: why `s` is in maintenance now. */
export function maintenanceOf(core: EmulatorCore, s: ServiceRecord): string | undefined {
  const w = ongoingWindowOf(core, s);
  return w && `the service is in maintenance window ${w.id} until ${isoSeconds(w.end)}`;
}

/**
 * A deleted service leaves every window that names it. A window left with no service is deleted:
 * PagerDuty makes and keeps none without a service (create and update need one), and it would hold
 * nothing back.
 */
export function leaveWindows(core: EmulatorCore, s: ServiceRecord): void {
  for (const w of Object.values(core.state.maintenanceWindows)) {
    if (!w.serviceIds.includes(s.id)) continue;
    w.serviceIds = w.serviceIds.filter((id) => id !== s.id);
    if (!w.serviceIds.length) delete core.state.maintenanceWindows[w.id];
  }
}

export const findWindow = (core: EmulatorCore, id: string, accountId: string) => owned(core.state.maintenanceWindows, id, accountId);

// Consistency lag. PagerDuty's API is eventually consistent: a service, integration or event rule
// created a moment ago can answer 404 and be missing from listings for a few seconds (longer in
// the EU region), while the create itself succeeded. With a window set (`--lag`, `--lag-eu`,
// `PUT /_emulator/lag`), each such object is hidden from every request but its own create until
// its window ends. Windows are measured on the emulator's clock (wall time, plus any admin
// advance), so real clients see objects appear after real seconds.
import type { Clock } from "./clock";
import { invalid, notFound } from "./errors";
import type { Stats } from "./stats";
import type { Region } from "./store";
import { isObject } from "./validate";

export interface LagSettings {
  /** Window of objects created in a US account, ms. */
  ms: number;
  /** Window of objects created in an EU account, ms. */
  euMs: number;
  /** Whether a DELETE of a hidden object (or under a hidden service) answers 404 too. */
  deletes: boolean;
}

/** An hour: far beyond the minutes PagerDuty's own clients wait, small enough to be a mistake past it. */
export const MAX_LAG_MS = 3_600_000;

export const NO_LAG: LagSettings = { ms: 0, euMs: 0, deletes: false };

const KEYS = ["ms", "euMs", "deletes"];

/** Windows kept before ended ones are swept (a bulk create under lag never grows the map for long). */
const SWEEP_AT = 10_000;

/** `PUT /_emulator/lag`: the keys given replace the current settings; the others stay. */
export function parseLag(body: unknown, current: LagSettings): LagSettings {
  if (!isObject(body)) throw invalid("The body must be a JSON object {ms?, euMs?, deletes?}");
  const errors = Object.keys(body)
    .filter((k) => !KEYS.includes(k))
    .map((k) => `"${k}" is not a lag setting (known: ${KEYS.join(", ")})`);
  for (const k of ["ms", "euMs"] as const) {
    const v = body[k];
    if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_LAG_MS))
      errors.push(`"${k}" must be an integer number of milliseconds from 0 to ${MAX_LAG_MS}`);
  }
  if (body.deletes !== undefined && typeof body.deletes !== "boolean") errors.push('"deletes" must be true or false');
  if (errors.length) throw invalid(...errors);
  return {
    ms: (body.ms as number | undefined) ?? current.ms,
    euMs: (body.euMs as number | undefined) ?? current.euMs,
    deletes: (body.deletes as boolean | undefined) ?? current.deletes,
  };
}

export class Lag {
  settings: LagSettings;
  /** Object id → end of its window (clock ms). Not persisted: after a restart everything is visible. */
  private readonly hiddenUntil = new Map<string, number>();

  constructor(
    private readonly initial: LagSettings,
    private readonly clock: Clock,
    private readonly stats: Stats,
  ) {
    this.settings = { ...initial };
  }

  /** Start the window of an object just created in an account of `region` (fixed from now on). */
  created(id: string, region: Region): void {
    const window = region === "eu" ? this.settings.euMs : this.settings.ms;
    if (window <= 0) return;
    // Ended windows are dropped when next looked at; objects never looked at again are swept here.
    if (this.hiddenUntil.size >= SWEEP_AT) for (const other of [...this.hiddenUntil.keys()]) this.isHidden(other);
    this.hiddenUntil.set(id, this.clock.now() + window);
  }

  /** Whether anything may be hidden: with no lag, requests skip every check. */
  get active(): boolean {
    return this.hiddenUntil.size > 0;
  }

  isHidden(id: string): boolean {
    const until = this.hiddenUntil.get(id);
    if (until === undefined) return false;
    if (until > this.clock.now()) return true;
    this.hiddenUntil.delete(id);
    return false;
  }

  /** A not-found answered only because of the lag (counted for `stats.lag.hidden404`). */
  countHidden404(): void {
    this.stats.lag.hidden404++;
  }

  /** A 404 (`missing`, counted as a hidden one) if `id` is hidden; nothing otherwise. */
  notFoundIfHidden(id: string, missing: string): void {
    if (!this.isHidden(id)) return;
    this.countHidden404();
    throw notFound(missing);
  }

  /** `items` without the hidden ones, counting each left out (`stats.lag.leftOut`). */
  visible<T>(items: T[], idOf: (item: T) => string | string[]): T[] {
    if (!this.active) return items;
    const out = items.filter((item) => ![idOf(item)].flat().some((id) => this.isHidden(id)));
    this.stats.lag.leftOut += items.length - out.length;
    return out;
  }

  /** Back to the startup settings, nothing hidden. */
  reset(): void {
    this.settings = { ...this.initial };
    this.hiddenUntil.clear();
  }
}

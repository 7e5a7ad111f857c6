// PagerDuty is eventually consistent: an object created a moment ago can answer 404 to a read, an
// update, a delete and the create of a child, and be left out of listings, for a few seconds (longer
// in the EU region; PagerDuty's Terraform provider waits 2 minutes, 5 since its issue #1088). So a
// 404 is a fact about an object only once the object is old enough to be visible everywhere:
// - an object known to be younger than the window (this process made it, or its state records when
//   it was made) is waited for until the window has passed, ending as soon as it answers;
// - any other 404 gets a second look after a back-off before it is believed, so an object deleted
//   by hand is still reported gone within seconds;
// - "nothing matches" from a search is believed only once the window has passed since the object
//   could have been made (operations/recovery.ts).
// None of this sends a request unless a 404 (or an empty search) came first: with no lag, requests
// are what they were.
import { setTimeout as sleep } from "node:timers/promises";
import { isNotFound } from "../errors";

/** Waits before the second and third look at an object of unknown age that answered 404. */
const SECOND_LOOKS_MS = [1_000, 2_000];

/** Back-off while waiting for a young object: short first (the lag is usually seconds), then capped. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;

export interface ConsistencyOptions {
  /** How long after its create an object may stay invisible (ms). */
  windowMs: number;
  now?: () => number;
  /** Waits `ms` (tests: instantly, recording the waits). */
  wait?: (ms: number) => Promise<unknown>;
}

/** The state key that records when this provider created an object (epoch ms). */
export const CREATED_AT_KEY = "__createdAt";

export class Consistency {
  readonly windowMs: number;
  /** The clock every age is measured on (epoch ms). */
  readonly now: () => number;
  private readonly wait: (ms: number) => Promise<unknown>;
  /** Objects this process created, `Kind/id` to epoch ms: children's creates depend on them. */
  private readonly born = new Map<string, number>();
  /** The latest of those creates by kind: a listing that misses a name may be missing one of them. */
  private readonly latestOfKind = new Map<string, number>();

  constructor(options: ConsistencyOptions) {
    this.windowMs = Math.max(0, options.windowMs);
    this.now = options.now ?? Date.now;
    this.wait = options.wait ?? ((ms) => sleep(ms));
  }

  /** Records that this process created (or recovered) `kind/id` just now; returns the time recorded. */
  created(kind: string, id: string): number {
    const at = this.now();
    this.born.set(`${kind}/${id}`, at);
    this.latestOfKind.set(kind, at);
    return at;
  }

  /** When this process last created an object of `kind` (undefined: it created none). */
  lastCreated(kind: string): number | undefined {
    return this.latestOfKind.get(kind);
  }

  /** When this process created `kind/id` (undefined: it did not). */
  createdAt(kind: string, id: string): number | undefined {
    return this.born.get(`${kind}/${id}`);
  }

  /** When this process made the youngest of `ids` of `kind` (undefined: none of them): a request naming them all waits for it. */
  youngest(kind: string, ids: readonly string[]): number | undefined {
    const made = ids.map((id) => this.createdAt(kind, id)).filter((t): t is number => t !== undefined);
    return made.length ? Math.max(...made) : undefined;
  }

  /** Until when an object made at `since` may still be invisible (0: unknown age, no wait owed). */
  private until(since: number | undefined): number {
    return since === undefined ? 0 : since + this.windowMs;
  }

  /**
   * Runs `op`; a 404 is believed only after a second look, and while the object may still be
   * invisible (made at `since`, within the window) it is asked again until it answers or the window
   * has passed. Anything but a 404 is passed on at once.
   */
  async untilVisible<T>(since: number | undefined, op: () => Promise<T>): Promise<T> {
    const deadline = this.until(since);
    const looks = [...SECOND_LOOKS_MS];
    let poll = FIRST_POLL_MS;
    for (;;) {
      try {
        return await op();
      } catch (e) {
        if (!isNotFound(e)) throw e;
        const left = deadline - this.now();
        let pause: number | undefined;
        if (left > 0) {
          pause = Math.min(poll, left);
          poll = Math.min(poll * 2, MAX_POLL_MS);
        } else {
          pause = looks.shift();
        }
        if (pause === undefined) throw e;
        await this.wait(pause);
      }
    }
  }

  /**
   * Runs `search` until it finds something or an object made at `since` would be visible: an empty
   * answer before then may only be lag. One search when the window has passed already.
   */
  async search<T>(since: number, search: () => Promise<T[]>): Promise<T[]> {
    const deadline = this.until(since);
    let poll = 1_000;
    for (;;) {
      const found = await search();
      const left = deadline - this.now();
      if (found.length || left <= 0) return found;
      await this.wait(Math.min(poll, left));
      poll = Math.min(poll * 2, 10_000);
    }
  }
}

/** The creation time a resource's state records (this provider's stamp, else the API's createdAt). */
export function recordedCreation(props: Record<string, unknown> | undefined): number | undefined {
  const stamp = props?.[CREATED_AT_KEY];
  if (typeof stamp === "number" && Number.isFinite(stamp)) return stamp;
  const api = typeof props?.createdAt === "string" ? Date.parse(props.createdAt) : NaN;
  return Number.isNaN(api) ? undefined : api;
}

// A Consistency on a virtual clock: waits return at once and move the clock, so a test can wait out
// a two-minute window in no time and see every wait it asked for.
import { Consistency } from "../../../provider/kernel/consistency";

export interface VirtualConsistency {
  consistency: Consistency;
  /** Every wait, in ms, in order. */
  waits: number[];
}

export function virtualConsistency(windowMs = 120_000): VirtualConsistency {
  // Real time plus what was waited: times the code takes from Date.now (a journal's sentAt) compare right.
  let ahead = 0;
  const waits: number[] = [];
  const consistency = new Consistency({
    windowMs,
    now: () => Date.now() + ahead,
    wait: async (ms) => {
      waits.push(ms);
      ahead += ms;
    },
  });
  return { consistency, waits };
}

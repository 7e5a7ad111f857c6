// Per-service write lanes for event rules. The engine writes sibling rules in parallel, and each
// write shifts the others, so every write to a service's rules goes through that service's lane in
// this process. The lane models where the rules it wrote sit, from the replies, so in the common case
// a write costs exactly its one request; only when a burst left a rule out of place does the last
// write of the burst list the rules and move the ones that need it (`reconcile`).
import { applyMove, effectivePosition, planMoves } from "../kernel/rule-order";

/** Lists the service's rule ids in order, and moves one rule (one request each). */
export interface RuleMover {
  /** `expect`: rules this lane wrote, which the listing must show (a young one may be missing for a while). */
  list(service: string, expect: readonly string[]): Promise<string[]>;
  move(service: string, id: string, position: number): Promise<unknown>;
}

/**
 * A service's lane. Its model (where the rules written here sit, which positions were asked for, how
 * many rules there are) changes only through the methods below, each keeping it consistent with
 * the API's shifting rule; resource code reports what a write's reply said, nothing else.
 */
export class Lane {
  private tail: Promise<unknown> = Promise.resolve();
  /** Writes waiting for their turn, or creates holding the lane; only the last of a burst reconciles. */
  private queued = 0;
  /** Positions requested by rules written in this process. */
  private readonly desired = new Map<string, number>();
  /**
   * Live positions of the rules written in this process, kept from the replies and the API's shifting
   * rule (an insert or move shifts the rules after it), so the order is checked without a request.
   */
  private known = new Map<string, number>();
  /** A write moved rules the model does not know: the next reconcile lists instead of trusting it. */
  private stale = false;
  /** Rules of the service, when a listing or a clamped insert told us. */
  private count?: number;

  constructor(
    private readonly service: string,
    private readonly mover: RuleMover,
  ) {}

  /** Where the model last saw `id`. */
  at(id: string): number | undefined {
    return this.known.get(id);
  }

  /** The position the program asks of `id` (undefined: none, the rule goes where it is put). */
  ask(id: string, position: number | undefined): void {
    if (position === undefined) this.desired.delete(id);
    else this.desired.set(id, position);
  }

  /**
   * A create's reply: the rule `id` sits at `at` (undefined: the reply did not say, so the model can
   * no longer be trusted). A reply short of the requested position was clamped: the rule is last.
   */
  created(id: string, requested: number | undefined, at: number | undefined): void {
    this.ask(id, requested);
    if (at === undefined) {
      this.stale = true;
      return;
    }
    if (requested !== undefined && at < requested) this.count = at;
    this.place(id, at, undefined, true);
  }

  /** A delete of `id`, which the state last saw at `from`, went through. */
  deleted(id: string, from: number | undefined): void {
    this.desired.delete(id);
    this.remove(id, this.known.get(id) ?? from);
    if (this.count !== undefined) this.count--;
  }

  /** The model after `id` left position `from` (unknown: the rules it shifted are unknown too). */
  private remove(id: string, from: number | undefined): void {
    this.known.delete(id);
    if (from === undefined) {
      if (this.known.size) this.stale = true;
      return;
    }
    for (const [k, p] of this.known) if (p > from) this.known.set(k, p - 1);
  }

  /** The model after `id` was written and the reply put it at `at`; `from` is where it was, if it existed. */
  place(id: string, at: number, from: number | undefined, inserted: boolean): void {
    if (!inserted) this.remove(id, this.known.get(id) ?? from);
    for (const [k, p] of this.known) if (p >= at) this.known.set(k, p + 1);
    this.known.set(id, at);
    if (this.count !== undefined) this.count += inserted ? 1 : 0;
  }

  /** Whether every rule written here sits where its program asked, as far as the model knows. */
  inPlace(): boolean {
    if (this.stale) return this.desired.size === 0;
    for (const [id, want] of this.desired) if (this.known.get(id) !== want) return false;
    return true;
  }

  /**
   * Runs one write alone in the lane. The last write of a burst then brings the rules written here
   * to their requested positions: only when the model says one is out of place.
   */
  write<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const turn = async () => {
      this.queued--;
      const result = await fn();
      if (this.queued === 0 && !this.inPlace()) await this.reconcile();
      return result;
    };
    const run = this.tail.then(turn, turn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Holds the lane from a create's arrival, not only while its POST waits its turn: a sibling's write
   * that ends while this create is still settling its intent must not reconcile without it. The
   * returned release reconciles when it was the last holder.
   */
  hold(): () => Promise<void> {
    this.queued++;
    let held = true;
    return async () => {
      if (!held) return;
      held = false;
      this.queued--;
      if (this.queued === 0 && !this.inPlace()) await this.write(async () => undefined);
    };
  }

  /** The position to report for a rule written here: the requested one once it is satisfied. */
  reported(id: string, live: number | undefined): number | null {
    const want = this.desired.get(id);
    const at = this.known.get(id) ?? live;
    if (want === undefined || at === undefined) return at ?? null;
    if (this.queued > 0 || at === want) return want; // a queued write reconciles after this one
    return effectivePosition(want, at, this.count ?? at + 1);
  }

  private async reconcile(): Promise<void> {
    let order = await this.mover.list(this.service, [...new Set([...this.known.keys(), ...this.desired.keys()])]);
    for (const move of planMoves(order, this.desired)) {
      await this.mover.move(this.service, move.id, move.position);
      order = applyMove(order, move);
    }
    this.known = new Map([...this.known.keys()].filter((id) => order.includes(id)).map((id) => [id, order.indexOf(id)]));
    this.count = order.length;
    this.stale = false;
  }
}

/** The lanes of one account, one per service. */
export class RuleLanes {
  private readonly lanes = new Map<string, Lane>();

  /** The service's lane; `mover` (the rule resource's requests) is taken when the lane is made. */
  of(service: string, mover: RuleMover): Lane {
    let lane = this.lanes.get(service);
    if (!lane) this.lanes.set(service, (lane = new Lane(service, mover)));
    return lane;
  }
}

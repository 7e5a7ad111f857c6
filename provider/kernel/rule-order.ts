// Where a service's event rules should sit and the fewest moves that put them there. Rules are
// ordered: a rule's position is its index, and inserting or moving one shifts the others.

/**
 * Where every rule should be: rules with a requested position take it (ties keep their current
 * order; a position past the end means last), the others fill the free slots in their current order.
 */
export function targetOrder(current: readonly string[], desired: ReadonlyMap<string, number>): string[] {
  const placed = current.filter((id) => desired.has(id)).sort((a, b) => desired.get(a)! - desired.get(b)! || current.indexOf(a) - current.indexOf(b));
  const others = current.filter((id) => !desired.has(id));
  const out: string[] = [];
  let p = 0;
  let o = 0;
  for (let slot = 0; slot < current.length; slot++) {
    out.push(p < placed.length && (desired.get(placed[p])! <= slot || o >= others.length) ? placed[p++] : others[o++]);
  }
  return out;
}

export interface Move {
  id: string;
  position: number;
}

/** Applies one API move: the rule is taken out and inserted at `position` (the others shift). */
export function applyMove(list: readonly string[], { id, position }: Move): string[] {
  const rest = list.filter((x) => x !== id);
  rest.splice(Math.min(position, rest.length), 0, id);
  return rest;
}

/**
 * The moves that bring `current` to `targetOrder`, touching only rules with a requested position
 * (rules the program does not position are never written). Rules are placed by ascending target
 * slot; each goes after as many already-placed rules as its slot says, ignoring rules still to move.
 */
export function planMoves(current: readonly string[], desired: ReadonlyMap<string, number>): Move[] {
  const target = targetOrder(current, desired);
  const pending = new Set(target.filter((id) => desired.has(id)));
  let list = [...current];
  const moves: Move[] = [];
  target.forEach((id, slot) => {
    if (!pending.delete(id)) return;
    const rest = list.filter((x) => x !== id);
    let at = 0;
    for (let placed = 0; placed < slot; at++) if (!pending.has(rest[at])) placed++;
    // Any index between `at` and the next placed rule keeps the placed order: no write needed.
    let last = at;
    while (last < rest.length && pending.has(rest[last])) last++;
    const now = list.indexOf(id);
    if (now >= at && now <= last) return;
    moves.push({ id, position: at });
    list = applyMove(list, { id, position: at });
  });
  return moves;
}

/**
 * Reported position: the live one, except that a requested position past the end is satisfied by
 * being last (the API clamps it), so it is reported as requested and causes no perpetual diff.
 */
export function effectivePosition(requested: number | undefined, live: number, count: number): number {
  return requested !== undefined && requested > live && live === count - 1 ? requested : live;
}

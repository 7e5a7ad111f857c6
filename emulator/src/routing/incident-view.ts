// What an orchestration adds to an incident's representation: its priority (a reference to one of
// the account's priorities, GET /priorities), null when no rule set one.
import { reference } from "../http";
import { prioritiesOf } from "../catalog";
import type { IncidentRecord } from "../store";

export function priorityRef(base: string, i: IncidentRecord) {
  const p = i.priorityId ? prioritiesOf(i.accountId, base).find((x) => x.id === i.priorityId) : undefined;
  return p ? reference("priority", p.id, p.name, p.self) : null;
}

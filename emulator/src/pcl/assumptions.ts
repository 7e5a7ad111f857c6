// The emulator's own choices where PagerDuty's pages are silent. A trace lists the ones that
// decided its event's outcome (`assumed`), so a routing test that passes on one of them says so:
// a green run is only as good as the guess. The README's fidelity table names the same ids.

export const ASSUMPTIONS = {
  "dedup-no-actions": "a deduplicated trigger applies no actions again: only its severity (after the rules) can raise the open alert's",
  "dedup-lower-severity": "a deduplicated trigger with a lower severity leaves the open alert's severity and the incident's urgency as they were",
  "joined-incident-keeps-fields":
    "an alert that joins an open incident leaves that incident's notes, priority, escalation policy and custom fields as they were",
  "route-loop-ends": "a route_to back into a set the event already went through ends the walk there",
  "later-set-sees-extractions": "a rule's conditions see the event as the extractions of earlier sets left it",
  "event-action-field-follows-action": "event.event_action reads as an earlier event_action action set it",
  "ack-resolve-through-orchestration": "acknowledge and resolve events go through the orchestration too, and its actions apply to them",
  "held-alert-no-acknowledge": "a suppressed or suspended alert has no incident, so an acknowledge changes nothing",
  "trigger-count-per-rule": "trigger_count counts per rule, over the trigger events that reached that rule, the current one included",
  "release-after-disable": "a suspended alert triggers when its hold ends even if its service was disabled since",
} as const;

export type AssumptionId = keyof typeof ASSUMPTIONS;

/** An assumption as a trace lists it. */
export interface Assumption {
  id: AssumptionId;
  text: string;
}

/** Add assumption `id` to `list` once. */
export function assume(list: Assumption[], id: AssumptionId): void {
  if (!list.some((a) => a.id === id)) list.push({ id, text: ASSUMPTIONS[id] });
}

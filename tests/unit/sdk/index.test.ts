// Type-level checks of the generated SDK: ts-jest type-checks this file, so a type that stops
// compiling fails the suite. Nothing is constructed (no Pulumi engine here); the functions below
// are only compiled.
import type * as pulumi from "@pulumi/pulumi";
import type * as pagerduty from "../../../sdk";

/** Outputs are typed as precisely as inputs: nested fields need no cast. */
export function nestedOutputs(svc: pagerduty.Service, rule: pagerduty.ServiceEventRule, integ: pagerduty.ServiceIntegration) {
  const urgencyType: pulumi.Output<"constant" | "use_support_hours" | undefined> = svc.incidentUrgencyRule.apply((r) => r?.type);
  const days: pulumi.Output<number[] | undefined> = svc.supportHours.apply((h) => h?.daysOfWeek);
  const severity = rule.actions.apply((a) => a.severity?.value);
  const parsers = integ.emailParsers.apply((p) => p?.map((x) => x.matchPredicate.type));
  return { urgencyType, days, severity, parsers };
}

/** Nested inputs take outputs of other resources (Pulumi's Input at every level). */
export function nestedInputs(priority: pulumi.Output<string>, zone: pulumi.Output<string>): [pagerduty.ServiceEventRuleArgs, pagerduty.ServiceArgs] {
  return [
    { service: "PSVC", actions: { priority: { value: priority } } },
    {
      name: "n",
      escalationPolicy: "PEP",
      supportHours: { type: "fixed_time_per_day", timeZone: zone, startTime: "09:00:00", endTime: "17:00:00", daysOfWeek: [1, 2] },
    },
  ];
}

/** What programs wrote against the hand-written SDK still compiles. */
export function compatible(svc: pagerduty.Service, integ: pagerduty.ServiceIntegration, values: pagerduty.ServiceCustomFieldValues) {
  const status: pulumi.Output<string> = svc.status;
  const name: pulumi.Output<string> = svc.name;
  // Unset outputs are left out of state (0.x breaking change, CHANGELOG): undefined, not null.
  const key: pulumi.Output<string | undefined> = integ.integrationKey;
  const predicate: pagerduty.EmailMatchPredicate = { type: "all", children: [{ type: "contains", matcher: "x", part: "subject" }] };
  const value: pagerduty.CustomFieldValue = ["a", "b"];
  const stored: pulumi.Output<Record<string, pagerduty.CustomFieldValue>> = values.values;
  return { status, name, key, predicate, value, stored };
}

test("the SDK's types compile (checked by ts-jest when this file is compiled)", () => {
  expect(typeof nestedOutputs).toBe("function");
});

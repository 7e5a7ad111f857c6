import * as pulumi from "@pulumi/pulumi";
import { originOf } from "./origin";
import { providerFor } from "./provider";

export interface ServiceEventRuleArgs {
  /** Id of the service. Changing it replaces the rule. */
  service: pulumi.Input<string>;
  /**
   * 0-based position among the service's rules (first match wins). Rules of one service written
   * in the same `pulumi up` end at the positions requested; a position past the end means last.
   * Unset: not managed.
   */
  position?: pulumi.Input<number>;
  disabled?: pulumi.Input<boolean>;
  conditions?: pulumi.Input<{
    operator: "and" | "or";
    subconditions: {
      operator: "exists" | "nexists" | "equals" | "nequals" | "contains" | "ncontains" | "matches" | "nmatches";
      /** `value` is required except with exists/nexists. */
      parameters: { path: string; value?: string; options?: Record<string, unknown> };
    }[];
  }>;
  /** Exactly one of `activeBetween` (epoch milliseconds) and `scheduledWeekly`; `null` removes it. */
  timeFrame?: pulumi.Input<{
    activeBetween?: { startTime: number; endTime: number };
    /** `startTime` in milliseconds after midnight, `duration` in milliseconds, `weekdays` 1..7. */
    scheduledWeekly?: { startTime: number; duration: number; timezone: string; weekdays: number[] };
  } | null>;
  variables?: pulumi.Input<{ type: "regex"; name: string; parameters: { value: string; path: string } }[]>;
  /** Managed as a whole: an action removed from the program is removed from the rule. */
  actions?: pulumi.Input<{
    annotate?: { value: string } | null;
    eventAction?: { value: "trigger" | "resolve" } | null;
    /** `value` is a priority id. */
    priority?: { value: string } | null;
    severity?: { value: "info" | "warning" | "error" | "critical" } | null;
    suppress?: { value: boolean; thresholdValue?: number; thresholdTimeUnit?: "seconds" | "minutes" | "hours"; thresholdTimeAmount?: number } | null;
    /** `value` in seconds. */
    suspend?: { value: number } | null;
    /** Each with `template`, or with `source` and `regex`. */
    extractions?: { target: string; source?: string; regex?: string; template?: string }[];
  }>;
  /** Adopt the existing rule with this id (of `service`) instead of creating one; its managed fields are set to the declared values. */
  adoptId?: pulumi.Input<string>;
}

/**
 * An event rule of a PagerDuty service. Once the service's rules are converted
 * (`ServiceEventRulesConversion`), creating or updating a rule fails with an error naming the
 * conversion; deleting one only removes it from the state, with a warning.
 */
export class ServiceEventRule extends pulumi.dynamic.Resource {
  declare readonly service: pulumi.Output<string>;
  declare readonly position: pulumi.Output<number>;
  declare readonly disabled: pulumi.Output<boolean>;
  declare readonly conditions: pulumi.Output<Record<string, unknown> | null>;
  declare readonly timeFrame: pulumi.Output<Record<string, unknown> | null>;
  declare readonly variables: pulumi.Output<Record<string, unknown>[]>;
  declare readonly actions: pulumi.Output<Record<string, unknown>>;
  declare readonly summary: pulumi.Output<string>;

  constructor(name: string, args: ServiceEventRuleArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      position: undefined, disabled: undefined, conditions: undefined, timeFrame: undefined,
      variables: undefined, actions: undefined, summary: undefined,
    };
    super(providerFor("ServiceEventRule"), name, { ...outputs, ...args, __origin: originOf("ServiceEventRule", name, opts) }, opts, "pagerduty", "ServiceEventRule");
  }
}

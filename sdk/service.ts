import * as pulumi from "@pulumi/pulumi";
import { originOf } from "./origin";
import { providerFor } from "./provider";

type Urgency = "low" | "high" | "severity_based";

export interface ServiceArgs {
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** Id of the escalation policy. */
  escalationPolicy: pulumi.Input<string>;
  /** Seconds until an incident resolves itself; `null` disables. Unset: not managed (server default 14400). */
  autoResolveTimeout?: pulumi.Input<number | null>;
  /** Seconds until an acknowledged incident re-triggers; `null` disables. Unset: not managed (server default 1800). */
  acknowledgementTimeout?: pulumi.Input<number | null>;
  status?: pulumi.Input<"active" | "warning" | "critical" | "maintenance" | "disabled">;
  alertCreation?: pulumi.Input<"create_incidents" | "create_alerts_and_incidents">;
  incidentUrgencyRule?: pulumi.Input<{
    type: "constant" | "use_support_hours";
    urgency?: Urgency;
    duringSupportHours?: { type: "constant" | "use_support_hours"; urgency?: Urgency };
    outsideSupportHours?: { type: "constant" | "use_support_hours"; urgency?: Urgency };
  }>;
  supportHours?: pulumi.Input<{
    type: "fixed_time_per_day";
    timeZone: string;
    startTime: string;
    endTime: string;
    daysOfWeek: number[];
  } | null>;
  scheduledActions?: pulumi.Input<
    { type: "urgency_change"; at: { type: "named_time"; name: "support_hours_start" | "support_hours_end" }; toUrgency: Urgency }[]
  >;
  alertGroupingParameters?: pulumi.Input<{
    type: "time" | "intelligent" | "content_based" | null;
    config?: { timeout?: number; timeWindow?: number; aggregate?: "all" | "any"; fields?: string[]; recommendedTimeWindow?: number };
  } | null>;
  autoPauseNotificationsParameters?: pulumi.Input<{ enabled: boolean; timeout?: 0 | 120 | 180 | 300 | 600 | 900 | null }>;
  /** Adopt the existing service with this id instead of creating one; its managed fields are set to the declared values. */
  adoptId?: pulumi.Input<string>;
}

/** A PagerDuty service. Fields left unset are not managed: server defaults never show as a diff. */
export class Service extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly escalationPolicy: pulumi.Output<string>;
  declare readonly autoResolveTimeout: pulumi.Output<number | null>;
  declare readonly acknowledgementTimeout: pulumi.Output<number | null>;
  declare readonly status: pulumi.Output<string>;
  declare readonly alertCreation: pulumi.Output<string>;
  declare readonly incidentUrgencyRule: pulumi.Output<Record<string, unknown> | null>;
  declare readonly supportHours: pulumi.Output<Record<string, unknown> | null>;
  declare readonly scheduledActions: pulumi.Output<Record<string, unknown>[]>;
  declare readonly alertGroupingParameters: pulumi.Output<Record<string, unknown> | null>;
  declare readonly autoPauseNotificationsParameters: pulumi.Output<Record<string, unknown> | null>;
  declare readonly htmlUrl: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly summary: pulumi.Output<string>;
  declare readonly lastIncidentTimestamp: pulumi.Output<string | null>;

  constructor(name: string, args: ServiceArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      status: undefined, alertCreation: undefined, incidentUrgencyRule: undefined, supportHours: undefined,
      scheduledActions: undefined, alertGroupingParameters: undefined, autoPauseNotificationsParameters: undefined,
      description: undefined, autoResolveTimeout: undefined, acknowledgementTimeout: undefined,
      htmlUrl: undefined, createdAt: undefined, summary: undefined, lastIncidentTimestamp: undefined,
    };
    super(providerFor("Service"), name, { ...outputs, ...args, __origin: originOf("Service", name, opts) }, opts, "pagerduty", "Service");
  }
}

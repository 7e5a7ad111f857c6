import * as pulumi from "@pulumi/pulumi";
import { providerFor } from "./provider";

export interface ServiceEventRulesConversionArgs {
  /** Id of the service whose event rules are converted. Changing it converts the other service (the first stays converted). */
  service: pulumi.Input<string>;
}

/**
 * Converts a service's event rules into event orchestration rules
 * (`POST /services/{id}/rules/convert`). This is irreversible:
 *
 * - creating the resource performs the conversion (converting an already converted service is a no-op);
 * - afterwards the service's event rules are read-only: creating or updating a `ServiceEventRule` of
 *   the service fails with an error naming the conversion (order them with `dependsOn`);
 * - deleting the resource does NOT undo the conversion (the API cannot): it only removes the resource
 *   from the Pulumi state and logs a warning saying so.
 */
export class ServiceEventRulesConversion extends pulumi.dynamic.Resource {
  declare readonly service: pulumi.Output<string>;
  declare readonly convertStatus: pulumi.Output<string>;
  declare readonly convertedAt: pulumi.Output<string | null>;
  /** Id of the event orchestration the rules now live in. */
  declare readonly convertedTo: pulumi.Output<string | null>;
  declare readonly convertedToType: pulumi.Output<string | null>;
  declare readonly rulesConverted: pulumi.Output<number | null>;

  constructor(name: string, args: ServiceEventRulesConversionArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { convertStatus: undefined, convertedAt: undefined, convertedTo: undefined, convertedToType: undefined, rulesConverted: undefined };
    super(providerFor("ServiceEventRulesConversion"), name, { ...outputs, ...args }, opts, "pagerduty", "ServiceEventRulesConversion");
  }
}

import * as pulumi from "@pulumi/pulumi";
import { providerFor } from "./provider";

export interface ServiceEnablementArgs {
  /** Id of the service; changing it replaces the resource. */
  service: pulumi.Input<string>;
  /** The feature; the API has only "aiops". Changing it replaces the resource. */
  feature: pulumi.Input<"aiops">;
  enabled: pulumi.Input<boolean>;
}

/**
 * One feature switch of a service. Create records the value found before (`previousEnabled`);
 * delete writes it back. API warnings (e.g. the account is not entitled to the feature) are shown
 * as Pulumi warnings and do not fail the update. There is no `adoptId`: creating this resource
 * over an existing setting adopts it.
 */
export class ServiceEnablement extends pulumi.dynamic.Resource {
  declare readonly service: pulumi.Output<string>;
  declare readonly feature: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly updatedAt: pulumi.Output<string | null>;
  /** The value before this resource first wrote it; restored on delete. */
  declare readonly previousEnabled: pulumi.Output<boolean>;

  constructor(name: string, args: ServiceEnablementArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor("ServiceEnablement"), name, { updatedAt: undefined, previousEnabled: undefined, ...args }, opts, "pagerduty", "ServiceEnablement");
  }
}

import * as pulumi from "@pulumi/pulumi";
import { providerFor } from "./provider";

/** A custom field value: a scalar of the field's data type, an array for multi-value fields, or null (empty). */
export type CustomFieldValue = string | number | boolean | null | Array<string | number | boolean>;

export interface ServiceCustomFieldValuesArgs {
  /** Id of the service; changing it replaces the resource. */
  service: pulumi.Input<string>;
  /** Values by custom field NAME. Only these fields are managed; the service's other fields are left alone. */
  values: pulumi.Input<Record<string, pulumi.Input<CustomFieldValue>>>;
}

/**
 * Custom field values of a service. Create records what the named fields held before
 * (`previousValues`); removing a field from `values`, or deleting the resource, restores that value.
 * There is no `adoptId`: creating this resource over existing values adopts them, and their values
 * at that moment are what delete restores.
 */
export class ServiceCustomFieldValues extends pulumi.dynamic.Resource {
  declare readonly service: pulumi.Output<string>;
  /** Live values of the managed fields. */
  declare readonly values: pulumi.Output<Record<string, CustomFieldValue>>;
  /** What the managed fields held before this resource first set them; restored on delete. */
  declare readonly previousValues: pulumi.Output<Record<string, CustomFieldValue>>;

  constructor(name: string, args: ServiceCustomFieldValuesArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor("ServiceCustomFieldValues"), name, { previousValues: undefined, ...args }, opts, "pagerduty", "ServiceCustomFieldValues");
  }
}

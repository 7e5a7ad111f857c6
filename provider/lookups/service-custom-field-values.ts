// getServiceCustomFieldValues: every custom field of a service, its value by name and its definition.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { fromApi } from "../kernel/case";
import { defineLookup, named } from "../kernel/define";
import { definition as valuesDefinition, getFieldValues } from "../resources/service-custom-field-values";
import { idOf, serviceArg } from "./fields";
import { underService } from "./find";

/** A custom field's value (the `CustomFieldValue` of the SDK). */
const value = valuesDefinition.outputs.shape.values.valueSchema;

const field = named(
  "CustomFieldLookup",
  z.object({
    id: idOf("custom field"),
    name: z.string().describe("The field's name, the key of `values`."),
    displayName: z.string().optional().describe("The field's name as the web app shows it."),
    dataType: z.string().optional().describe("boolean, integer, float, string, datetime or url."),
    fieldType: z.string().optional().describe("single_value, single_value_fixed, multi_value or multi_value_fixed."),
    value: value.describe("The field's value on the service (null: empty)."),
  }),
);

export const definition = defineLookup({
  functionName: "getServiceCustomFieldValues",
  query: "serviceCustomFieldValues",
  description: "Every custom field of a service: `values` by field name, and `fields` with their definitions.",
  args: z.object({ service: serviceArg }).strict(),
  result: z.object({
    values: z.record(value).describe("Each custom field's value on the service, by field name (null: empty)."),
    fields: z.array(field).describe("The custom fields with their definitions."),
  }),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { service }) {
    const fields = await underService(ctx, service, () => getFieldValues(ctx.client, service));
    // Values as the API sends them: of the field's data type (the API checked them on write).
    const fieldValue = (f: { value?: unknown }) => (f.value ?? null) as z.output<typeof value>;
    return {
      values: Object.fromEntries(fields.map((f) => [f.name, fieldValue(f)])),
      fields: fields.map((f) => fromApi<z.output<typeof field>>({ ...f, value: fieldValue(f) })),
    };
  },
};

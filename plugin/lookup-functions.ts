// The lookups as the package's functions (invokes): each of the SDK's get* functions of
// sdk/lookups.ts, by the query it runs (provider/resources/lookup.ts) and the schema of its result
// (provider/resources/lookup-results.ts). A plugin serves invokes, so here a lookup is a plain
// function call, not the resource the dynamic providers need; it runs the same query code.
import { z } from "zod";
import { named } from "../provider/kernel/define";
import { type LookupInputs, lookupInputs } from "../provider/resources/lookup";

export type Query = LookupInputs["query"];

export interface LookupFunction {
  /** The function's name, as sdk/lookups.ts names it: `getService`. */
  name: string;
  query: Query;
}

/** Each get* function of sdk/lookups.ts and its query (scripts/generate-schema.ts checks they match). */
export const LOOKUP_FUNCTIONS: readonly LookupFunction[] = [
  { name: "getService", query: "service" },
  { name: "getEscalationPolicy", query: "escalationPolicy" },
  { name: "getVendor", query: "vendor" },
  { name: "getPriority", query: "priority" },
  { name: "getBusinessService", query: "businessService" },
  { name: "getAlertGroupingSetting", query: "alertGroupingSetting" },
  { name: "getServiceIntegration", query: "serviceIntegration" },
  { name: "getServiceEventRules", query: "serviceEventRules" },
  { name: "getServiceEnablements", query: "serviceEnablements" },
  { name: "getServiceCustomFieldValues", query: "serviceCustomFieldValues" },
  { name: "getServiceAuditRecords", query: "serviceAuditRecords" },
];

/** The argument schema of a query (an object schema), from the provider's input union. */
export function argsOf(query: Query): z.AnyZodObject {
  const option = lookupInputs.options.find((o) => o.shape.query.value === query);
  if (!option) throw new TypeError(`no lookup query "${query}"`);
  let args = option.shape.args as z.ZodTypeAny;
  while (args instanceof z.ZodEffects) args = args.innerType();
  return args as z.AnyZodObject;
}

/**
 * The result schema of a query: one of the lookup result schemas, or an object holding a list of
 * them, as the SDK's functions type their results.
 */
export function resultOf(query: Query, results: ReadonlyArray<{ name: string; schema: z.ZodTypeAny }>): z.ZodTypeAny {
  const r = (name: string) => {
    const found = results.find((x) => x.name === name);
    if (!found) throw new TypeError(`no lookup result named ${name}`);
    return named(name, found.schema);
  };
  const list = (key: string, name: string, doc: string) => z.object({ [key]: z.array(r(name)).describe(doc) });
  switch (query) {
    case "service":
      return r("ServiceLookupResult");
    case "escalationPolicy":
      return r("EscalationPolicyLookupResult");
    case "vendor":
      return r("VendorLookupResult");
    case "priority":
      return r("PriorityLookupResult");
    case "businessService":
      return r("BusinessServiceLookupResult");
    case "alertGroupingSetting":
      return r("AlertGroupingSettingLookupResult");
    case "serviceIntegration":
      return r("ServiceIntegrationLookupResult");
    case "serviceEventRules":
      return list("rules", "EventRuleLookup", "The service's event rules, in position order.");
    case "serviceEnablements":
      return list("enablements", "EnablementLookup", "The service's feature switches.");
    case "serviceCustomFieldValues": {
      const field = r("CustomFieldLookup");
      const value = (field as z.AnyZodObject).shape.value as z.ZodTypeAny;
      return z.object({
        values: z.record(value).describe("Each custom field's value on the service, by field name (null: empty)."),
        fields: z.array(field).describe("The custom fields with their definitions."),
      });
    }
    case "serviceAuditRecords":
      return list("records", "AuditRecordLookup", "The audit records in the window, newest first.");
  }
}

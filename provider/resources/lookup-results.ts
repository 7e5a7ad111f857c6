// The result of each SDK lookup, printed as the SDK's result types (sdk/lookup-results.ts) by
// scripts/generate-sdk.ts. Only the generator loads this: the provider process never needs it.
import { z } from "zod";
import { documentedOutputs } from "../kernel/define";
import { definition as serviceDefinition } from "./service";
import { definition as customFieldValuesDefinition } from "./service-custom-field-values";
import { definition as ruleDefinition } from "./service-event-rule";
import { definition as integrationDefinition } from "./service-integration";
import { definition as settingDefinition } from "./alert-grouping-setting";

const id = (what: string) => z.string().describe(`Id of the ${what}.`);
const ruleOutputs = documentedOutputs(ruleDefinition);

/** The result of each SDK lookup, by the name of its type in sdk/lookup-results.ts. */
export const LOOKUP_RESULTS: ReadonlyArray<{ name: string; schema: z.ZodTypeAny }> = [
  { name: "ServiceLookupResult", schema: documentedOutputs(serviceDefinition).extend({ id: id("service") }) },
  {
    name: "EscalationPolicyLookupResult",
    schema: z.object({
      id: id("escalation policy"),
      name: z.string().describe("The policy's name."),
      description: z.string().nullable().describe("The policy's description, if it has one."),
      numLoops: z.number().nullable().describe("How often the policy repeats when no one acknowledges."),
      htmlUrl: z.string().describe("The policy's page in the PagerDuty web app."),
      summary: z.string().describe("A short text the API gives the policy."),
    }),
  },
  {
    name: "VendorLookupResult",
    schema: z.object({
      id: id("vendor"),
      name: z.string().describe("The vendor's name."),
      summary: z.string().describe("A short text the API gives the vendor."),
      description: z.string().nullable().describe("What the vendor's integration does, if the catalogue says."),
      websiteUrl: z.string().nullable().describe("The vendor's website, if the catalogue has it."),
    }),
  },
  {
    name: "PriorityLookupResult",
    schema: z.object({
      id: id("priority"),
      name: z.string().describe('The priority\'s name, e.g. "P1".'),
      description: z.string().nullable().describe("The priority's description, if it has one."),
      summary: z.string().describe("A short text the API gives the priority."),
    }),
  },
  {
    name: "BusinessServiceLookupResult",
    schema: z.object({
      id: id("business service"),
      type: z.literal("business_service").describe('Always "business_service": with `id`, a `ServiceDependency` side.'),
      name: z.string().describe("The business service's name."),
      summary: z.string().describe("A short text the API gives the business service."),
      description: z.string().nullable().describe("The business service's description, if it has one."),
      pointOfContact: z.string().nullable().describe("Who to contact about it, if it names someone."),
      team: z.string().nullable().describe("Id of the team that owns it, if one does."),
    }),
  },
  {
    name: "AlertGroupingSettingLookupResult",
    // The input's text ("Unset: not managed") is about declaring one, not reading it.
    schema: documentedOutputs(settingDefinition).extend({
      id: id("alert grouping setting"),
      description: z.string().nullable().describe("The setting's description, if it has one."),
    }),
  },
  {
    name: "ServiceIntegrationLookupResult",
    // Never the routing key: a secret, and the lookup's result is stored in plain text.
    schema: documentedOutputs(integrationDefinition)
      .omit({ integrationKey: true })
      .extend({ id: id("integration") }),
  },
  {
    name: "EventRuleLookup",
    schema: ruleOutputs
      .pick({ position: true, disabled: true, conditions: true, timeFrame: true, variables: true, actions: true })
      .partial({ conditions: true, timeFrame: true, variables: true, actions: true })
      .extend({ id: id("rule") })
      .passthrough(),
  },
  {
    name: "EnablementLookup",
    schema: z.object({
      feature: z.string().describe('The feature, e.g. "aiops".'),
      enabled: z.boolean().describe("Whether the feature is on for the service."),
      updatedAt: z.string().nullable().describe("When the switch was last written (ISO 8601); null when it never was."),
      warnings: z.array(z.string()).describe("Warnings the API attaches (e.g. the account is not entitled to the feature)."),
    }),
  },
  {
    name: "CustomFieldLookup",
    schema: z.object({
      id: id("custom field"),
      name: z.string().describe("The field's name, the key of `values`."),
      displayName: z.string().optional().describe("The field's name as the web app shows it."),
      dataType: z.string().optional().describe("boolean, integer, float, string, datetime or url."),
      fieldType: z.string().optional().describe("single_value, single_value_fixed, multi_value or multi_value_fixed."),
      value: customFieldValuesDefinition.outputs.shape.values.valueSchema.describe("The field's value on the service (null: empty)."),
    }),
  },
  {
    name: "AuditRecordLookup",
    schema: z
      .object({
        id: id("record"),
        executionTime: z.string().describe("When the change was made (ISO 8601)."),
        action: z.string().describe('What was done, e.g. "create" or "update".'),
        actors: z.array(z.record(z.unknown())).optional().describe("Who made the change."),
        method: z
          .object({
            type: z.string().describe('How the change was made, e.g. "api_token" or "oauth".'),
            truncatedToken: z.string().optional().describe("The last characters of the credential used."),
          })
          .optional()
          .describe("How the change was made."),
        rootResource: z.record(z.unknown()).optional().describe("The object the record belongs to (the service)."),
        details: z
          .object({
            resource: z.record(z.unknown()).optional().describe("The object that changed."),
            fields: z
              .array(
                z.object({
                  name: z.string().describe("The field's name."),
                  value: z.string().optional().describe("Its value after the change."),
                  beforeValue: z.string().optional().describe("Its value before the change."),
                }),
              )
              .optional()
              .describe("The fields that changed."),
            references: z.array(z.unknown()).optional().describe("Objects the change referenced."),
          })
          .optional()
          .describe("What changed."),
      })
      .passthrough(),
  },
];

// Type-level checks of the lookups of sdk/lookups.ts (generated): the compiler (`tsc --noEmit`, in
// `npm run check`) checks this file, so a lookup whose name, arguments, options or result type
// changed fails. Nothing is called (no Pulumi engine here); the functions below are only compiled.
import type * as pulumi from "@pulumi/pulumi";
import * as pagerduty from "../../../sdk";

/** Every lookup by name, with plain and Output arguments, typed as programs use them. */
export function typicalUses(name: pulumi.Output<string>, service: pulumi.Output<string>, eu: pagerduty.Account, svc: pagerduty.Service) {
  const opts: pagerduty.LookupOptions = { name: "mine", account: eu, dependsOn: [svc], parent: svc, aliases: [] };
  const byName: pagerduty.LookupOptions = { account: "eu" };
  const found: pulumi.Output<pagerduty.ServiceLookupResult> = pagerduty.getService({ name }, opts);
  const policy: pulumi.Output<pagerduty.EscalationPolicyLookupResult> = pagerduty.getEscalationPolicy({ name: "Ops" }, byName);
  const vendor: pulumi.Output<pagerduty.VendorLookupResult> = pagerduty.getVendor({ name: "Datadog" });
  const priority: pulumi.Output<pagerduty.PriorityLookupResult> = pagerduty.getPriority({ name: "P1" });
  const business: pulumi.Output<pagerduty.BusinessServiceLookupResult> = pagerduty.getBusinessService({ name: "Checkout" });
  const setting: pulumi.Output<pagerduty.AlertGroupingSettingLookupResult> = pagerduty.getAlertGroupingSetting({ name: "Nights" });
  const integration: pulumi.Output<pagerduty.ServiceIntegrationLookupResult> = pagerduty.getServiceIntegration({ service, name: "Alerts" });
  const rules: pulumi.Output<{ rules: pagerduty.EventRuleLookup[] }> = pagerduty.getServiceEventRules({ service });
  const enablements: pulumi.Output<{ enablements: pagerduty.EnablementLookup[] }> = pagerduty.getServiceEnablements({ service: "P1" });
  const fields: pulumi.Output<{ values: Record<string, pagerduty.CustomFieldValue>; fields: pagerduty.CustomFieldLookup[] }> =
    pagerduty.getServiceCustomFieldValues({ service });
  const window: pagerduty.ServiceAuditRecordsArgs = { service, since: "2026-01-01T00:00:00Z", until: name, limit: 10 };
  const audit: pulumi.Output<{ records: pagerduty.AuditRecordLookup[] }> = pagerduty.getServiceAuditRecords(window, { name: "audit" });
  const derived: string = pagerduty.lookupName("getService", { name: "Checkout" });
  return { found, policy, vendor, priority, business, setting, integration, rules, enablements, fields, audit, derived };
}

/** The result types name the fields programs read. */
export function resultFields(found: pagerduty.ServiceLookupResult, business: pagerduty.BusinessServiceLookupResult, rule: pagerduty.EventRuleLookup) {
  const id: string = found.id;
  const policy: string = found.escalationPolicy;
  const side: { id: string; type: "business_service" } = { id: business.id, type: business.type };
  const position: number = rule.position;
  return { id, policy, side, position };
}

/** Arguments the lookups do not take are refused by the compiler. */
export function refused() {
  // @ts-expect-error getService takes a name, not a service
  pagerduty.getService({ service: "P1" });
  // @ts-expect-error a limit is a number
  pagerduty.getServiceAuditRecords({ service: "P1", limit: "10" });
  // @ts-expect-error the options take no other keys
  pagerduty.getVendor({ name: "x" }, { protect: true });
}

test("the lookups' types compile (checked by ts-jest when this file is compiled)", () => {
  expect(typeof typicalUses).toBe("function");
});
